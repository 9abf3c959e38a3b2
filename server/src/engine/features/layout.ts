/**
 * The layout surface: a one-line summary above each document that describes a parallel layout
 * (code lens), and the full description for `shardwise layout` and the editor's layout view.
 */
import type { FileAnalysis } from '../result';
import { planMarkdown, planText } from '../plan/describe';
import { layoutSummary } from '../plan/layout';
import type { Span } from '../types';

export interface LayoutLens {
  /** The first line of the document's content. */
  span: Span;
  title: string;
  docIndex: number;
}

export function layoutLenses(a: FileAnalysis): LayoutLens[] {
  const out: LayoutLens[] = [];
  a.docs.forEach((da, i) => {
    if (!da.plan || !da.doc.root) return;
    const line = a.lines.position(da.doc.root.span.start).line;
    out.push({ span: { start: a.lines.lineStart(line), end: a.lines.lineEnd(line) }, title: layoutSummary(da.plan), docIndex: i });
  });
  return out;
}

function titled(a: FileAnalysis, i: number): string {
  return a.docs.length > 1 ? `document ${i + 1}` : '';
}

export function layoutMarkdown(a: FileAnalysis): string | undefined {
  const parts = a.docs.map((da, i) => (da.plan ? `${titled(a, i) ? `### ${titled(a, i)}\n\n` : ''}${planMarkdown(da.plan)}` : '')).filter(Boolean);
  return parts.length ? parts.join('\n\n---\n\n') : undefined;
}

export function layoutText(a: FileAnalysis): string | undefined {
  const parts = a.docs.map((da, i) => (da.plan ? `${titled(a, i) ? `# ${titled(a, i)}\n` : ''}${planText(da.plan)}` : '')).filter(Boolean);
  return parts.length ? parts.join('\n\n') : undefined;
}
