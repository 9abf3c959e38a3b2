/**
 * Requests that read one document's analysis: links, definition, hover, completion, symbols,
 * folding, and the layout the client-side command shows. Each answers InvalidParams for a malformed
 * request and nothing for a document that is not open.
 */
import { MarkupKind, type CompletionItem, type DocumentLink, type DocumentSymbol, type FoldingRange, type Hover, type Location, type LocationLink, type ResponseError, type SymbolInformation } from 'vscode-languageserver/node';
import { COLOUR_BY, complete, documentSymbols, foldingRanges, hover, layoutMarkdown, layoutPicture, type ColourBy } from '../../engine';
import type { LayoutPicture } from '../../protocol';
import { documentPosition, documentUri, invalidParams, isObject, toCompletionItem, toFoldingRange, toRange, toSymbols } from '../convert';
import type { Workspace } from '../workspace';

export async function onDocumentLinks(ws: Workspace, params: unknown): Promise<DocumentLink[] | ResponseError> {
  const uri = documentUri(params);
  if (uri === undefined) return invalidParams('textDocument.uri');
  const a = await ws.current(uri);
  if (!a) return [];
  return (a.links ?? []).flatMap((l): DocumentLink[] => (l.target ? [{ range: toRange(a.lines, l.span), target: ws.uriOfPath(l.target), tooltip: l.target }] : []));
}

/** The file a reference names: its first line (a link with the reference's range where the client takes links). */
export async function onDefinition(ws: Workspace, params: unknown): Promise<Location | LocationLink[] | null | ResponseError> {
  const at = documentPosition(params);
  if (typeof at === 'string') return invalidParams(at);
  const a = await ws.current(at.uri);
  if (!a) return null;
  const offset = a.lines.offset(at.position);
  const link = (a.links ?? []).find((l) => l.target && l.span.start <= offset && offset <= l.span.end);
  if (!link?.target) return null;
  const targetUri = ws.uriOfPath(link.target);
  const start = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  return ws.client.definitionLinks ? [{ originSelectionRange: toRange(a.lines, link.span), targetUri, targetRange: start, targetSelectionRange: start }] : { uri: targetUri, range: start };
}

export async function onHover(ws: Workspace, params: unknown): Promise<Hover | null | ResponseError> {
  const at = documentPosition(params);
  if (typeof at === 'string') return invalidParams(at);
  const a = await ws.current(at.uri);
  if (!a) return null;
  const h = hover(a, a.lines.offset(at.position));
  return h ? { contents: { kind: MarkupKind.Markdown, value: h.markdown }, range: toRange(a.lines, h.span) } : null;
}

export async function onCompletion(ws: Workspace, params: unknown): Promise<CompletionItem[] | ResponseError> {
  const at = documentPosition(params);
  if (typeof at === 'string') return invalidParams(at);
  const a = await ws.current(at.uri);
  if (!a) return [];
  const offset = a.lines.offset(at.position);
  // The position as the client resolves it (past the end of a line: the end of that line).
  const cursor = toRange(a.lines, { start: offset, end: offset }).start;
  return complete(a, offset).map((c) => toCompletionItem(c, a, cursor, ws.client.snippets));
}

export async function onDocumentSymbol(ws: Workspace, params: unknown): Promise<DocumentSymbol[] | SymbolInformation[] | null | ResponseError> {
  const uri = documentUri(params);
  if (uri === undefined) return invalidParams('textDocument.uri');
  const a = await ws.current(uri);
  return a ? toSymbols(uri, a, documentSymbols(a), ws.client.hierarchicalSymbols) : null;
}

/** Folding of launch scripts only: for YAML and JSON the editor's own folding stays. */
export async function onFoldingRanges(ws: Workspace, params: unknown): Promise<FoldingRange[] | null | ResponseError> {
  const uri = documentUri(params);
  if (uri === undefined) return invalidParams('textDocument.uri');
  const a = await ws.current(uri);
  if (!a || a.syntax !== 'shell') return null;
  const ranges = foldingRanges(a).map(toFoldingRange);
  return ws.client.foldingLimit !== undefined ? ranges.slice(0, ws.client.foldingLimit) : ranges;
}

/** The layout as markdown, for the client's own "Show layout" command. */
export async function onLayout(ws: Workspace, params: unknown): Promise<string | null> {
  if (!isObject(params) || typeof params.uri !== 'string') return null;
  const a = await ws.current(params.uri);
  return a ? layoutMarkdown(a) ?? null : null;
}

/** The picture of the layout, with the range of each degree, for the client's layout view. */
export async function onLayoutPicture(ws: Workspace, params: unknown): Promise<LayoutPicture | null> {
  if (!isObject(params) || typeof params.uri !== 'string') return null;
  const colourBy: ColourBy = (COLOUR_BY as readonly unknown[]).includes(params.colourBy) ? params.colourBy : 'tp';
  const a = await ws.current(params.uri);
  const version = ws.documents.get(params.uri)?.version;
  const picture = a && layoutPicture(a, colourBy);
  if (!a || !picture || version === undefined) return null;
  return { version, svg: picture.svg, degrees: picture.degrees.map((d) => ({ name: d.name, value: d.value, ...(d.span ? { range: toRange(a.lines, d.span) } : {}) })) };
}
