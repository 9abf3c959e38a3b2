/**
 * JSON → SourceDoc, with `jsonc-parser` (which keeps offsets and recovers from errors). The tools
 * read their JSON with Python's strict `json.load`, so comments and trailing commas are reported.
 */
import * as J from 'jsonc-parser';
import { LineIndex } from '../text';
import type { Path, Span, TextEdit } from '../types';
import { TreeDoc, type CompletionSite, type PathEdit, type SourceDoc, type SyntaxProblem } from './sourcedoc';
import { sameValue, type Entry, type MapNode, type Node } from './tree';
import { MAX_DEPTH, MAX_PARSER_DEPTH, MAX_SYNTAX_ERRORS, tooDeep } from './yaml';

const ERROR_TEXT: Partial<Record<J.ParseErrorCode, string>> = {
  [J.ParseErrorCode.InvalidCommentToken]: 'JSON has no comments; Python\'s json.load rejects the file',
  [J.ParseErrorCode.PropertyNameExpected]: 'a property name in double quotes is expected here (a trailing comma?)',
  [J.ParseErrorCode.ValueExpected]: 'a value is expected here (a trailing comma?)',
  [J.ParseErrorCode.CommaExpected]: 'a comma is expected here',
  [J.ParseErrorCode.ColonExpected]: 'a colon is expected here',
  [J.ParseErrorCode.CloseBraceExpected]: 'a closing } is expected',
  [J.ParseErrorCode.CloseBracketExpected]: 'a closing ] is expected',
  [J.ParseErrorCode.EndOfFileExpected]: 'nothing may follow the top-level value',
  [J.ParseErrorCode.UnexpectedEndOfString]: 'this string is not closed',
  [J.ParseErrorCode.InvalidSymbol]: 'this is not JSON (strings need double quotes; true/false/null are lower-case)',
};

export function parseJson(text: string, lines = new LineIndex(text)): JsonDoc {
  const deep = tooDeep(text, MAX_PARSER_DEPTH);
  if (deep >= 0) {
    const problem: SyntaxProblem = { code: 'parse-error', severity: 'error', message: `This file nests deeper than ${MAX_PARSER_DEPTH} levels; no config does, so it is not analysed.`, span: { start: deep, end: deep + 1 }, fatal: true };
    return new JsonDoc(text, lines, undefined, [problem]);
  }
  let { tree, errors } = parseStrict(text);
  // A key written without its quotes is read as the key it names (hjson, which DeepSpeed opens its
  // file with, reads it so; json.load stops on it, and the error says so once): the parser reads the
  // text again with those keys quoted, and every offset is taken back to the text as written. Only a
  // text the parser stopped on is scanned for them (a well-formed file, the usual one, is not).
  const bare = errors.length ? bareKeys(text) : [];
  if (bare.length) {
    const { quoted, back } = quoteKeys(text, bare);
    ({ tree, errors } = parseStrict(quoted));
    for (const e of errors) [e.offset, e.length] = [back(e.offset), back(e.offset + e.length) - back(e.offset)];
    if (tree) remap(tree, back);
  }
  const problems = [...bare.map(bareKeyProblem(text)), ...syntaxProblems(text, errors)].sort((a, b) => a.span.start - b.span.start);
  const root = tree ? convert(tree, problems, 0, text.length) : undefined;
  return new JsonDoc(text, lines, root, problems);
}

/** The text parsed as `json.load` reads it (no comments, no trailing commas), with the parser's errors. */
function parseStrict(text: string): { tree: J.Node | undefined; errors: J.ParseError[] } {
  const errors: J.ParseError[] = [];
  try {
    return { tree: J.parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: true }), errors };
  } catch {
    return { tree: undefined, errors: [...errors, { error: J.ParseErrorCode.InvalidSymbol, offset: 0, length: 0 }] };
  }
}

/** The keys written without quotes where a property name goes (after `{` or `,`, before `:`), by the parser's own scanner. */
function bareKeys(text: string): Span[] {
  const out: Span[] = [];
  const scan = J.createScanner(text, true);
  let prev: J.SyntaxKind | undefined;
  let candidate: Span | undefined;
  for (let t = scan.scan(), n = 0; t !== J.SyntaxKind.EOF && n < 1_000_000 && out.length < MAX_SYNTAX_ERRORS; t = scan.scan(), n++) {
    if (candidate && t === J.SyntaxKind.ColonToken) out.push(candidate);
    candidate = t === J.SyntaxKind.Unknown && (prev === J.SyntaxKind.OpenBraceToken || prev === J.SyntaxKind.CommaToken) ? { start: scan.getTokenOffset(), end: scan.getTokenOffset() + scan.getTokenLength() } : undefined;
    prev = t;
  }
  return out;
}

