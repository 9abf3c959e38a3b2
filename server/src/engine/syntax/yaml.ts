/**
 * YAML → SourceDoc. Parses with the `yaml` package (failsafe schema, so every plain scalar stays
 * text) and resolves plain scalars the way PyYAML does. Never throws: what cannot be read becomes a
 * `parse-error` problem and the rest of the document is still analysed.
 */
import * as Y from 'yaml';
import { applyEdits, LineIndex } from '../text';
import type { Path, Span, TextEdit } from '../types';
import { formatYamlKey, formatYamlValue, pyBool, pyFloat, pyInt, resolvePlain, PY_FLOAT, PY_INT } from './scalars';
import { TreeDoc, type CompletionSite, type PathEdit, type SyntaxProblem } from './sourcedoc';
import { loaderErrors } from './yaml-errors';
import { nodeAt, sameValue, type Entry, type MapNode, type Node, type ScalarNode, type ScalarStyle } from './tree';

/** Nodes an alias may expand to before the document is treated as hostile (an "alias bomb"). */
const ALIAS_BUDGET = 20_000;
/** Nesting deeper than this is not a config; it is not analysed (and cannot exhaust the stack). */
export const MAX_DEPTH = 64;
/** Nesting the parser is allowed to see at all. */
export const MAX_PARSER_DEPTH = 256;
/** Syntax errors reported per document; after a few, the rest are consequences of the first. */
export const MAX_SYNTAX_ERRORS = 20;
const CORE_TAGS = new Set(['str', 'int', 'float', 'bool', 'null', 'map', 'seq', 'merge', 'binary', 'timestamp', 'omap', 'pairs', 'set'].map((t) => `tag:yaml.org,2002:${t}`));

/**
 * The text the `yaml` parser is given: YAML (and PyYAML) take a lone CR as a line break, the parser
 * does not, so it reads an LF in its place: the same length, so every offset stays the file's own.
 */
export function yamlSource(text: string): string {
  return text.includes('\r') ? text.replace(/\r(?!\n)/g, '\n') : text;
}

export function parseYaml(text: string, lines = new LineIndex(text)): YamlDoc[] {
  const deep = tooDeep(text, MAX_PARSER_DEPTH);
  if (deep >= 0) {
    // The parser recurses per level; hostile nesting would exhaust the stack, so it never sees it.
    return [YamlDoc.broken(text, lines, `This file nests deeper than ${MAX_PARSER_DEPTH} levels; no config does, so it is not analysed.`, deep)];
  }
  let docs: Y.Document.Parsed[];
  try {
    const parsed = Y.parseAllDocuments(yamlSource(text), { version: '1.1', schema: 'failsafe', uniqueKeys: false, strict: false, prettyErrors: false, logLevel: 'error' });
    docs = Array.isArray(parsed) ? parsed : [];
  } catch (err) {
    // The parser is not expected to throw; if it does, the file is still reported, not lost.
    return [YamlDoc.broken(text, lines, `The YAML parser failed: ${(err as Error).message}`)];
  }
  if (docs.length === 0) return [new YamlDoc(text, lines, { start: 0, end: text.length }, 0, undefined, [])];
  return docs.map((doc, i) => {
    const builder = new Builder(text, doc, lines);
    const root = builder.build();
    const start = i === 0 ? 0 : doc.range[0];
    const end = i === docs.length - 1 ? text.length : docs[i + 1].range[0];
    return new YamlDoc(text, lines, { start, end }, i, root, builder.problems);
  });
}

class Builder {
  readonly problems: SyntaxProblem[] = [];
  private budget = ALIAS_BUDGET;
  private bombed = false;
  private depth = 0;
  private tooDeep = false;

  /** Each alias's target: the nearest anchor of its name before it (one pass; the library's own lookup walks the document per alias). */
  private readonly targets = new Map<Y.Alias, Y.Node>();

