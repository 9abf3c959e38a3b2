/**
 * In-file directives, written as comments:
 *   # shardwise: format=accelerate hardware=h100-sxm gpus_per_node=8 nvlink_domain=8 accelerate=1.10.0
 *   # shardwise-disable rule-a, rule-b          (the whole file; no ids = every rule)
 *   # shardwise-disable-next-line rule-a        (the next line, with the lines a trailing `\` continues it on)
 *   key: value  # shardwise-disable-line rule-a (this line)
 * Ids are separated by commas or spaces; a reason may follow ` -- ` (`# shardwise-disable-line a -- why`)
 * or another `#`. Every word before it is taken as a rule id: one that is none suppresses nothing
 * and is reported (`unused-suppression`), never read as "every rule".
 */
import * as Y from 'yaml';
import type { Syntax } from './syntax/sourcedoc';
import type { LineIndex } from './text';
import type { Span } from './types';

export type RuleSet = Set<string> | 'all';

export interface DirectiveSetting {
  key: string;
  value: string;
  span: Span;
}

export type SuppressionKind = 'file' | 'line' | 'next-line';

/** One `# shardwise-disable…` comment. */
export interface Suppression {
  kind: SuppressionKind;
  /** The directive's word as written: `shardwise-disable-next-line`. */
  keyword: string;
  /** The 0-based line it is written on. */
  line: number;
  /** From its `#` to the end of the line (the directive and any reason or comment after it). */
  span: Span;
  /** The span of the directive's word. */
  keywordSpan: Span;
  /** The rule ids it names, in order; none: every rule. */
  ids: { id: string; span: Span }[];
  /** Where ids are written: from after the directive's word to the reason (` -- `, `#`) or the line's end. */
  list: Span;
  /** The lines it silences (a next-line directive: the next line of content and its continuations); none for a file-wide one. */
  targets: number[];
  /**
   * The rules with a finding where it applies, whether it silenced them or not: filled in by the
   * analysis (for completion, which lists them first while a suppression of every rule hides them).
   */
  found?: Set<string>;
}

export interface Directives {
  settings: DirectiveSetting[];
  disableFile: RuleSet | undefined;
  /** 0-based line → rules disabled on it. */
  disableLines: Map<number, RuleSet>;
  /** Every suppression comment, in order. */
  suppressions: Suppression[];
}

const DIRECTIVE = /(?:^|\s)#\s*shardwise(-disable-next-line|-disable-line|-disable|:)([^\n\r#]*)/;

/** A suppression directive on one line of text (its `#` at or after `from`), without its targets. */
export function suppressionOn(lineText: string, lineStart: number, line: number): Suppression | undefined {
  if (!lineText.includes('shardwise-disable')) return undefined;
  const m = DIRECTIVE.exec(lineText);
  return m && m[1] !== ':' ? fromMatch(m, lineText, lineStart, line) : undefined;
}

function fromMatch(m: RegExpExecArray, lineText: string, lineStart: number, line: number): Suppression {
  const hash = m.index + m[0].indexOf('#');
  const kw = lineText.indexOf('shardwise', hash);
  const keyword = `shardwise${m[1]}`;
  const bodyStart = m.index + m[0].length - m[2].length;
  // A reason after ` -- ` is no id.
  const reason = m[2].includes('--') ? /(?:^|\s)--(?:\s|$)/.exec(m[2]) : null;
  const listEnd = bodyStart + (reason ? reason.index : m[2].length);
  const ids: Suppression['ids'] = [];
  const word = /[^\s,]+/g;
  const list = lineText.slice(bodyStart, listEnd);
  for (let w = word.exec(list); w; w = word.exec(list)) ids.push({ id: w[0], span: { start: lineStart + bodyStart + w.index, end: lineStart + bodyStart + w.index + w[0].length } });
  return {
    kind: m[1] === '-disable' ? 'file' : m[1] === '-disable-line' ? 'line' : 'next-line',
    keyword,
    line,
    span: { start: lineStart + hash, end: lineStart + lineText.length },
    keywordSpan: { start: lineStart + kw, end: lineStart + kw + keyword.length },
    ids,
    list: { start: lineStart + bodyStart, end: lineStart + listEnd },
    targets: [],
  };
}