/** The text with each bare key in double quotes, and the map from an offset in it back to the text as written. */
function quoteKeys(text: string, bare: readonly Span[]): { quoted: string; back: (offset: number) => number } {
  if (!bare.length) return { quoted: text, back: (o) => o };
  let quoted = '';
  let from = 0;
  const inserted: number[] = [];
  for (const k of bare) {
    quoted += text.slice(from, k.start);
    inserted.push(quoted.length);
    quoted += `"${text.slice(k.start, k.end)}`;
    inserted.push(quoted.length);
    quoted += '"';
    from = k.end;
  }
  quoted += text.slice(from);
  // An offset goes back by the quotes inserted before it (an opening quote maps to the key's start).
  const back = (o: number): number => {
    let n = 0;
    while (n < inserted.length && inserted[n] < o) n++;
    return o - n;
  };
  return { quoted, back };
}

function remap(n: J.Node, back: (offset: number) => number): void {
  const m = n as { offset: number; length: number; colonOffset?: number };
  const end = back(n.offset + n.length);
  m.offset = back(n.offset);
  m.length = end - m.offset;
  if (n.colonOffset !== undefined) m.colonOffset = back(n.colonOffset);
  for (const c of n.children ?? []) remap(c, back);
}

const bareKeyProblem = (text: string) => (span: Span): SyntaxProblem => ({
  code: 'parse-error',
  severity: 'error',
  message: `JSON syntax: the key \`${text.slice(span.start, span.end)}\` is not in double quotes; Python's json.load stops here. Write it as "${text.slice(span.start, span.end)}".`,
  span,
});

/** A comma before the `}` or `]` at `offset` (nothing but blanks between them), or -1. */
function trailingComma(text: string, offset: number): number {
  if (text[offset] !== '}' && text[offset] !== ']') return -1;
  let i = offset - 1;
  while (i >= 0 && /\s/.test(text[i])) i--;
  return text[i] === ',' ? i : -1;
}

/**
 * The parser's errors as json.load meets them, each mistake once: a trailing comma is one error (the
 * parser reports a missing name and a missing value at the same place). Past an error the parser
 * only skips or guesses, except after a comment, a trailing comma or a bare word where a value goes
 * (a template's placeholder): the text around those reads as written.
 */