  constructor(
    private readonly text: string,
    private readonly doc: Y.Document.Parsed,
    private readonly lines: LineIndex,
  ) {
    const anchors = new Map<string, Y.Node>();
    Y.visit(doc, (_key, node) => {
      if (Y.isAlias(node)) {
        const target = anchors.get(node.source);
        if (target) this.targets.set(node, target);
      } else if ((Y.isScalar(node) || Y.isCollection(node)) && node.anchor) anchors.set(node.anchor, node);
    });
    // Each mistake once, where the launcher's loader stops, in its terms; past it the tree is the parser's guess.
    for (const e of loaderErrors(text, lines, doc.errors, MAX_SYNTAX_ERRORS)) this.problem('error', e.message, e.span.start, e.span.end, 'parse-error', false, e.guessedFrom);
    for (const w of doc.warnings) {
      const tag = /Unresolved tag: (\S+)/.exec(w.message)?.[1];
      if (tag && CORE_TAGS.has(tag)) continue;
      const msg = tag
        ? `The tag ${tag} is not a standard YAML tag; a safe YAML loader (PyYAML safe_load) refuses to load it. Remove the tag.`
        : yamlMessage(w.message);
      this.problem(tag ? 'error' : 'warning', msg, w.pos[0], w.pos[1]);
    }
  }

  build(): Node | undefined {
    const contents = this.doc.contents;
    if (!contents) return undefined;
    return this.node(contents, undefined);
  }

  private problem(severity: SyntaxProblem['severity'], message: string, start: number, end: number, code: SyntaxProblem['code'] = 'parse-error', fatal = false, guessedFrom?: number): void {
    const s = Math.max(0, Math.min(start, this.text.length));
    this.problems.push({ code, severity, message, span: { start: s, end: Math.max(s, Math.min(end, this.text.length)) }, fatal: fatal || undefined, guessedFrom });
  }

  /** `alias` is the span of the alias the node is reached through, if any. */
  private node(n: unknown, alias: Span | undefined): Node {
    if (this.depth >= MAX_DEPTH) {
      const span = alias ?? rangeSpan((n as Y.Node | null)?.range);
      if (!this.tooDeep) {
        this.tooDeep = true;
        this.problem('error', `This document nests deeper than ${MAX_DEPTH} levels; no config does, so the deeper part is not analysed.`, span.start, span.start + 1, 'parse-error', true);
      }
      return { kind: 'scalar', span, value: null, style: 'plain', raw: '', aliased: alias ? true : undefined };
    }
    this.depth++;
    try {
      return this.nodeAtDepth(n, alias);
    } finally {
      this.depth--;
    }
  }

  private nodeAtDepth(n: unknown, alias: Span | undefined): Node {
    if (alias) {
      if (--this.budget < 0) {
        if (!this.bombed) {
          this.bombed = true;
          this.problem('error', `Aliases expand this document to more than ${ALIAS_BUDGET} nodes; it is not analysed further. Write the values out instead of nesting aliases.`, alias.start, alias.end, 'parse-error', true);
        }
        return { kind: 'scalar', span: alias, value: null, style: 'plain', raw: '', aliased: true };
      }
    }
    if (Y.isAlias(n)) {
      const span = rangeSpan(n.range);
      const target = this.targets.get(n);
      if (!target) {
        this.problem('error', `The alias *${n.source} refers to no anchor defined before it.`, span.start, span.end);
        return { kind: 'scalar', span, value: null, style: 'plain', raw: this.text.slice(span.start, span.end) };
      }
      return this.node(target, alias ?? span);
    }
    if (Y.isMap(n)) {
      const span = alias ?? rangeSpan(n.range);
      const map: MapNode = { kind: 'map', span, entries: [], flow: !!n.flow, aliased: alias ? true : undefined };
      for (const pair of n.items) this.pair(map, pair, alias);
      if (!alias) {
        this.duplicates(map);
        // A block mapping's range runs on to the next key; end it at its last value instead.
        if (!map.flow && map.entries.length) map.span = { start: span.start, end: map.entries.reduce((m, e) => Math.max(m, e.span.end), 0) };
      }
      return map;
    }
    if (Y.isSeq(n)) {
      const span = alias ?? rangeSpan(n.range);
      const items = n.items.map((item) => this.node(item, alias));
      if (!alias && !n.flow && items.length) span.end = items.reduce((m, i) => Math.max(m, i.span.end), 0);
      return { kind: 'seq', span, items, flow: !!n.flow, aliased: alias ? true : undefined };
    }
    if (Y.isScalar(n)) return this.scalar(n, alias);
    // An empty node (e.g. `key:` with nothing after it).
    const at = alias?.start ?? 0;
    return { kind: 'scalar', span: alias ?? { start: at, end: at }, value: null, style: 'plain', raw: '' };
  }

