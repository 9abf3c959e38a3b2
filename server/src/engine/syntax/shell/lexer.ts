/** The tokenizer: words with their quoting, `NAME=( … )` arrays, operators, redirections and here-documents, every piece with its span. */
import type { Span } from '../../types';
import { type ArrayLit, type HereDoc, type LexToken, MAX_ITEMS, MAX_NESTING, type Piece, type Unit, type Word } from './types';

/** Words that open or close a compound command where a command starts. */
export const KEYWORDS = new Set(['if', 'then', 'elif', 'else', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', '{', '}', '!', 'function', 'time', 'in']);

/** A placeholder in angle brackets: a letter after `<`, no space before `>`, nothing that ends a command inside. */
const PLACEHOLDER = /^<[A-Za-z][^<>\n;|&`$]*[^\s<>;|&`$]>(?=[\s;|&)]|$)/;

export function isMeta(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === ';' || c === '&' || c === '|' || c === '(' || c === ')' || c === '<' || c === '>';
}

export function isNameStart(c: string | undefined): boolean {
  return c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_');
}

export function isNameChar(c: string | undefined): boolean {
  return c !== undefined && (isNameStart(c) || (c >= '0' && c <= '9'));
}

export const IN_PAREN = 1;
export const IN_BRACE = 2;
export const IN_DOUBLE = 3;
export const IN_BACKTICK = 4;

/**
 * Skips to the bracket that closes an opening already consumed (`$(`, `(`, `${`), through quotes,
 * backticks and nested openings, without recursion. Returns the offset after it.
 */
export function skipBalanced(s: string, i: number, end: number, first: 'paren' | 'brace'): { end: number; closed: boolean } {
  const stack: number[] = [first === 'paren' ? IN_PAREN : IN_BRACE];
  while (i < end) {
    const c = s[i];
    const top = stack[stack.length - 1];
    if (top === IN_DOUBLE) {
      if (c === '\\') i += 2;
      else if (c === '"') {
        stack.pop();
        i++;
        if (!stack.length) return { end: i, closed: true };
      } else if (c === '$' && s[i + 1] === '(') {
        stack.push(IN_PAREN);
        i += 2;
      } else if (c === '$' && s[i + 1] === '{') {
        stack.push(IN_BRACE);
        i += 2;
      } else if (c === '`') {
        stack.push(IN_BACKTICK);
        i++;
      } else i++;
      continue;
    }
    if (top === IN_BACKTICK) {
      if (c === '\\') i += 2;
      else if (c === '`') {
        stack.pop();
        i++;
        if (!stack.length) return { end: i, closed: true };
      } else i++;
      continue;
    }
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === "'") {
      const close = s.indexOf("'", i + 1);
      if (close < 0 || close >= end) return { end, closed: false };
      i = close + 1;
      continue;
    }
    if (c === '"') {
      stack.push(IN_DOUBLE);
      i++;
      continue;
    }
    if (c === '`') {
      stack.push(IN_BACKTICK);
      i++;
      continue;
    }
    if (c === '$' && s[i + 1] === '(') {
      stack.push(IN_PAREN);
      i += 2;
      continue;
    }
    if (c === '$' && s[i + 1] === '{') {
      stack.push(IN_BRACE);
      i += 2;
      continue;
    }
    if (top === IN_PAREN) {
      if (c === '(') stack.push(IN_PAREN);
      else if (c === ')') {
        stack.pop();
        if (!stack.length) return { end: i + 1, closed: true };
      } else if (c === '#' && (i === 0 || /[\s;(]/.test(s[i - 1]))) {
        while (i < end && s[i] !== '\n') i++;
        continue;
      }
    } else if (c === '}') {
      stack.pop();
      if (!stack.length) return { end: i + 1, closed: true };
    }
    i++;
  }
  return { end, closed: false };
}

export const REDIR = /(\d*)(<<<|<<-|<<|&>>|&>|<>|<&|>&|>>|>\||<|>)/y;
export const ARRAY_HEAD = /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?(\+?)=$/;

export class Lexer {
  pos: number;
  private heredocs: HereDoc[] = [];

  constructor(
    private readonly s: string,
    start: number,
    readonly end: number,
    private readonly report: (message: string, span: Span, severity?: 'error' | 'warning') => void,
    private readonly sub: boolean,
  ) {
    this.pos = start;
  }

  next(): LexToken | undefined {
    const s = this.s;
    for (;;) {
      while (this.pos < this.end) {
        const c = s[this.pos];
        if (c === ' ' || c === '\t' || c === '\f' || c === '\v') this.pos++;
        else if (c === '\\' && s[this.pos + 1] === '\n') this.pos += 2;
        else if (c === '\\' && s[this.pos + 1] === '\r' && s[this.pos + 2] === '\n') this.pos += 3;
        else break;
      }
      if (this.pos >= this.end) return undefined;
      if (s[this.pos] === '#') {
        while (this.pos < this.end && s[this.pos] !== '\n' && s[this.pos] !== '\r') this.pos++;
        continue;
      }
      break;
    }
    const start = this.pos;
    const c = s[start];
    if (c === '\n' || c === '\r') {
      this.pos += c === '\r' && s[start + 1] === '\n' ? 2 : 1;
      const span = { start, end: this.pos };
      if (this.heredocs.length) this.skipHeredocs();
      return { k: 'op', op: '\n', span };
    }
    for (const op of [';;&', '&&', '||', ';;', ';&', '|&']) {
      if (s.startsWith(op, start) && start + op.length <= this.end) {
        this.pos += op.length;
        return { k: 'op', op, span: { start, end: this.pos } };
      }
    }
    if ((c === '<' || c === '>') && s[start + 1] === '(') {
      // Process substitution: a word whose value is not known.
      const r = skipBalanced(s, start + 2, this.end, 'paren');
      if (!r.closed) this.report(`This \`${c}(\` is never closed: everything after it is read as one command.`, { start, end: start + 2 });
      this.pos = r.end;
      const span = { start, end: r.end };
      return { k: 'word', w: { kind: 'word', span, pieces: [{ t: 'cmd', span, quoted: false }] } };
    }
    // `<PATH TO gpt-vocab.json>`: a placeholder a template leaves for the user, not a redirection.
    const hole = c === '<' ? PLACEHOLDER.exec(s.slice(start, Math.min(this.end, start + 120))) : null;
    if (hole && (/\s/.test(hole[0]) || !/[a-z]/.test(hole[0]))) {
      this.pos = start + hole[0].length;
      const span = { start, end: this.pos };
      return { k: 'word', w: { kind: 'word', span, pieces: [{ t: 'cmd', span, quoted: false, placeholder: true }] } };
    }
    if (c === '<' || c === '>' || c === '&' || (c >= '0' && c <= '9')) {
      REDIR.lastIndex = start;
      const m = REDIR.exec(s);
      if (m && m.index === start && start + m[0].length <= this.end) {
        this.pos = start + m[0].length;
        const op = m[2];
        while (this.pos < this.end && (s[this.pos] === ' ' || s[this.pos] === '\t')) this.pos++;
        let target: Word | undefined;
        if (this.pos < this.end && !isMeta(s[this.pos])) target = this.readWord(false, false, 0);
        let hd: HereDoc | undefined;
        if ((op === '<<' || op === '<<-') && target) {
          const delim = target.pieces.map((p) => (p.t === 'lit' ? p.text : s.slice(p.span.start, p.span.end))).join('');
          const quoted = target.pieces.some((p) => p.t === 'lit' && (p.quoted || p.src === undefined || p.span.start !== p.unit.span.start)) || /['"\\]/.test(s.slice(target.span.start, target.span.end));
          if (delim) this.heredocs.push((hd = { delim, strip: op === '<<-', quoted, span: { start, end: this.pos } }));
        }
        return { k: 'redir', span: { start, end: this.pos }, hd, op, fd: m[1], target };
      }
    }
    if (c === ';' || c === '&' || c === '|' || c === '(' || c === ')') {
      this.pos++;
      return { k: 'op', op: c, span: { start, end: this.pos } };
    }
    const w = this.readWord(false, false, 0);
    if (this.pos === start) {
      // Not expected (every other character starts a word); never loop on it.
      this.pos++;
      return { k: 'op', op: '?', span: { start, end: this.pos } };
    }
    if (this.pos < this.end && s[this.pos] === '(' && w.pieces.every((p) => p.t === 'lit' && !p.quoted && p.src !== undefined)) {
      const head = ARRAY_HEAD.exec(s.slice(w.span.start, w.span.end));
      if (head) return { k: 'array', a: this.readArray(w, head) };
    }
    return { k: 'word', w };
  }

  private skipHeredocs(): void {
    const s = this.s;
    for (const h of this.heredocs) {
      let found = false;
      const bodyStart = this.pos;
      while (this.pos < this.end) {
        let eol = s.indexOf('\n', this.pos);
        if (eol < 0 || eol > this.end) eol = this.end;
        let line = s.slice(this.pos, eol);
        if (line.endsWith('\r')) line = line.slice(0, -1);
        if (h.strip) line = line.replace(/^\t+/, '');
        const lineStart = this.pos;
        this.pos = Math.min(eol + 1, this.end);
        if (line === h.delim) {
          found = true;
          h.body = { start: bodyStart, end: lineStart };
          break;
        }
      }
      if (!found) this.report(`This here-document never ends: no line reads \`${h.delim}\`, so the rest of the file is its text.`, h.span, 'warning');
    }
    this.heredocs = [];
  }

  private readArray(w: Word, head: RegExpExecArray): ArrayLit {
    const s = this.s;
    const open = { start: w.span.start, end: this.pos + 1 };
    this.pos++;
    const items: Word[] = [];
    let close: Span | undefined;
    for (;;) {
      while (this.pos < this.end) {
        const c = s[this.pos];
        if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v') this.pos++;
        else if (c === '\\' && (s[this.pos + 1] === '\n' || s[this.pos + 1] === '\r')) this.pos += 2;
        else if (c === '#') {
          while (this.pos < this.end && s[this.pos] !== '\n') this.pos++;
        } else break;
      }
      if (this.pos >= this.end) {
        this.report(`The array \`${head[1]}\` is never closed: \`${head[1]}=(\` has no matching \`)\`, so the rest of the file is read as its elements.`, open);
        break;
      }
      const c = s[this.pos];
      if (c === ')') {
        close = { start: this.pos, end: this.pos + 1 };
        this.pos++;
        break;
      }
      if (isMeta(c)) {
        this.pos++;
        continue;
      }
      const before = this.pos;
      items.push(this.readWord(false, false, 0));
      if (this.pos === before) this.pos++;
      if (items.length > MAX_ITEMS) {
        // Keep reading to the end of the array, but do not keep more elements.
        items.pop();
      }
    }
    const span = { start: w.span.start, end: this.pos };
    return {
      kind: 'array',
      span,
      name: head[1],
      index: head[2] ? head[2].slice(1, -1) : undefined,
      append: head[3] === '+',
      nameSpan: { start: w.span.start, end: w.span.start + head[1].length },
      open,
      close,
      items,
      block: { kind: 'array', span, insertable: !!close && !this.sub },
    };
  }

  /** A word up to a metacharacter (or, inside `${…}`, up to the closing brace). */
  readWord(inBrace: boolean, inDq: boolean, depth: number): Word {
    const s = this.s;
    const end = this.end;
    const start = this.pos;
    const pieces: Piece[] = [];
    const bare: Extract<Piece, { t: 'lit' }>[] = [];
    let bareStart = -1;
    let run = '';
    let runSrc = -1;
    const flushRun = (): void => {
      if (run) {
        bare.push({ t: 'lit', text: run, src: runSrc, span: { start: runSrc, end: runSrc + run.length }, unit: undefined as unknown as Unit, quoted: inDq });
        run = '';
      }
    };
    const flushBare = (at: number): void => {
      flushRun();
      if (bare.length) {
        const unit: Unit = { span: { start: bareStart, end: at }, content: { start: bareStart, end: at }, quote: inDq ? 'double' : 'none' };
        for (const p of bare) p.unit = unit;
        pieces.push(...bare);
        bare.length = 0;
      }
      bareStart = -1;
    };
    const addChar = (c: string): void => {
      if (bareStart < 0) bareStart = this.pos;
      if (!run) runSrc = this.pos;
      run += c;
      this.pos++;
    };
    while (this.pos < end) {
      const c = s[this.pos];
      if (inBrace ? c === '}' : isMeta(c)) break;
      if (c === '\\') {
        const n = s[this.pos + 1];
        if (n === '\n') {
          flushRun();
          this.pos += 2;
          continue;
        }
        if (n === '\r' && s[this.pos + 2] === '\n') {
          flushRun();
          this.pos += 3;
          continue;
        }
        if (this.pos + 1 >= end) {
          addChar(c);
          continue;
        }
        if (inDq && !'$`"\\}'.includes(n)) {
          addChar(c);
          continue;
        }
        if (bareStart < 0) bareStart = this.pos;
        flushRun();
        run = n;
        runSrc = this.pos + 1;
        flushRun();
        this.pos += 2;
        continue;
      }
      if (c === "'" && !inDq) {
        flushBare(this.pos);
        pieces.push(this.readSingle());
        continue;
      }
      if (c === '"') {
        flushBare(this.pos);
        pieces.push(...this.readDouble(depth));
        continue;
      }
      if (c === '$') {
        const n = s[this.pos + 1];
        if (n === "'" && !inDq) {
          flushBare(this.pos);
          pieces.push(this.readAnsi());
          continue;
        }
        if (n === '"' && !inDq) {
          flushBare(this.pos);
          this.pos++;
          pieces.push(...this.readDouble(depth));
          continue;
        }
        const at = this.pos;
        const p = this.readDollar(inDq, depth);
        if (p) {
          flushBare(at);
          pieces.push(p);
          continue;
        }
        addChar(c);
        continue;
      }
      if (c === '`') {
        flushBare(this.pos);
        pieces.push(this.readBacktick(inDq));
        continue;
      }
      addChar(c);
    }
    flushBare(this.pos);
    return { kind: 'word', span: { start, end: this.pos }, pieces };
  }

  private readSingle(): Piece {
    const s = this.s;
    const start = this.pos;
    const close = s.indexOf("'", start + 1);
    let contentEnd: number;
    if (close < 0 || close >= this.end) {
      this.report("This single quote is never closed: everything after it, to the end of the file, is one string. Close it with `'`.", { start, end: start + 1 });
      contentEnd = this.end;
      this.pos = this.end;
    } else {
      contentEnd = close;
      this.pos = close + 1;
    }
    const unit: Unit = { span: { start, end: this.pos }, content: { start: start + 1, end: contentEnd }, quote: 'single' };
    return { t: 'lit', text: s.slice(start + 1, contentEnd), src: start + 1, span: { start: start + 1, end: contentEnd }, unit, quoted: true };
  }

  private readAnsi(): Piece {
    const s = this.s;
    const start = this.pos;
    let i = start + 2;
    let text = '';
    let exact = true;
    const ESC: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v' };
    let closed = false;
    while (i < this.end) {
      const c = s[i];
      if (c === "'") {
        closed = true;
        break;
      }
      if (c === '\\' && i + 1 < this.end) {
        exact = false;
        text += ESC[s[i + 1]] ?? s[i + 1];
        i += 2;
        continue;
      }
      text += c;
      i++;
    }
    if (!closed) this.report("This `$'` quote is never closed: everything after it, to the end of the file, is one string. Close it with `'`.", { start, end: start + 2 });
    const contentEnd = Math.min(i, this.end);
    this.pos = closed ? i + 1 : this.end;
    const unit: Unit = { span: { start, end: this.pos }, content: { start: start + 2, end: contentEnd }, quote: 'ansi' };
    return { t: 'lit', text, src: exact ? start + 2 : undefined, span: { start: start + 2, end: contentEnd }, unit, quoted: true };
  }

  /** A here-document body as one word: expanded like a double-quoted string unless its delimiter was quoted. */
  readHeredoc(literal: boolean): Word {
    const start = this.pos;
    if (literal) {
      const unit: Unit = { span: { start, end: this.end }, content: { start, end: this.end }, quote: 'single' };
      this.pos = this.end;
      return { kind: 'word', span: { start, end: this.end }, pieces: [{ t: 'lit', text: this.s.slice(start, this.end), src: start, span: { start, end: this.end }, unit, quoted: true }] };
    }
    const pieces = this.readDouble(0, true);
    return { kind: 'word', span: { start, end: this.end }, pieces };
  }

  private readDouble(depth: number, heredoc = false): Piece[] {
    const s = this.s;
    const start = this.pos;
    if (!heredoc) this.pos++;
    const unit: Unit = { span: { start, end: start }, content: { start: heredoc ? start : start + 1, end: start + 1 }, quote: 'double' };
    const out: Piece[] = [];
    let run = '';
    let runSrc = -1;
    const flush = (): void => {
      if (run) {
        out.push({ t: 'lit', text: run, src: runSrc, span: { start: runSrc, end: runSrc + run.length }, unit, quoted: true });
        run = '';
      }
    };
    let closed = false;
    while (this.pos < this.end) {
      const c = s[this.pos];
      if (c === '"' && !heredoc) {
        closed = true;
        break;
      }
      if (c === '\\') {
        const n = s[this.pos + 1];
        if (n === '\n') {
          flush();
          this.pos += 2;
          continue;
        }
        if (n === '\r' && s[this.pos + 2] === '\n') {
          flush();
          this.pos += 3;
          continue;
        }
        if (n === '$' || n === '`' || (n === '"' && !heredoc) || n === '\\') {
          flush();
          run = n;
          runSrc = this.pos + 1;
          flush();
          this.pos += 2;
          continue;
        }
      }
      if (c === '$') {
        const p = this.readDollar(true, depth);
        if (p) {
          flush();
          out.push(p);
          continue;
        }
      }
      if (c === '`') {
        flush();
        out.push(this.readBacktick(true));
        continue;
      }
      if (!run) runSrc = this.pos;
      run += c;
      this.pos++;
    }
    flush();
    if (heredoc) {
      unit.content.end = this.end;
      unit.span.end = this.end;
    } else if (closed) {
      unit.content.end = this.pos;
      this.pos++;
      unit.span.end = this.pos;
    } else {
      this.report('This double quote is never closed: everything after it, to the end of the file, is one string. Close it with `"`.', { start, end: start + 1 });
      unit.content.end = this.end;
      unit.span.end = this.end;
      this.pos = this.end;
    }
    if (out.length === 0) out.push({ t: 'lit', text: '', src: unit.content.start, span: { start: unit.content.start, end: unit.content.start }, unit, quoted: true });
    return out;
  }

  private readBacktick(quoted: boolean): Piece {
    const s = this.s;
    const start = this.pos;
    let i = start + 1;
    while (i < this.end && s[i] !== '`') i += s[i] === '\\' ? 2 : 1;
    if (i >= this.end) {
      this.report('This backtick is never closed: everything after it is read as one command. Close it with `` ` `` (or use `$(…)`).', { start, end: start + 1 });
      this.pos = this.end;
    } else this.pos = i + 1;
    return { t: 'cmd', span: { start, end: this.pos }, quoted };
  }

  private readDollar(quoted: boolean, depth: number): Piece | null {
    const s = this.s;
    const start = this.pos;
    if (start + 1 >= this.end) return null;
    const n = s[start + 1];
    if (n === '(') {
      if (s[start + 2] === '(') {
        const r = skipBalanced(s, start + 2, this.end, 'paren');
        if (!r.closed) {
          this.report('This `$((` is never closed: the arithmetic and everything after it are not read. Close it with `))`.', { start, end: start + 3 });
          this.pos = this.end;
          return { t: 'arith', span: { start, end: this.end }, expr: '', quoted, bad: true };
        }
        if (s[r.end - 2] === ')' && r.end - 2 >= start + 3) {
          this.pos = r.end;
          return { t: 'arith', span: { start, end: r.end }, expr: s.slice(start + 3, r.end - 2), quoted };
        }
        this.pos = r.end;
        return { t: 'cmd', span: { start, end: r.end }, quoted };
      }
      const r = skipBalanced(s, start + 2, this.end, 'paren');
      if (!r.closed) this.report('This `$(` is never closed: everything after it is read as one command. Close it with `)`.', { start, end: start + 2 });
      this.pos = r.end;
      return { t: 'cmd', span: { start, end: r.end }, quoted };
    }
    if (n === '{') return this.readBraced(quoted, depth);
    if (isNameStart(n)) {
      let i = start + 1;
      while (i < this.end && isNameChar(s[i])) i++;
      this.pos = i;
      return { t: 'param', span: { start, end: i }, name: s.slice(start + 1, i), quoted };
    }
    if ((n >= '0' && n <= '9') || '@*#?$!-'.includes(n)) {
      this.pos = start + 2;
      return { t: 'param', span: { start, end: start + 2 }, name: n, quoted };
    }
    return null;
  }

  private readBraced(quoted: boolean, depth: number): Piece {
    const s = this.s;
    const start = this.pos;
    const skip = (from: number, bad: string | undefined, name = ''): Piece => {
      const r = skipBalanced(s, from, this.end, 'brace');
      if (!r.closed) this.report('This `${` is never closed: everything after it is not read. Close it with `}`.', { start, end: start + 2 });
      this.pos = r.end;
      return { t: 'param', span: { start, end: r.end }, name, quoted, bad: r.closed ? bad : 'the expansion is never closed', op: bad ? undefined : 'other' };
    };
    if (depth >= MAX_NESTING) return skip(start + 2, `this expansion nests deeper than ${MAX_NESTING} levels and is not read`);
    let i = start + 2;
    let length = false;
    let indirect = false;
    if (s[i] === '#' && i + 1 < this.end && s[i + 1] !== '}') {
      length = true;
      i++;
    } else if (s[i] === '!' && isNameStart(s[i + 1])) {
      indirect = true;
      i++;
    }
    let name = '';
    if (isNameStart(s[i])) {
      const j = i;
      while (i < this.end && isNameChar(s[i])) i++;
      name = s.slice(j, i);
    } else if (s[i] >= '0' && s[i] <= '9') {
      const j = i;
      while (i < this.end && s[i] >= '0' && s[i] <= '9') i++;
      name = s.slice(j, i);
    } else if (i < this.end && '@*#?$!-'.includes(s[i])) {
      name = s[i];
      i++;
    }
    if (!name) return skip(i, 'this `${…}` expansion is not a variable');
    let index: string | undefined;
    if (s[i] === '[') {
      const close = s.indexOf(']', i);
      if (close < 0 || close >= this.end) return skip(i, 'this `${…}` expansion is not read');
      index = s.slice(i + 1, close);
      i = close + 1;
    }
    let op: string | undefined;
    const two = s.slice(i, i + 2);
    if (two === ':-' || two === ':=' || two === ':+' || two === ':?') {
      op = two;
      i += 2;
    } else if (i < this.end && '-=+?'.includes(s[i])) {
      op = s[i];
      i++;
    }
    if (op) {
      this.pos = i;
      const arg = this.readWord(true, quoted, depth + 1);
      if (this.pos >= this.end || s[this.pos] !== '}') {
        this.report('This `${` is never closed: everything after it is not read. Close it with `}`.', { start, end: start + 2 });
        this.pos = this.end;
        return { t: 'param', span: { start, end: this.end }, name, quoted, bad: 'the expansion is never closed' };
      }
      this.pos++;
      return { t: 'param', span: { start, end: this.pos }, name, index, length, indirect, op, arg, quoted };
    }
    if (s[i] === '}') {
      this.pos = i + 1;
      return { t: 'param', span: { start, end: this.pos }, name, index, length, indirect, quoted };
    }
    const r = skip(i, undefined, name);
    return { ...(r as Extract<Piece, { t: 'param' }>), index, length, indirect };
  }
}
