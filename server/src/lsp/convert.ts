/**
 * Between the protocol and the engine: what a client sends is checked before it is used (a
 * malformed document, position or range is InvalidParams), and what the engine found is turned into
 * LSP values, every range inside the document it names.
 */
import { isAbsolute, resolve as resolvePath } from 'node:path';
import {
  CompletionItemKind,
  DiagnosticSeverity,
  DiagnosticTag,
  ErrorCodes,
  FoldingRangeKind,
  InsertTextFormat,
  MarkupKind,
  ResponseError,
  SymbolKind,
  type CompletionItem,
  type Diagnostic,
  type DocumentSymbol,
  type FoldingRange,
  type InitializeParams,
  type Position,
  type Range,
  type SymbolInformation,
} from 'vscode-languageserver/node';
import { ruleById, ruleDocsUrl, type CompletionEntry, type FileAnalysis, type Finding, type FindingTag, type FoldRange, type OutlineKind, type OutlineSymbol, type Severity, type Span } from '../engine';
import { snippetToPlainText } from './snippet';
import { URI } from './uri';

type Lines = FileAnalysis['lines'];

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

const TAG: Record<FindingTag, DiagnosticTag> = { unnecessary: DiagnosticTag.Unnecessary, deprecated: DiagnosticTag.Deprecated };

const SYMBOL_KIND: Record<OutlineKind, SymbolKind> = {
  section: SymbolKind.Module,
  list: SymbolKind.Array,
  key: SymbolKind.Property,
  variable: SymbolKind.Variable,
  command: SymbolKind.Function,
  flag: SymbolKind.Property,
};

export function isObject(v: unknown): v is Record<string, any> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function isVersion(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v);
}

export const invalidParams = (what: string) => new ResponseError(ErrorCodes.InvalidParams, `invalid params: ${what}`);

/**
 * A position from a client: line and character must be numbers; negative ones are read as 0 and
 * fractions are cut (the protocol's are unsigned integers) unless `clamp` is false, when they are
 * left for the document to clamp.
 */
export function positionParam(p: unknown, clamp = true): Position | undefined {
  if (!isObject(p) || typeof p.line !== 'number' || typeof p.character !== 'number' || !Number.isFinite(p.line) || !Number.isFinite(p.character)) return undefined;
  return clamp ? { line: Math.max(0, Math.floor(p.line)), character: Math.max(0, Math.floor(p.character)) } : { line: Math.trunc(p.line), character: Math.trunc(p.character) };
}

export function rangeParam(r: unknown, clamp = true): Range | undefined {
  if (!isObject(r)) return undefined;
  const start = positionParam(r.start, clamp);
  const end = positionParam(r.end, clamp);
  return start && end ? { start, end } : undefined;
}

export function documentUri(params: unknown): string | undefined {
  return isObject(params) && isObject(params.textDocument) && typeof params.textDocument.uri === 'string' ? params.textDocument.uri : undefined;
}

/** The document and position of a position request, or what is wrong with them. */
export function documentPosition(params: unknown): { uri: string; position: Position } | string {
  const uri = documentUri(params);
  if (uri === undefined) return 'textDocument.uri';
  const position = positionParam((params as { position?: unknown }).position);
  return position ? { uri, position } : 'position';
}

/**
 * The LSP range of a span, always inside the text the index is of: offsets are clamped to the
 * text, the start comes first, and a character never goes past its line's end (an offset between
 * the `\r` and `\n` of a line break is the end of that line).
 */
export function toRange(lines: Lines, span: Span): Range {
  const len = lines.text.length;
  const clampOffset = (o: number) => (Number.isFinite(o) ? Math.max(0, Math.min(Math.floor(o), len)) : 0);
  const a = clampOffset(span?.start);
  const b = clampOffset(span?.end);
  const at = (o: number): Position => {
    const p = lines.position(o);
    const lineLength = lines.lineEnd(p.line) - lines.lineStart(p.line);
    return { line: p.line, character: Math.max(0, Math.min(p.character, lineLength)) };
  };
  return { start: at(Math.min(a, b)), end: at(Math.max(a, b)) };
}

export function sameRange(a: Range, b: Range): boolean {
  return a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;
}