  private scalar(s: Y.Scalar, alias: Span | undefined): ScalarNode {
    const own = rangeSpan(s.range);
    const raw = this.text.slice(own.start, own.end);
    const source = typeof s.source === 'string' ? s.source : String(s.value ?? '');
    const style = scalarStyle(s.type);
    let value: ScalarNode['value'] = typeof s.value === 'string' ? s.value : source;
    const tag = s.tag;
    if (tag === 'tag:yaml.org,2002:str') value = String(value);
    else if (tag === 'tag:yaml.org,2002:int') value = PY_INT.test(String(value)) ? pyInt(String(value)) : String(value);
    else if (tag === 'tag:yaml.org,2002:float') value = PY_FLOAT.test(String(value)) || PY_INT.test(String(value)) ? pyFloat(String(value)) : String(value);
    else if (tag === 'tag:yaml.org,2002:bool') value = pyBool(String(value));
    else if (tag === 'tag:yaml.org,2002:null') value = null;
    else if (style === 'plain') value = resolvePlain(source);
    return { kind: 'scalar', span: alias ?? own, value, style, raw, tag: tag ?? undefined, aliased: alias ? true : undefined };
  }

  private pair(map: MapNode, pair: Y.Pair, alias: Span | undefined): void {
    const k = pair.key as unknown;
    const keyNode = Y.isScalar(k) || Y.isCollection(k) || Y.isAlias(k) ? (k as Y.Node) : undefined;
    const keySpan = alias ?? (keyNode?.range ? rangeSpan(keyNode.range) : { start: map.span.start, end: map.span.start });
    const value = pair.value === null || pair.value === undefined ? this.emptyValue(keySpan, alias) : this.node(pair.value, alias);
    if (Y.isScalar(k) && k.type === 'PLAIN' && k.source === '<<') {
      this.merge(map, value, alias ?? rangeSpan((pair.value as Y.Node | null)?.range ?? keyNode!.range!));
      return;
    }
    const key = keyNode && Y.isScalar(keyNode) ? (typeof keyNode.value === 'string' ? keyNode.value : String(keyNode.source ?? keyNode.value)) : this.text.slice(keySpan.start, keySpan.end);
    map.entries.push({ key, keySpan, value, span: { start: keySpan.start, end: Math.max(keySpan.end, value.span.end) } });
  }

  private emptyValue(keySpan: Span, alias: Span | undefined): Node {
    if (alias) return { kind: 'scalar', span: alias, value: null, style: 'plain', raw: '', aliased: true };
    // Zero-width, right after the colon that follows the key.
    const colon = this.text.indexOf(':', keySpan.end);
    const at = colon >= 0 && colon - keySpan.end < 200 ? colon + 1 : keySpan.end;
    return { kind: 'scalar', span: { start: at, end: at }, value: null, style: 'plain', raw: '' };
  }

  private merge(map: MapNode, value: Node, at: Span): void {
    const sources = value.kind === 'seq' ? value.items : [value];
    for (const src of sources) {
      if (src.kind !== 'map') {
        this.problem('error', 'A merge key (<<) takes a mapping or a list of mappings.', at.start, at.end);
        continue;
      }
      for (const e of src.entries) map.entries.push({ ...e, keySpan: src.aliased ? src.span : e.keySpan, merged: true });
    }
  }

