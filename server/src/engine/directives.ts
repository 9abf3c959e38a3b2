/**
 * In-file directives, written as comments:
 *   # shardwise: format=accelerate hardware=h100-sxm gpus_per_node=8 nvlink_domain=8 accelerate=1.10.0
 *   # shardwise-disable rule-a, rule-b          (the whole file; no ids = every rule)
 *   # shardwise-disable-next-line rule-a        (the next line)
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
      const target = kind === '-disable-line' ? line : nextContentLine(lines, line);
      out.disableLines.set(target, merge(out.disableLines.get(target), set));
    }
  }
  return out;
}

function nextContentLine(lines: LineIndex, line: number): number {
  for (let l = line + 1; l < lines.lineCount; l++) if (!/^\s*(#.*)?$/.test(lines.lineText(l))) return l;
  return line + 1;
}

function merge(a: RuleSet | undefined, b: RuleSet): RuleSet {
  if (!a) return b;
  if (a === 'all' || b === 'all') return 'all';
  return new Set([...a, ...b]);
}

export function isDisabled(set: RuleSet | undefined, id: string): boolean {
  return set === 'all' || (set !== undefined && set.has(id));
}
