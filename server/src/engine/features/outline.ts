/**
 * The outline of a config (document symbols) and the folding ranges of a launch script.
 *
 * Symbols are given for documents a format claims: the sections and keys of a YAML or JSON config,
 * and for a launch script its variables (an array such as `GPT_ARGS=( … )` holds the flags written
 * in it) and the training command with its launcher options and the flags written on it. A symbol's
 * children always lie inside it.
 *
 * Folding ranges are given for shell scripts only (YAML and JSON editors fold by their own
 * structure): commands continued with `\`, multi-line arrays and strings, indented blocks and runs
 * of comment lines. Folding is a matter of the text, so every shell script gets it, config or not.
 */
import type { FileAnalysis } from '../result';
import type { ShellDoc } from '../syntax/shell';
import type { Entry, Node } from '../syntax/tree';
import type { Span } from '../types';

export type OutlineKind = 'section' | 'list' | 'key' | 'variable' | 'command' | 'flag';

export interface OutlineSymbol {
  name: string;
  detail?: string;
  kind: OutlineKind;
  /** Everything the symbol covers. */
  span: Span;
  /** The name as written (inside `span`). */
  selection: Span;
  children: OutlineSymbol[];
}

export interface FoldRange {
  /** 0-based lines, `endLine` > `startLine`. */
  startLine: number;
  endLine: number;
  kind?: 'comment';
}

/** At most this many symbols per file: an outline of a generated file is no use and costs the editor. */
export const MAX_SYMBOLS = 5000;
const MAX_DEPTH = 32;
const MAX_DETAIL = 60;

export function documentSymbols(a: FileAnalysis): OutlineSymbol[] {
  const budget = { left: MAX_SYMBOLS };
  const claimed = a.docs.filter((d) => d.format);
  const out: OutlineSymbol[] = [];
  for (const da of claimed) {
    const doc = da.doc;
    if (doc.syntax === 'shell') {
      out.push(...shellSymbols(doc as ShellDoc, budget));
      continue;
    }
    const symbols = doc.root?.kind === 'map' ? entrySymbols(doc.root.entries, budget, 0) : [];
    if (claimed.length > 1 && doc.root) {
      const line = a.lines.position(doc.root.span.start).line;
      out.push({ name: `document ${doc.index + 1}`, detail: da.format?.toolName, kind: 'section', span: doc.root.span, selection: { start: a.lines.lineStart(line), end: a.lines.lineEnd(line) }, children: symbols });
    } else out.push(...symbols);
  }
  return out;
}

function entrySymbols(entries: readonly Entry[], budget: { left: number }, depth: number): OutlineSymbol[] {
  const out: OutlineSymbol[] = [];
  for (const e of entries) {
    // A key brought in by a merge is written elsewhere (at its anchor): not a symbol here.
    if (e.merged || budget.left <= 0) continue;
    budget.left--;
    out.push(nodeSymbol(e.key, e.span, e.keySpan, e.value, budget, depth));
  }
  return out;
}

function nodeSymbol(name: string, span: Span, selection: Span, value: Node, budget: { left: number }, depth: number): OutlineSymbol {
  const whole = { start: Math.min(span.start, selection.start), end: Math.max(span.end, selection.end) };
  if (value.kind === 'scalar') return { name, detail: short(value.raw), kind: 'key', span: whole, selection, children: [] };
  const deeper = depth + 1 < MAX_DEPTH && !value.aliased;
  if (value.kind === 'map') return { name, kind: 'section', span: whole, selection, children: deeper ? entrySymbols(value.entries, budget, depth + 1) : [] };
  const children: OutlineSymbol[] = [];
  if (deeper) {
    value.items.forEach((item, i) => {
      // Items that are sections or lists have an outline of their own; plain values are the list's detail.
      if (item.kind === 'scalar' || budget.left <= 0) return;
      budget.left--;
      children.push(nodeSymbol(`[${i}]`, item.span, { start: item.span.start, end: item.span.start }, item, budget, depth + 1));
    });
  }
  return { name, detail: `${value.items.length} item${value.items.length === 1 ? '' : 's'}`, kind: 'list', span: whole, selection, children };
}

function short(text: string): string | undefined {
  const one = text.replace(/\s+/g, ' ').trim();
  if (!one) return undefined;
  return one.length > MAX_DETAIL ? `${one.slice(0, MAX_DETAIL - 1)}…` : one;
}

const inside = (inner: Span, outer: Span) => inner.start >= outer.start && inner.end <= outer.end;