  private duplicates(map: MapNode): void {
    const last = new Map<string, Entry>();
    for (const e of map.entries) if (!e.merged) last.set(e.key, e);
    for (const e of map.entries) {
      const winner = last.get(e.key);
      if (e.merged || !winner || winner === e) continue;
      const line = this.lines.position(winner.keySpan.start).line + 1;
      const same = sameValue(e.value, winner.value);
      this.problem(
        same ? 'information' : 'warning',
        same
          ? `\`${e.key}\` is written twice in this mapping with the same value (again on line ${line}). YAML loaders keep the last one, so nothing changes: one of them can go.`
          : `\`${e.key}\` is written twice in this mapping. YAML loaders keep only the last one (line ${line}) and drop this one without a word. Remove one of them.`,
        e.keySpan.start,
        e.keySpan.end,
        'duplicate-key',
      );
    }
    // The tree holds what the loader keeps: the copies it drops are gone from the map, so no reading
    // of the file (a value's checks, an "auto" count) meets a value that never runs.
    const dropped = map.entries.filter((e) => !e.merged && last.get(e.key) !== e);
    if (dropped.length) {
      map.dropped = dropped;
      map.entries = map.entries.filter((e) => e.merged || last.get(e.key) === e);
    }
  }
}

function yamlMessage(message: string): string {
  const first = message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
  return `YAML syntax: ${first}. Everything the file means after this point is uncertain until it is fixed.`;
}

function rangeSpan(range: readonly number[] | null | undefined): Span {
  if (!range) return { start: 0, end: 0 };
  return { start: range[0], end: range[1] };
}

function scalarStyle(type: string | undefined): ScalarStyle {
  switch (type) {
    case 'QUOTE_SINGLE':
      return 'single';
    case 'QUOTE_DOUBLE':
      return 'double';
    case 'BLOCK_FOLDED':
    case 'BLOCK_LITERAL':
      return 'block';
    default:
      return 'plain';
  }
}

export class YamlDoc extends TreeDoc {
  readonly syntax = 'yaml' as const;

  constructor(
    readonly text: string,
    readonly lines: LineIndex,
    readonly span: Span,
    readonly index: number,
    readonly root: Node | undefined,
    readonly problems: SyntaxProblem[],
  ) {
    super();
  }

  static broken(text: string, lines: LineIndex, message: string, at = 0): YamlDoc {
    const line = lines.position(at).line;
    const end = Math.min(lines.lineEnd(line), at + 200);
    return new YamlDoc(text, lines, { start: 0, end: text.length }, 0, undefined, [{ code: 'parse-error', severity: 'error', message, span: { start: at, end: Math.max(at, end) }, fatal: true }]);
  }

  edit(edits: readonly PathEdit[]): TextEdit[] | undefined {
    const out: TextEdit[] = [];
    for (const e of edits) {
      const one = this.editOne(e);
      if (!one) return undefined;
      out.push(...one);
    }
    return this.keepsAnchors(out) ? out : undefined;
  }

  /** False when the edits drop an anchor (`&name`) that an alias (`*name`) left in the file still uses. */
  private keepsAnchors(edits: readonly TextEdit[]): boolean {
    if (!this.text.includes('&') || !this.text.includes('*')) return true;
    const dropped = new Set<string>();
    for (const e of edits) {
      for (const m of this.text.slice(e.span.start, e.span.end).matchAll(/&([^\s,[\]{}]+)/g)) if (!e.newText.includes(`&${m[1]}`)) dropped.add(m[1]);
    }
    if (dropped.size === 0) return true;
    let after: string;
    try {
      after = applyEdits(this.text, edits);
    } catch {
      return false;
    }
    for (const name of dropped) if (new RegExp(`\\*${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![^\\s,[\\]{}])`).test(after) && !after.includes(`&${name}`)) return false;
    return true;
  }