function syntaxProblems(text: string, errors: readonly J.ParseError[]): SyntaxProblem[] {
  const problems: SyntaxProblem[] = [];
  for (const e of errors) {
    if (problems.length >= MAX_SYNTAX_ERRORS) break;
    const span = clampSpan(e.offset, e.length, text.length);
    if (problems.some((p) => p.span.start === span.start)) continue;
    const comma = e.error === J.ParseErrorCode.PropertyNameExpected || e.error === J.ParseErrorCode.ValueExpected ? trailingComma(text, span.start) : -1;
    const closer = text[span.start];
    const message = comma >= 0
      ? `JSON syntax: a trailing comma: JSON allows no comma before the closing \`${closer}\`, and Python's json.load stops here. Remove the comma after the last ${closer === '}' ? 'entry' : 'item'}.`
      : `JSON syntax: ${ERROR_TEXT[e.error] ?? J.printParseErrorCode(e.error)}.`;
    const exact = comma >= 0 || e.error === J.ParseErrorCode.InvalidCommentToken || (e.error === J.ParseErrorCode.InvalidSymbol && /^[\w${]/.test(text[span.start] ?? ''));
    problems.push({ code: 'parse-error', severity: 'error', message, span, guessedFrom: exact ? undefined : span.start });
  }
  return problems;
}

/**
 * An offset and length from jsonc-parser, kept inside the text: it can end a node one character
 * past the end (an unterminated comment holding `\r\n`), and nothing may act on a place that is not there.
 */
function clampSpan(offset: number, length: number, size: number): Span {
  const start = Math.min(Math.max(0, offset), size);
  return { start, end: Math.min(Math.max(start, offset + length), size) };
}

function convert(n: J.Node, problems: SyntaxProblem[], depth: number, size: number): Node {
  const span: Span = clampSpan(n.offset, n.length, size);
  if (depth >= MAX_DEPTH) {
    if (!problems.some((p) => p.message.includes('nests deeper'))) {
      problems.push({ code: 'parse-error', severity: 'error', message: `This document nests deeper than ${MAX_DEPTH} levels; no config does, so the deeper part is not analysed.`, span: { start: span.start, end: span.start + 1 }, fatal: true });
    }
    return { kind: 'scalar', span, value: null, style: 'json', raw: '' };
  }
  switch (n.type) {
    case 'object': {
      const map: MapNode = { kind: 'map', span, entries: [], flow: true };
      for (const prop of n.children ?? []) {
        const [k, v] = prop.children ?? [];
        if (!k) continue;
        const keySpan = clampSpan(k.offset, k.length, size);
        const value: Node = v ? convert(v, problems, depth + 1, size) : { kind: 'scalar', span: { start: keySpan.end, end: keySpan.end }, value: null, style: 'json', raw: '' };
        map.entries.push({ key: String(k.value), keySpan, value, span: { start: keySpan.start, end: value.span.end } });
      }
      const last = new Map<string, Entry>();
      for (const e of map.entries) last.set(e.key, e);
      for (const e of map.entries) {
        const winner = last.get(e.key)!;
        if (winner === e) continue;
        const same = sameValue(e.value, winner.value);
        problems.push({
          code: 'duplicate-key',
          severity: same ? 'information' : 'warning',
          message: `"${e.key}" is written twice in this object${same ? ' with the same value' : ''}. json.load keeps only the last one and drops this one without a word.${same ? ' Both say the same, so nothing changes: one of them can go.' : ' Remove one of them.'}`,
          span: e.keySpan,
        });
      }
      // The tree holds what json.load keeps: the copies it drops are gone from the map.
      if (last.size < map.entries.length) {
        map.dropped = map.entries.filter((e) => last.get(e.key) !== e);
        map.entries = map.entries.filter((e) => last.get(e.key) === e);
      }
      return map;
    }
    case 'array':
      return { kind: 'seq', span, items: (n.children ?? []).map((c) => convert(c, problems, depth + 1, size)), flow: true };
    case 'string':
      return { kind: 'scalar', span, value: String(n.value), style: 'double', raw: '' };
    case 'number':
    case 'boolean':
    case 'null':
      return { kind: 'scalar', span, value: n.value as number | boolean | null, style: 'json', raw: '' };
    default:
      return { kind: 'scalar', span, value: null, style: 'json', raw: '' };
  }
}

/**
 * A value written as a bare placeholder (`"stage": CONFIG_ZERO_STAGE`, `{{ stage }}`, `${STAGE}`) in a
 * template that a script fills in before the tool reads it: not JSON, so the parser has no value; the
 * value is not known (not absent).
 */
function placeholder(text: string, e: Entry): void {
  const v = e.value;
  if (v.kind !== 'scalar' || v.value !== null || v.raw !== '' || v.span.start !== v.span.end) return;
  const m = /^\s*:\s*(\{\{\s*[\w.-]+\s*\}\}|\$\{?\w+\}?|[A-Za-z_][\w.-]*)\s*(?=[,}\]\r\n])/.exec(text.slice(e.keySpan.end, e.keySpan.end + 200));
  if (!m || /^(true|false|null)$/.test(m[1])) return;
  const start = e.keySpan.end + m[0].indexOf(m[1]);
  v.span = { start, end: start + m[1].length };
  v.raw = m[1];
  v.unknown = `\`${m[1]}\` is a placeholder: the file is filled in before the tool reads it`;
  e.span = { start: e.span.start, end: v.span.end };
}

export class JsonDoc extends TreeDoc {
  readonly syntax = 'json' as const;
  readonly index = 0;
  readonly span: Span;

  constructor(
    readonly text: string,
    readonly lines: LineIndex,
    readonly root: Node | undefined,
    readonly problems: SyntaxProblem[],
    /** The document's extent, when it is a part of the text (a here-document in a script). */
    span?: Span,
  ) {
    super();
    this.span = span ?? { start: 0, end: text.length };
    const fill = (node: Node | undefined): void => {
      if (!node) return;
      if (node.kind === 'scalar') node.raw = text.slice(node.span.start, node.span.end);
      else if (node.kind === 'seq') node.items.forEach(fill);
      else node.entries.forEach((e) => {
        fill(e.value);
        placeholder(text, e);
      });
    };
    fill(root);
  }

  /**
   * `,"key": value` appended to an object, laid out like the object: on its own line with the
   * siblings' indentation when they are one per line, after `, ` when the object is inline.
   */
  private layoutInsertion(path: Path, content: string): string {
    let container: Node | undefined;
    for (let n = path.length - 1; n >= 0 && !container; n--) {
      const node = this.node(path.slice(0, n));
      if (node?.kind === 'map') container = node;
    }
    const body = content.slice(1).trimStart();
    if (!container || container.kind !== 'map' || !container.entries.length) return `, ${body}`;
    const first = this.lines.position(container.span.start).line;
    const last = container.entries[container.entries.length - 1];
    const lastLine = this.lines.position(last.keySpan.start).line;
    if (first === lastLine) return `, ${body}`;
    const lineStart = this.lines.lineStart(lastLine);
    const indent = /^[ \t]*/.exec(this.text.slice(lineStart, last.keySpan.start))![0];
    return `,${this.lines.eol}${indent}${body}`;
  }

