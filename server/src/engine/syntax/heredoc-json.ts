/**
 * A here-document of a shell script read as the JSON document the shell writes (`cat <<EOF > ds.json`):
 * the body is expanded as the shell expands it (known variables take their values), parsed, and every
 * node is placed back where it is written in the script: literal text character for character, a
 * value from an expansion at its `$…`. A value holding an expansion whose text is not known is unknown
 * (as a template's placeholder is: no finding rests on it); one holding a fallback or a value set in
 * some branches only is assumed. A body that does not parse once expanded, or whose keys or structure
 * depend on unknown text, is not read.
 */
import type { LineIndex } from '../text';
import type { Path, Span, TextEdit } from '../types';
import { JsonDoc, parseJson } from './json';
import type { CompletionSite, PathEdit } from './sourcedoc';
import type { HeredocPiece } from './shell/types';
import type { Node } from './tree';

/** Where a run of the expanded text comes from. */
interface Run {
  from: number;
  to: number;
  span: Span;
  exact: boolean;
}

/** A stretch of the expanded text whose value is not known (or only assumed), and why. */
interface Mark {
  from: number;
  to: number;
  why: string;
}

/** The expanded body, where each run of it is written, and which stretches are unknown or assumed. */
export interface ExpandedBody {
  text: string;
  runs: Run[];
  unknown: Mark[];
  assumed: Mark[];
}

/**
 * The body as the shell writes it. An expansion whose text is not known stands as `null` where a
 * value goes, or as a letter inside a string: the parse then shows whether it sits in a value.
 */
export function expandBody(pieces: readonly HeredocPiece[]): ExpandedBody {
  let text = '';
  let inString = false;
  let escaped = false;
  const runs: Run[] = [];
  const unknown: Mark[] = [];
  const assumed: Mark[] = [];
  for (const p of pieces) {
    const sub = p.unknown ? (inString ? 'x' : 'null') : p.text;
    const from = text.length;
    text += sub;
    runs.push({ from, to: text.length, span: p.span, exact: p.exact && !p.unknown && p.text.length === p.span.end - p.span.start });
    if (p.unknown) {
      unknown.push({ from, to: text.length, why: p.unknown });
      continue;
    }
    if (p.assumed) assumed.push({ from, to: text.length, why: p.assumed });
    for (const c of sub) {
      if (escaped) escaped = false;
      else if (inString && c === '\\') escaped = true;
      else if (c === '"') inString = !inString;
    }
  }
  return { text, runs, unknown, assumed };
}

/** An offset of the expanded text as an offset of the script: `end` for the end of a span. */
function toScript(body: ExpandedBody, offset: number, end: boolean, fallback: number): number {
  const k = end ? offset - 1 : offset;
  const run = body.runs.find((r) => r.from <= k && k < r.to);
  if (!run) return fallback;
  if (run.exact) return run.span.start + (k - run.from) + (end ? 1 : 0);
  return end ? run.span.end : run.span.start;
}

function spanOf(body: ExpandedBody, s: Span, fallback: number): Span {
  const start = toScript(body, s.start, false, fallback);
  if (s.end <= s.start) return { start, end: start };
  return { start, end: Math.max(start, toScript(body, s.end, true, fallback)) };
}

const overlaps = (m: Mark, s: Span): boolean => m.from < s.end && s.start < m.to;

/**
 * The body as a JSON document of the script, or why it is not read. `quoted`: the delimiter was
 * quoted (the body is written as it stands).
 */
export function heredocJson(text: string, lines: LineIndex, pieces: readonly HeredocPiece[], bodySpan: Span, quoted: boolean): HeredocJsonDoc | { why: string } {
  const body = expandBody(pieces);
  if (!/^\s*\{/.test(body.text)) return { why: 'it is not a JSON object' };
  const parsed = parseJson(body.text);
  if (!parsed.root || parsed.problems.some((p) => p.code === 'parse-error')) return { why: 'it does not parse as JSON once expanded' };
  // Every unknown stretch must lie in one scalar value: keys and structure are then known.
  const covered = new Set<Mark>();
  let keyed = false;
  const walk = (n: Node): void => {
    if (n.kind === 'scalar') {
      const u = body.unknown.filter((m) => overlaps(m, n.span));
      u.forEach((m) => covered.add(m));
      if (u.length) {
        n.unknown = `its value holds an expansion whose text is not known here (${u[0].why})`;
        n.value = null;
      } else {
        const a = body.assumed.find((m) => overlaps(m, n.span));
        if (a) n.assumed = a.why;
      }
    } else if (n.kind === 'seq') n.items.forEach(walk);
    else
      for (const e of [...n.entries, ...(n.dropped ?? [])]) {
        if (body.unknown.some((m) => overlaps(m, e.keySpan))) keyed = true;
        walk(e.value);
      }
    n.span = spanOf(body, n.span, bodySpan.start);
    if (n.kind === 'map') for (const e of [...n.entries, ...(n.dropped ?? [])]) {
      e.keySpan = spanOf(body, e.keySpan, bodySpan.start);
      e.span = { start: e.keySpan.start, end: Math.max(e.keySpan.end, e.value.span.end) };
    }
  };
  walk(parsed.root);
  if (keyed) return { why: 'a key of it is not known' };
  if (body.unknown.some((m) => !covered.has(m))) return { why: 'an expansion whose text is not known stands outside any value' };
  const problems = parsed.problems.map((p) => ({ ...p, span: spanOf(body, p.span, bodySpan.start) }));
  const literal = body.runs.filter((r) => r.exact).map((r) => r.span);
  return new HeredocJsonDoc(text, lines, parsed.root, problems, bodySpan, literal, quoted);
}

/**
 * The JSON a here-document writes, placed in its script. Edits are made only where the body is
 * written literally (a value from an expansion is changed where the variable is set, not here), and
 * only ones the shell writes as they stand (no `$`, backquote or backslash in an unquoted body).
 */
export class HeredocJsonDoc extends JsonDoc {
  constructor(
    text: string,
    lines: LineIndex,
    root: Node,
    problems: JsonDoc['problems'],
    readonly body: Span,
    private readonly literal: readonly Span[],
    private readonly quoted: boolean,
  ) {
    super(text, lines, root, problems, body);
  }

  private inLiteral(s: Span): boolean {
    return this.literal.some((l) => l.start <= s.start && s.end <= l.end);
  }

  private writable(t: string): boolean {
    return this.quoted || !/[$`\\]/.test(t);
  }

  override edit(edits: readonly PathEdit[]): TextEdit[] | undefined {
    const out: TextEdit[] = [];
    for (const e of edits) {
      const made = this.one(e.path, e);
      if (!made) return undefined;
      out.push(made);
    }
    return out;
  }

  private one(path: Path, e: PathEdit): TextEdit | undefined {
    const entry = this.entry(path);
    if (!entry) return undefined;
    if (e.op === 'rename') {
      const newText = JSON.stringify(e.key);
      return this.inLiteral(entry.keySpan) && this.writable(newText) ? { span: entry.keySpan, newText } : undefined;
    }
    if (e.op !== 'set' || entry.value.kind !== 'scalar' || entry.value.unknown || entry.value.assumed) return undefined;
    const newText = JSON.stringify(e.value);
    return newText !== undefined && this.inLiteral(entry.value.span) && this.writable(newText) ? { span: entry.value.span, newText } : undefined;
  }

  override completionSite(_offset: number): CompletionSite | undefined {
    return undefined;
  }
}