  private editOne(e: PathEdit): TextEdit[] | undefined {
    if (e.op === 'set') {
      const node = this.node(e.path);
      if (node) {
        if (node.aliased) return undefined;
        if (node.kind === 'scalar' || node.flow) {
          const quote = e.quote ?? (node.kind === 'scalar' && typeof e.value === 'string' && (node.style === 'single' || node.style === 'double') ? node.style : undefined);
          const parent = this.node(e.path.slice(0, -1));
          const newText = formatYamlValue(e.value, quote, !!(parent && parent.kind !== 'scalar' && parent.flow));
          if (node.span.start === node.span.end) {
            // An empty value: one space after the colon, and one before a comment that follows.
            const before = this.text.charCodeAt(node.span.start - 1);
            const lead = before === 32 || before === 9 ? '' : ' ';
            const trail = this.text.charCodeAt(node.span.start) === 35 ? ' ' : '';
            return [{ span: node.span, newText: `${lead}${newText}${trail}` }];
          }
          return [{ span: node.span, newText }];
        }
        return this.replaceBlock(e.path, e.value);
      }
      return this.insert(e.path, e.value);
    }
    const entry = this.entry(e.path);
    if (!entry || entry.merged || entry.value.aliased) return undefined;
    if (e.op === 'rename') return [{ span: entry.keySpan, newText: formatYamlKey(e.key) }];
    return this.remove(e.path, entry);
  }

  /** Replace a block collection by a scalar or flow value. */
  private replaceBlock(path: Path, value: unknown): TextEdit[] | undefined {
    const entry = this.entry(path);
    if (!entry) return undefined;
    const colon = this.text.indexOf(':', entry.keySpan.end);
    if (colon < 0) return undefined;
    return [{ span: { start: colon + 1, end: this.trimEnd(entry.value.span.end) }, newText: ` ${formatYamlValue(value)}` }];
  }

  private remove(path: Path, entry: Entry): TextEdit[] | undefined {
    const parentPath = path.slice(0, -1);
    const parent = this.node(parentPath);
    if (!parent || parent.kind !== 'map') return undefined;
    const own = parent.entries.filter((x) => !x.merged);
    if (parent.flow) {
      const i = own.indexOf(entry);
      if (i < 0) return undefined;
      if (own.length === 1) return [{ span: parent.span, newText: '{}' }];
      // Remove the entry and the comma that separates it from a neighbour.
      const start = i > 0 ? this.trimEnd(own[i - 1].span.end) : entry.span.start;
      const end = i > 0 ? entry.span.end : own[i + 1].keySpan.start;
      return [{ span: { start, end }, newText: i > 0 ? '' : '' }];
    }
    if (own.length === 1 && parentPath.length > 0) {
      // The section would be left with no keys: make it an explicit empty mapping.
      const parentEntry = this.entry(parentPath);
      if (!parentEntry) return undefined;
      const colon = this.text.indexOf(':', parentEntry.keySpan.end);
      return [{ span: { start: colon + 1, end: this.lineBreakEnd(this.trimEnd(entry.span.end)) }, newText: ` {}${this.lines.eol}` }];
    }
    const startLine = this.lines.position(entry.keySpan.start).line;
    const start = this.lines.lineStart(startLine);
    // Only whitespace may precede the key on its line (a block mapping); otherwise refuse.
    if (this.text.slice(start, entry.keySpan.start).trim() !== '') return undefined;
    return [{ span: { start, end: this.lineBreakEnd(this.trimEnd(entry.span.end)) }, newText: '' }];
  }

