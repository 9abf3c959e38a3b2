/** `textDocument/diagnostic`: the pull model, with `unchanged` while the version and findings stay. */
import type { DocumentDiagnosticReport } from 'vscode-languageserver/node';
import { documentUri, invalidParams, isObject } from '../convert';
import type { Workspace } from '../workspace';

export async function onPullDiagnostics(ws: Workspace, params: unknown): Promise<DocumentDiagnosticReport> {
  const uri = documentUri(params);
  if (uri === undefined) throw invalidParams('textDocument.uri');
  const items = await ws.pullDiagnostics(uri);
  const doc = ws.documents.get(uri);
  // Not open (or closed meanwhile): nothing to say about it.
  if (!items || !doc) return { kind: 'full', items: [] };
  const resultId = ws.resultId(uri, doc.version, items);
  const previous = isObject(params) ? params.previousResultId : undefined;
  if (typeof previous === 'string' && previous === resultId) return { kind: 'unchanged', resultId };
  return { kind: 'full', resultId, items };
}