function shellSymbols(doc: ShellDoc, budget: { left: number }): OutlineSymbol[] {
  const lines = doc.lines;
  // Every option that reaches the training command, where it is written: the launcher's own
  // (`--nproc_per_node`) and the entry point's flags, each inside an array, a string or the command.
  const options: OutlineSymbol[] = [];
  for (let l = doc.launcher; l; l = l.inner) {
    for (const [key, arg] of l.args) {
      if (arg.keySpan.end <= arg.keySpan.start) continue;
      const span = { start: arg.keySpan.start, end: Math.max(arg.keySpan.end, arg.span.end) };
      options.push({ name: key, detail: arg.value !== undefined ? short(String(arg.value)) : undefined, kind: 'flag', span: oneLine(lines, span) ? span : arg.keySpan, selection: arg.keySpan, children: [] });
    }
  }
  for (const e of doc.root?.entries ?? []) {
    if (e.keySpan.end <= e.keySpan.start) continue;
    options.push({ name: e.key, detail: e.value.kind === 'scalar' && e.value.raw ? short(e.value.raw) : undefined, kind: 'flag', span: e.span.start === e.keySpan.start && oneLine(lines, e.span) ? e.span : e.keySpan, selection: e.keySpan, children: [] });
  }
  const placed = new Set<OutlineSymbol>();
  const within = (span: Span): OutlineSymbol[] => {
    const found = options.filter((o) => !placed.has(o) && inside(o.span, span)).sort((x, y) => x.span.start - y.span.start);
    for (const o of found) placed.add(o);
    budget.left -= found.length;
    return found;
  };
  const out: OutlineSymbol[] = [];
  // Variables, in the order they are written.
  const vars = [...doc.vars.values()].filter((v) => v.nameSpan.end > v.nameSpan.start).sort((x, y) => x.nameSpan.start - y.nameSpan.start);
  for (const v of vars) {
    if (budget.left <= 0) break;
    budget.left--;
    const span = { start: v.nameSpan.start, end: Math.max(v.nameSpan.end, v.valueSpan.end) };
    const detail = v.items ? `${v.items.length} item${v.items.length === 1 ? '' : 's'}` : v.value !== undefined ? short(v.value) : undefined;
    out.push({ name: v.name, detail, kind: 'variable', span, selection: v.nameSpan, children: within(span) });
  }
  // The training command: its lines, from the first of the continued command to its last.
  const entry = doc.entrypoint;
  if (entry && entry.span.end > entry.span.start && budget.left > 0) {
    let first = lines.position(entry.span.start).line;
    while (first > 0 && continued(lines.lineText(first - 1))) first--;
    let last = lines.position(entry.span.end).line;
    while (last + 1 < lines.lineCount && continued(lines.lineText(last))) last++;
    const span = { start: lines.lineStart(first) + indentOf(lines.lineText(first)), end: lines.lineEnd(last) };
    if (inside(entry.span, span)) {
      const launcher = doc.launcher && inside(doc.launcher.span, span) ? doc.text.slice(doc.launcher.span.start, doc.launcher.span.end) : doc.launcher?.kind;
      const script = entry.path.split('/').pop() || entry.path;
      out.push({ name: launcher ? `${short(launcher)} ${script}` : script, detail: 'training command', kind: 'command', span, selection: entry.span, children: within(span) });
    }
  }
  return out.sort((x, y) => x.span.start - y.span.start);
}

function oneLine(lines: ShellDoc['lines'], span: Span): boolean {
  return lines.position(span.start).line === lines.position(span.end).line;
}

/** A line that goes on on the next (ends with an unescaped `\`, outside a comment). */
function continued(line: string): boolean {
  const t = line.replace(/\s+$/, '');
  if (!t.endsWith('\\')) return false;
  let n = 0;
  for (let i = t.length - 1; i >= 0 && t[i] === '\\'; i--) n++;
  return n % 2 === 1 && !/^\s*#/.test(t);
}

/** A line that ends the block above it. */
const CLOSER = /^\s*(fi|done|esac|\)|\}|EOF)(\s|;|$)|^\s*[)}]/;

function indentOf(line: string): number {
  return /^\s*/.exec(line)![0].length;
}

/** Folding ranges of a shell script; none for other syntaxes (their editors fold by structure). */
export function foldingRanges(a: FileAnalysis): FoldRange[] {
  if (a.syntax !== 'shell') return [];
  const lines = a.lines;
  const n = lines.lineCount;
  const text = Array.from({ length: n }, (_, i) => lines.lineText(i));
  const ranges: FoldRange[] = [];
  const add = (startLine: number, endLine: number, kind?: 'comment') => {
    if (endLine > startLine) ranges.push(kind ? { startLine, endLine, kind } : { startLine, endLine });
  };
  const comment = (l: string) => /^\s*#/.test(l) && !/^#!/.test(l);
  const blank = (l: string) => l.trim() === '';
  for (let i = 0; i < n; i++) {
    // A command continued with `\` over several lines.
    if (continued(text[i]) && !(i > 0 && continued(text[i - 1]))) {
      let j = i;
      while (j + 1 < n && continued(text[j])) j++;
      add(i, j);
    }
    // A run of comment lines.
    if (comment(text[i]) && !(i > 0 && comment(text[i - 1]))) {
      let j = i;
      while (j + 1 < n && comment(text[j + 1])) j++;
      add(i, j, 'comment');
    }
  }
  // Indented blocks (a function, an `if`, the items of an array): one pass with a stack of open lines.
  const open: { line: number; indent: number }[] = [];
  let prev = -1;
  const close = (top: { line: number; indent: number }, next: number) => {
    // The closing line of the block (`fi`, `done`, `)`, `}`) folds with it.
    const end = next < n && indentOf(text[next]) === top.indent && CLOSER.test(text[next]) ? next : prev;
    add(top.line, end);
  };
  for (let i = 0; i < n; i++) {
    if (blank(text[i]) || comment(text[i])) continue;
    const indent = indentOf(text[i]);
    while (open.length && open[open.length - 1].indent >= indent) close(open.pop()!, i);
    open.push({ line: i, indent });
    prev = i;
  }
  while (open.length) close(open.pop()!, n);
  // Multi-line values of variables (arrays, quoted strings) from the script's reading of them.
  for (const da of a.docs) {
    if (da.doc.syntax !== 'shell') continue;
    for (const v of (da.doc as ShellDoc).vars.values()) {
      if (v.valueSpan.end <= v.valueSpan.start) continue;
      add(lines.position(v.nameSpan.start).line, lines.position(v.valueSpan.end).line);
    }
  }
  // One range per start line (the longest): clients fold by start line.
  const best = new Map<number, FoldRange>();
  for (const r of ranges) {
    const had = best.get(r.startLine);
    if (!had || r.endLine > had.endLine) best.set(r.startLine, r);
  }
  return [...best.values()].sort((x, y) => x.startLine - y.startLine);
}
