import type { DocAnalysis, FileAnalysis } from '../result';

/** The document (of a multi-document YAML file) that contains an offset. */
export function docAt(analysis: FileAnalysis, offset: number): DocAnalysis | undefined {
  let found: DocAnalysis | undefined;
  for (const da of analysis.docs) if (offset >= da.doc.span.start && offset <= da.doc.span.end) found = da;
  return found ?? analysis.docs[analysis.docs.length - 1];
}
