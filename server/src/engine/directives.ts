/**
 * In-file directives, written as comments:
 *   # shardwise: format=accelerate hardware=h100-sxm gpus_per_node=8 nvlink_domain=8 accelerate=1.10.0
 *   # shardwise-disable rule-a, rule-b          (the whole file; no ids = every rule)
 *   # shardwise-disable-next-line rule-a        (the next line, with the lines a trailing `\` continues it on)
 *   key: value  # shardwise-disable-line rule-a (this line)
 */
import type { LineIndex } from './text';
import type { Span } from './types';

export type RuleSet = Set<string> | 'all';

export interface DirectiveSetting {
  key: string;
  value: string;
  span: Span;
}

export interface Directives {
  settings: DirectiveSetting[];
  disableFile: RuleSet | undefined;
  /** 0-based line → rules disabled on it. */
  disableLines: Map<number, RuleSet>;
}

const DIRECTIVE = /(?:^|\s)#\s*shardwise(-disable-next-line|-disable-line|-disable|:)([^\n\r#]*)/;

export function parseDirectives(lines: LineIndex): Directives {
  const out: Directives = { settings: [], disableFile: undefined, disableLines: new Map() };
  const text = lines.text;
  if (!text.includes('shardwise')) return out;
  let next: Int32Array | undefined;
  for (let line = 0; line < lines.lineCount; line++) {
    const lineText = lines.lineText(line);
    if (!lineText.includes('shardwise')) continue;
    const m = DIRECTIVE.exec(lineText);
    if (!m) continue;
    const kind = m[1];
    const body = m[2];
    const bodyStart = lines.lineStart(line) + m.index + m[0].length - body.length;
    if (kind === ':') {
      const pair = /([A-Za-z_][\w-]*)\s*=\s*([^\s,]+)/g;
      for (let p = pair.exec(body); p; p = pair.exec(body)) {
        out.settings.push({ key: p[1].replace(/-/g, '_'), value: p[2], span: { start: bodyStart + p.index, end: bodyStart + p.index + p[0].length } });
      }
      continue;
    }
    const ids = body.split(/[\s,]+/).filter((s) => /^[a-z0-9][a-z0-9-]*$/.test(s));
    const set: RuleSet = ids.length ? new Set(ids) : 'all';
    if (kind === '-disable') out.disableFile = merge(out.disableFile, set);
    else {
      const target = kind === '-disable-line' ? line : (next ??= nextContentLines(lines))[line];
      out.disableLines.set(target, merge(out.disableLines.get(target), set));
      // The next line is a logical one: a command continued with `\` covers its continuation lines
      // (no comment can sit between them without ending the command).
      if (kind === '-disable-next-line') {
        for (let l = target; l + 1 < lines.lineCount && continues(lines.lineText(l)); l++) {
          out.disableLines.set(l + 1, merge(out.disableLines.get(l + 1), set === 'all' ? 'all' : new Set(set)));
        }
      }
    }
  }
  return out;
}

/** Whether a line ends with a `\` that joins the next line to it (an odd number of them). */
export function continues(line: string): boolean {
  let n = 0;
  for (let i = line.length - 1; i >= 0 && line.charCodeAt(i) === 92; i--) n++;
  return n % 2 === 1;
}

/** For each line, the next line after it that holds more than a comment (one pass from the end). */
function nextContentLines(lines: LineIndex): Int32Array {
  const n = lines.lineCount;
  const next = new Int32Array(n);
  let found = -1;
  for (let l = n - 1; l >= 0; l--) {
    next[l] = found >= 0 ? found : l + 1;
    if (!/^\s*(#.*)?$/.test(lines.lineText(l))) found = l;
  }
  return next;
}

/** The rules of both; `a` is the parser's own set, added to in place (50,000 directives stay linear). */
function merge(a: RuleSet | undefined, b: RuleSet): RuleSet {
  if (!a) return b;
  if (a === 'all' || b === 'all') return 'all';
  for (const id of b) a.add(id);
  return a;
}

export function isDisabled(set: RuleSet | undefined, id: string): boolean {
  return set === 'all' || (set !== undefined && set.has(id));
}