  /** Insert `path` (whose parent may be missing) with `value`. */
  private insert(path: Path, value: unknown): TextEdit[] | undefined {
    // Find the deepest existing ancestor mapping.
    let depth = path.length - 1;
    while (depth > 0 && !this.node(path.slice(0, depth))) depth--;
    const anchorPath = path.slice(0, depth);
    const anchor = depth === 0 ? this.root : this.node(anchorPath);
    let nested: unknown = value;
    for (let i = path.length - 1; i > depth; i--) nested = { [String(path[i])]: nested };
    const key = path[depth];
    if (typeof key !== 'string') return undefined;
    const eol = this.lines.eol;

    if (!anchor || (anchor.kind === 'scalar' && anchor.value === null)) {
      if (depth === 0) {
        // Empty document: append at its end.
        const at = this.trimEnd(this.span.end);
        const before = at > this.span.start && this.text[at - 1] !== '\n' ? eol : '';
        return [{ span: { start: at, end: at }, newText: `${before}${this.blockEntry(key, nested, '')}${eol}` }];
      }
      const parentEntry = this.entry(anchorPath);
      if (!parentEntry || parentEntry.value.aliased) return undefined;
      const indent = this.indentOf(parentEntry.keySpan.start) + this.indentUnit();
      const colon = this.text.indexOf(':', parentEntry.keySpan.end);
      const end = anchor ? Math.max(anchor.span.end, colon + 1) : colon + 1;
      return [{ span: { start: colon + 1, end }, newText: `${eol}${this.blockEntry(key, nested, indent)}` }];
    }
    if (anchor.kind !== 'map' || anchor.aliased) return undefined;
    if (anchor.flow) {
      const own = anchor.entries.filter((e) => !e.merged);
      const text = `${formatYamlKey(key)}: ${formatYamlValue(nested, undefined, true)}`;
      if (own.length === 0) {
        if (depth === 0) return undefined;
        const parentEntry = this.entry(anchorPath);
        if (!parentEntry) return undefined;
        const indent = this.indentOf(parentEntry.keySpan.start) + this.indentUnit();
        const colon = this.text.indexOf(':', parentEntry.keySpan.end);
        return [{ span: { start: colon + 1, end: anchor.span.end }, newText: `${eol}${this.blockEntry(key, nested, indent)}` }];
      }
      const last = own[own.length - 1];
      return [{ span: { start: last.span.end, end: last.span.end }, newText: `, ${text}` }];
    }
    const own = anchor.entries.filter((e) => !e.merged);
    if (own.length === 0) return undefined;
    const indent = this.indentOf(own[0].keySpan.start);
    const lastEnd = this.trimEnd(own.reduce((m, e) => Math.max(m, e.span.end), 0));
    const at = this.lineBreakEnd(lastEnd);
    const needsBreak = at === lastEnd;
    return [{ span: { start: at, end: at }, newText: `${needsBreak ? eol : ''}${this.blockEntry(key, nested, indent)}${needsBreak ? '' : eol}` }];
  }

  /** `key: value` as block YAML at `indent`, nesting objects as block mappings. */
  private blockEntry(key: string, value: unknown, indent: string): string {
    const eol = this.lines.eol;
    if (value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0) {
      const inner = indent + this.indentUnit();
      const lines = Object.entries(value as Record<string, unknown>).map(([k, v]) => this.blockEntry(k, v, inner));
      return `${indent}${formatYamlKey(key)}:${eol}${lines.join(eol)}`;
    }
    return `${indent}${formatYamlKey(key)}: ${formatYamlValue(value)}`;
  }

  private indentOf(offset: number): string {
    return ' '.repeat(this.column(offset));
  }

  /** The column of an offset as YAML counts it: a byte-order mark before the first line takes none. */
  private column(offset: number): number {
    const pos = this.lines.position(offset);
    return pos.line === 0 && this.text.charCodeAt(0) === 0xfeff ? Math.max(0, pos.character - 1) : pos.character;
  }

  /** The indentation step the file uses (two spaces when it cannot tell). */
  private indentUnit(): string {
    const visit = (node: Node | undefined): number | undefined => {
      if (!node || node.kind !== 'map' || node.flow) return undefined;
      for (const e of node.entries) {
        if (e.merged || e.value.kind !== 'map' || e.value.flow || e.value.entries.length === 0) continue;
        const outer = this.lines.position(e.keySpan.start).character;
        const inner = this.lines.position(e.value.entries[0].keySpan.start).character;
        if (inner > outer) return inner - outer;
      }
      return undefined;
    };
    return ' '.repeat(visit(this.root) ?? 2);
  }

  /** Back over trailing spaces and line breaks (a block node's range runs to the next key). */
  private trimEnd(offset: number): number {
    let at = offset;
    while (at > 0 && /\s/.test(this.text[at - 1])) at--;
    return at;
  }

  /** The offset just after the line break that ends the line containing `offset` (or the text end). */
  private lineBreakEnd(offset: number): number {
    const line = this.lines.position(offset).line;
    return line + 1 < this.lines.lineCount ? this.lines.lineStart(line + 1) : this.text.length;
  }