/** The workspace folders' paths (`file:` folders only), or the root of older clients. */
export function rootsOf(params: InitializeParams): string[] {
  const folders = (Array.isArray(params.workspaceFolders) ? params.workspaceFolders : []).flatMap((f) => (isObject(f) ? pathOf(f.uri) : []));
  if (folders.length) return folders;
  if (typeof params.rootUri === 'string') return pathOf(params.rootUri);
  return typeof params.rootPath === 'string' && isAbsolute(params.rootPath) ? [resolvePath(params.rootPath)] : [];
}

export function pathOf(uri: unknown): string[] {
  const p = URI.fsPath(uri);
  return p ? [p] : [];
}

/** What the client shows of a diagnostic beyond its range, severity, code and message. */
export interface DiagnosticSupport {
  codeDescriptions: boolean;
  relatedInformation: boolean;
  diagnosticTags: Set<number>;
}

/**
 * A finding as a diagnostic, with as much as the client declares it shows: the rule's documentation
 * link, tags, and the related places (another file's by `uriOf`).
 */
export function toDiagnostic(uri: string, a: FileAnalysis, f: Finding, client: DiagnosticSupport, uriOf: (path: string) => string): Diagnostic {
  const d: Diagnostic = {
    range: toRange(a.lines, f.span),
    severity: SEVERITY[f.severity],
    code: f.code,
    source: 'shardwise',
    message: f.message,
  };
  const rule = ruleById(f.code);
  if (client.codeDescriptions && rule) d.codeDescription = { href: ruleDocsUrl(rule.id) };
  const tags = (f.tags ?? []).map((t) => TAG[t]).filter((t) => client.diagnosticTags.has(t));
  if (tags.length) d.tags = tags;
  if (client.relatedInformation && f.related?.length) {
    d.relatedInformation = f.related.map((r) => ({
      location: { uri: r.path ? uriOf(r.path) : uri, range: toRange(r.path && r.lines ? r.lines : a.lines, r.span) },
      message: r.message,
    }));
  }
  return d;
}

/**
 * A completion entry as an item. The protocol requires a single-line range containing the cursor;
 * anything else is sent without a range, as text the client inserts at the cursor. A client without
 * snippet support gets the text a snippet would leave (each placeholder's default).
 */
export function toCompletionItem(c: CompletionEntry, a: FileAnalysis, cursor: Position, snippets: boolean): CompletionItem {
  const range = toRange(a.lines, c.replace);
  const snippet = c.snippet && snippets;
  const text = c.snippet && !snippets ? snippetToPlainText(c.insertText) : c.insertText;
  const valid = range.start.line === cursor.line && range.end.line === cursor.line && range.start.character <= cursor.character && cursor.character <= range.end.character;
  return {
    label: c.label,
    kind: c.kind === 'value' ? CompletionItemKind.Value : c.kind === 'section' ? CompletionItemKind.Module : CompletionItemKind.Property,
    detail: c.detail,
    documentation: c.documentation ? { kind: MarkupKind.Markdown, value: c.documentation } : undefined,
    ...(valid ? { textEdit: { range, newText: text } } : { insertText: text }),
    insertTextFormat: snippet ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
    sortText: c.sortText,
    filterText: c.label,
    tags: c.deprecated ? [1] : undefined,
    preselect: c.preselect,
  };
}

/** The outline as nested symbols, or flat ones with their container's name for older clients. */
export function toSymbols(uri: string, a: FileAnalysis, symbols: OutlineSymbol[], hierarchical: boolean): DocumentSymbol[] | SymbolInformation[] {
  const name = (s: OutlineSymbol) => s.name.trim() || '(empty)';
  if (hierarchical) {
    const convert = (s: OutlineSymbol): DocumentSymbol => ({
      name: name(s),
      detail: s.detail,
      kind: SYMBOL_KIND[s.kind],
      range: toRange(a.lines, s.span),
      selectionRange: toRange(a.lines, s.selection),
      children: s.children.map(convert),
    });
    return symbols.map(convert);
  }
  const flat: SymbolInformation[] = [];
  const walk = (s: OutlineSymbol, container?: string) => {
    flat.push({ name: name(s), kind: SYMBOL_KIND[s.kind], location: { uri, range: toRange(a.lines, s.span) }, ...(container ? { containerName: container } : {}) });
    for (const c of s.children) walk(c, name(s));
  };
  for (const s of symbols) walk(s);
  return flat;
}

export function toFoldingRange(r: FoldRange): FoldingRange {
  return r.kind === 'comment' ? { startLine: r.startLine, endLine: r.endLine, kind: FoldingRangeKind.Comment } : { startLine: r.startLine, endLine: r.endLine };
}