/** `suppressions: false` when only the settings and the lines silenced are needed (a quick re-parse of an edited text). */
export function parseDirectives(lines: LineIndex, options: { suppressions?: boolean } = {}): Directives {
  const keep = options.suppressions !== false;
  const out: Directives = { settings: [], disableFile: undefined, disableLines: new Map(), suppressions: [] };
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
    const s = keep ? fromMatch(m, lineText, lines.lineStart(line), line) : undefined;
    if (s) out.suppressions.push(s);
    const ids = s ? s.ids.map((i) => i.id) : idsOf(body);
    const set: RuleSet = ids.length ? new Set(ids) : 'all';
    if (kind === '-disable') out.disableFile = merge(out.disableFile, set);
    else {
      const target = kind === '-disable-line' ? line : (next ??= nextContentLines(lines))[line];
      out.disableLines.set(target, merge(out.disableLines.get(target), set));
      s?.targets.push(target);
      // The next line is a logical one: a command continued with `\` covers its continuation lines
      // (no comment can sit between them without ending the command).
      if (kind === '-disable-next-line') {
        for (let l = target; l + 1 < lines.lineCount && continues(lines.lineText(l)); l++) {
          out.disableLines.set(l + 1, merge(out.disableLines.get(l + 1), set === 'all' ? 'all' : new Set(set)));
          s?.targets.push(l + 1);
        }
      }
    }
  }
  return out;
}

/** The ids of a directive's body, as fromMatch reads them (before a reason after ` -- `). */
function idsOf(body: string): string[] {
  const reason = body.includes('--') ? /(?:^|\s)--(?:\s|$)/.exec(body) : null;
  return (reason ? body.slice(0, reason.index) : body).split(/[\s,]+/).filter(Boolean);
}

/**
 * The offsets where comments start, as the file's reader sees them: a `#` inside a YAML string or
 * block scalar, or inside a shell string or here-document, starts none (such a line is data, and a
 * directive-like text in it is not to be edited). JSON has no comments.
 */
export function commentStarts(syntax: Syntax, text: string): Set<number> {
  const out = new Set<number>();
  if (syntax === 'yaml') {
    // The offsets of the `yaml` lexer's tokens, counted as its parser counts them.
    let offset = 0;
    let atScalar = false;
    for (const lexeme of new Y.Lexer().lex(text.includes('\r') ? text.replace(/\r(?!\n)/g, '\n') : text)) {
      if (atScalar) {
        atScalar = false;
        offset += lexeme.length;
        continue;
      }
      const type = Y.CST.tokenType(lexeme);
      if (type === 'scalar') atScalar = true;
      else if (type === 'doc-mode' || type === 'flow-error-end') continue;
      else {
        if (type === 'comment') out.add(offset);
        offset += lexeme.length;
      }
    }
  } else if (syntax === 'shell') shellComments(text, out);
  return out;
}

/** Shell comments: a `#` that starts a word outside quotes and here-documents. */
function shellComments(text: string, out: Set<number>): void {
  let quote: "'" | '"' | undefined;
  const heredocs: { tag: string; tabs: boolean }[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    // A line of a here-document: data up to the line that ends it.
    if (heredocs.length && !quote) {
      const eol = text.indexOf('\n', i);
      const end = eol < 0 ? n : eol;
      const line = text.slice(i, end).replace(/\r$/, '');
      const h = heredocs[0];
      if ((h.tabs ? line.replace(/^\t+/, '') : line) === h.tag) heredocs.shift();
      i = end + 1;
      continue;
    }
    const c = text[i];
    if (quote === "'") {
      if (c === "'") quote = undefined;
      i++;
    } else if (c === '\\') i += 2;
    else if (quote === '"') {
      if (c === '"') quote = undefined;
      i++;
    } else if (c === "'" || c === '"') {
      quote = c;
      i++;
    } else if (c === '#' && (i === 0 || /[\s;&|()<>]/.test(text[i - 1]))) {
      out.add(i);
      const eol = text.indexOf('\n', i);
      i = eol < 0 ? n : eol;
    } else if (c === '<' && text[i + 1] === '<' && text[i + 2] === '<') i += 3;
    else if (c === '<' && text[i + 1] === '<') {
      const m = /^<<(-?)[ \t]*(?:'([^'\n]*)'|"([^"\n]*)"|\\?([A-Za-z0-9_.-]+))/.exec(text.slice(i, i + 256));
      if (m) {
        heredocs.push({ tag: m[2] ?? m[3] ?? m[4], tabs: m[1] === '-' });
        i += m[0].length;
        // The document starts on the next line: the rest of this one is still the command.
        const eol = text.indexOf('\n', i);
        const rest = text.slice(i, eol < 0 ? n : eol);
        const hash = /(?:^|\s)#/.exec(rest);
        if (hash) out.add(i + hash.index + hash[0].indexOf('#'));
        i = eol < 0 ? n : eol + 1;
      } else i += 2;
    } else i++;
  }
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