  completionSite(offset: number): CompletionSite | undefined {
    const pos = this.lines.position(offset);
    const lineText = this.lines.lineText(pos.line);
    const before = lineText.slice(0, pos.character);
    if (/^\s*#/.test(before) || /\s#/.test(before)) return undefined;
    const indent = /^\s*/.exec(lineText)![0].length;
    const lineStart = this.lines.lineStart(pos.line);
    const keyMatch = /^(\s*)(?:-\s+)?(['"]?)([^'":#]*?)\2\s*:(\s*)(.*)$/.exec(before);
    if (keyMatch) {
      // After `key:` on this line: completing the value.
      const key = keyMatch[3].trim();
      const valueStart = lineStart + before.length - keyMatch[5].length;
      const rest = lineText.slice(pos.character);
      const valueEnd = lineStart + pos.character + (/^[^\s#]*/.exec(rest)?.[0].length ?? 0);
      const typed = keyMatch[5].replace(/^['"]/, '');
      return { path: [...this.parentPath(pos.line, indent), key], kind: 'value', replace: { start: valueStart, end: valueEnd }, typed, existing: [] };
    }
    const typedMatch = /^(\s*)(?:-\s+)?([\w.-]*)$/.exec(before);
    if (!typedMatch) return undefined;
    const keyIndent = typedMatch[1].length;
    const typed = typedMatch[2];
    const start = lineStart + before.length - typed.length;
    const rest = lineText.slice(pos.character);
    const end = lineStart + pos.character + (/^[\w.-]*/.exec(rest)?.[0].length ?? 0);
    const path = this.parentPath(pos.line, keyIndent);
    const container = nodeAt(this.root, path);
    const existing = container?.kind === 'map' ? container.entries.map((e) => e.key).filter((k) => k !== typed) : [];
    return { path, kind: 'key', replace: { start, end }, typed, existing };
  }

  /** The mapping path a line at `indent` belongs to, from the keys above it with less indentation. */
  private parentPath(line: number, indent: number): Path {
    const chain: { indent: number; key: string }[] = [];
    let limit = indent;
    for (let l = line - 1; l >= 0 && limit > 0; l--) {
      const text = this.lines.lineText(l);
      if (/^\s*(#|$)/.test(text) || /^(---|\.\.\.)/.test(text)) continue;
      const m = /^(\s*)(['"]?)([^'":#\s][^'":#]*?)\2\s*:(\s|$)/.exec(text);
      const ind = /^\s*/.exec(text)![0].length;
      if (ind < limit) {
        if (!m) break;
        chain.unshift({ indent: ind, key: m[3].trim() });
        limit = ind;
      }
    }
    return chain.map((c) => c.key);
  }
}

/**
 * The offset where `text` first nests deeper than `limit` levels (flow brackets, or block
 * indentation steps), or -1. Quoted text and comments are skipped; this over-counts rather than
 * under-counts, which is safe.
 */
export function tooDeep(text: string, limit: number): number {
  let flow = 0;
  const indents: number[] = [];
  let lineStart = true;
  let indent = 0;
  /** The end of the current line, found once per line that holds a quote. */
  let eol = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n' || c === '\r') {
      lineStart = true;
      indent = 0;
      continue;
    }
    if (lineStart) {
      if (c === ' ' || c === '-') {
        indent++;
        continue;
      }
      lineStart = false;
      if (c !== '#' && flow === 0) {
        while (indents.length && indents[indents.length - 1] >= indent) indents.pop();
        indents.push(indent);
        if (indents.length > limit) return i;
      }
    }
    if (c === '#' && (i === 0 || /\s/.test(text[i - 1]))) {
      while (i + 1 < text.length && text[i + 1] !== '\n') i++;
    } else if (c === '"' || c === "'") {
      // A double-quoted string may run over lines; a single-quoted one is looked for on its line only.
      if (eol <= i) {
        eol = text.indexOf('\n', i + 1);
        if (eol < 0) eol = text.length;
      }
      const close = text.indexOf(c, i + 1);
      if (close > 0 && (close < eol || c === '"')) i = close;
    } else if (c === '[' || c === '{') {
      if (++flow > limit) return i;
    } else if ((c === ']' || c === '}') && flow > 0) flow--;
  }
  return -1;
}