  /** The comments of the text, by the scanner (an unterminated one runs to the end). */
  private commentSpans?: Span[];

  /** Whether an edit at `offset` would land inside a comment or past the end of the text. */
  private outOfPlace(offset: number): boolean {
    if (offset < 0 || offset > this.text.length) return true;
    if (!this.commentSpans) {
      this.commentSpans = [];
      const scan = J.createScanner(this.text, false);
      for (let t = scan.scan(), n = 0; t !== J.SyntaxKind.EOF && n < 1_000_000; t = scan.scan(), n++) {
        if (t === J.SyntaxKind.BlockCommentTrivia || t === J.SyntaxKind.LineCommentTrivia) this.commentSpans.push({ start: scan.getTokenOffset(), end: scan.getTokenOffset() + scan.getTokenLength() });
      }
    }
    // At the very end of the text, a line comment or an unterminated block comment still holds the place.
    const open = (c: Span): boolean => c.end === this.text.length && !(this.text.startsWith('/*', c.start) && c.end - c.start >= 4 && this.text.endsWith('*/'));
    return this.commentSpans.some((c) => offset > c.start && (offset < c.end || (offset === c.end && open(c))));
  }

  edit(edits: readonly PathEdit[]): TextEdit[] | undefined {
    const out = this.editsOf(edits);
    // An edit must land where the text is: never past its end, never inside a comment.
    return out && !out.some((e) => e.span.end < e.span.start || this.outOfPlace(e.span.start) || this.outOfPlace(e.span.end)) ? out : undefined;
  }

  private editsOf(edits: readonly PathEdit[]): TextEdit[] | undefined {
    const out: TextEdit[] = [];
    for (const e of edits) {
      if (e.op === 'rename') {
        const entry = this.entry(e.path);
        if (!entry) return undefined;
        out.push({ span: entry.keySpan, newText: JSON.stringify(e.key) });
        continue;
      }
      if (e.op === 'remove' && !this.entry(e.path)) return undefined;
      let result: J.EditResult;
      try {
        // Unformatted edits are minimal (jsonc-parser would reformat the neighbouring value too);
        // insertions are then laid out like their siblings.
        result = J.modify(this.text, [...e.path], e.op === 'set' ? e.value : undefined, {});
      } catch {
        return undefined;
      }
      out.push(...result.map((r) => ({ span: { start: r.offset, end: r.offset + r.length }, newText: r.length === 0 && r.content.startsWith(',') ? this.layoutInsertion(e.path, r.content) : r.content })));
    }
    return out;
  }

  completionSite(offset: number): CompletionSite | undefined {
    const loc = J.getLocation(this.text, offset);
    const prev = loc.previousNode;
    if (loc.isAtPropertyKey) {
      const path = loc.path.slice(0, -1);
      const replace = prev && prev.type === 'string' ? { start: prev.offset, end: prev.offset + prev.length } : { start: offset, end: offset };
      const typed = prev && prev.type === 'string' ? this.text.slice(prev.offset + 1, offset) : '';
      const container = this.node(path);
      const existing = container?.kind === 'map' ? container.entries.map((x) => x.key).filter((k) => k !== typed) : [];
      return { path, kind: 'key', replace, typed, existing };
    }
    if (loc.path.length === 0) return undefined;
    const replace = prev && prev.type !== 'property' && prev.type !== 'object' && prev.type !== 'array' ? { start: prev.offset, end: prev.offset + prev.length } : { start: offset, end: offset };
    const typed = this.text.slice(replace.start, offset).replace(/^"/, '');
    return { path: loc.path, kind: 'value', replace, typed, existing: [] };
  }
}

/**
 * A DeepSpeed config is loaded as JSON by every tool that reads one from a file (DeepSpeed's own
 * engine, Accelerate's `deepspeed_config_file`, the Trainer's `--deepspeed`), whatever the file's
 * name: the one document of a `.yaml` whose text is JSON and whose content `toolOf` calls a DeepSpeed
 * config, read as the JSON it is, so YAML 1.1's readings (`2e8` as text, `no` as false) do not apply
 * to it. Any other YAML file keeps its YAML reading (an Accelerate config written in JSON syntax is
 * still loaded by PyYAML).
 */
export function deepspeedAsJson(docs: readonly SourceDoc[], text: string, lines: LineIndex, toolOf: (json: SourceDoc) => string | undefined): SourceDoc | undefined {
  if (docs.length !== 1 || !/^\s*\{/.test(text)) return undefined;
  const json = parseJson(text, lines);
  // A key written twice is no syntax error: json.load keeps the last, as the tree does.
  if (json.problems.some((p) => p.code !== 'duplicate-key') || !json.root) return undefined;
  return toolOf(json) === 'deepspeed' ? json : undefined;
}
