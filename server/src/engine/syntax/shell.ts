/**
 * Shell launch scripts → SourceDoc. A small bash tokenizer and a straight-line evaluator find the
 * training command (the last command that launches a `.py` entry point) and read the Megatron flags
 * passed after the entry point, with arrays and variables expanded, into one flag map. Every flag and
 * value keeps the span where it is written (inside an array definition when it comes from
 * `${ARR[@]}`), so rules report on the right token and fixes edit it in place.
 *
 * What is read:
 * - assignments: `X=v`, `X+=v`, `export X=v`, `local`/`readonly`/`declare`/`typeset` (with `-x`),
 *   `X=${X:-8}` and the other `${X…}` default forms (`:-`, `-`, `:=`, `=`, `:+`, `+`, `:?`, `?`),
 *   `${#X}`, `${ARR[n]}`, arithmetic `$(( … ))` (integers, `+ - * / % **`, parentheses, `$X`, `${X}`,
 *   bare names), arrays `A=( … )` / `A+=( … )` over several lines with comments and `\` inside,
 *   `"${A[@]}"`, `${A[@]}`, `${A[*]}`, `$A` (first element), word splitting of unquoted expansions,
 *   quoting (`'…'`, `"…"`, `$'…'`, backslashes, `\`-newline continuations), comments, heredocs
 *   (bodies skipped), `unset`, `read`, `for` variables.
 * - unknowable values keep the text as written and say why (`unknown`): the environment, `$1`,
 *   `$@`, `$RANDOM`, `$(cmd)` and backticks, `${X/…}`-style transforms, `read`, loop variables.
 * - control flow is not run, with four cheap exceptions that cover launch scripts: a `case` on a known
 *   value and an `if`/`elif`/`&&`/`||` whose condition is a `[`/`[[`/`test` comparison of known values
 *   (`=`, `==` with globs, `!=`, `-eq`…, `-z`, `-n`, `!`, `&&`, `||`, `-a`, `-o`) take only the arm
 *   that runs. Otherwise every arm is read in text order, and when the arms disagree:
 *   - a scalar assigned differently on the possible paths (including "before the `if`" when there is
 *     no `else`) becomes unknown ("assigned differently in the branches of the `if` on line N"); a
 *     scalar assigned on one path only, with no other value before, keeps that value;
 *   - an array keeps the first arm that changes it (the first arm is usually the default path), so
 *     conditional `ARGS+=(…)` flags are read as passed.
 *   Loops run once, in text order; function bodies are read where they are defined.
 * - the training command: `torchrun`, `python -m torch.distributed.run|launch`, `python[3]`, `srun`,
 *   `deepspeed`, `mpirun`/`mpiexec`, chained (`srun … python …`), behind wrappers (`env`, `nsys`,
 *   `numactl`, `exec`, `VAR=1 cmd`), written directly or through variables
 *   (`$LAUNCHER "$MEGATRON/pretrain_gpt.py"`), and inside `bash -c "…"` / `sh -c` / `eval "…"`
 *   whose text is known (read again as a script, as the inner shell reads it, spans mapped back).
 *   The entry point is the first `.py` word after the launcher; everything after it is the argument
 *   list: `--flag value`, `--flag=value`, `--flag v1 v2 …` (nargs: a sequence node), bare boolean
 *   flags, negative numbers as values. `"$@"` and unset `$…ARGS`/`$…FLAGS`/`$…OPTS` variables are
 *   passed through without taking part.
 *
 * Deliberately not read: `source`d files (no file access; their variables count as coming from the
 * environment), function calls (bodies are read once, in place, so `$1` inside is unknown), loops
 * more than once, `$(…)` output, brace expansion and globs, `(( ))` commands beyond marking what they
 * change as unknown, and entry points given as modules (`python -m megatron…`), without `.py`, or
 * held entirely in a variable from outside the script. `sbatch <<EOF … EOF` (and `bash <<EOF`) is
 * read as the script it submits. Edits refuse rather than guess: values that are computed, unknown or
 * assigned differently on different paths are not changed, and new flags are only written into
 * blocks of the script itself (not into `bash -c` strings or `opts="…"` strings).
 *
 * Never throws; unterminated quotes, unclosed arrays, `$(`, `$((`, `${` and backticks are
 * `parse-error` problems on their opening token, and hostile input is bounded (nesting, array sizes,
 * value lengths, total expansion work).
 */
import { applyEdits, LineIndex } from '../text';
import type { Span, TextEdit } from '../types';
import { TreeDoc, type CompletionSite, type PathEdit, type SyntaxProblem } from './sourcedoc';
import type { Entry, MapNode, Node, ScalarNode } from './tree';
import { readSbatch, slurmVars, type Allocation } from './sbatch';

/** `${…}` nested deeper than this is not read (and cannot exhaust the stack). */
export const MAX_NESTING = 64;
const MAX_PROBLEMS = 20;
const MAX_FRAMES = 200;
const MAX_ITEMS = 10_000;
const MAX_VALUE = 200_000;
const WORK_BUDGET = 2_000_000;
const MAX_SUBSCRIPT_DEPTH = 3;

// ---------------------------------------------------------------------------------------------
// Public shapes

/** A shell variable as it stands when the training command runs (the last assignment that reaches it). */
export interface ShellVar {
  name: string;
  /** The resolved value (arrays: the elements joined by spaces); undefined when it cannot be known. */
  value: string | undefined;
  /** Why the value cannot be known. */
  unknown?: string;
  /** The name in its last assignment. */
  nameSpan: Span;
  /** The value as written in its last assignment (`(…)` for arrays; zero-width for `X=`). */
  valueSpan: Span;
  exported: boolean;
  /** The `8` in `${X:-8}` when the value comes from that default. */
  defaultSpan?: Span;
  /** The elements, for arrays. */
  items?: string[];
}

export type LauncherKind = 'torchrun' | 'torch.distributed.run' | 'torch.distributed.launch' | 'srun' | 'deepspeed' | 'mpirun' | 'python';

export interface LauncherArg {
  /** Numbers as numbers; undefined for an option given without a value. */
  value: string | number | undefined;
  unknown?: string;
  /** The value as written (the option itself when it has no value). */
  span: Span;
  /** The option as written. */
  keySpan: Span;
}

/** A launcher of the training command and its own options (`--nproc_per_node`, `-N`, `--num_gpus`, `-np`…), keyed as written. */
export interface Launcher {
  kind: LauncherKind;
  args: ReadonlyMap<string, LauncherArg>;
  /** The launcher word (`torchrun`; `python -m torch.distributed.run` as a whole). */
  span: Span;
  /** The launcher it starts, for chains such as `srun … torchrun …` or `mpirun … python …`. */
  inner?: Launcher;
}

export interface EntryPoint {
  /** The resolved path (`$MEGATRON/pretrain_gpt.py` → `/opt/megatron/pretrain_gpt.py`, or as written when unknown). */
  path: string;
  span: Span;
}

// ---------------------------------------------------------------------------------------------
// Tokens

type Quote = 'none' | 'single' | 'double' | 'ansi';
type Tri = boolean | undefined;

/** A run of text with one quoting: a bare run, `'…'`, `"…"` or `$'…'`. */
interface Unit {
  span: Span;
  content: Span;
  quote: Quote;
}

type Piece =
  | { t: 'lit'; text: string; src: number | undefined; span: Span; unit: Unit; quoted: boolean }
  | { t: 'param'; span: Span; name: string; index?: string; length?: boolean; indirect?: boolean; op?: string; arg?: Word; quoted: boolean; bad?: string }
  | { t: 'cmd'; span: Span; quoted: boolean }
  | { t: 'arith'; span: Span; expr: string; quoted: boolean; bad?: boolean };

interface Word {
  kind: 'word';
  span: Span;
  pieces: Piece[];
}

interface ArrayLit {
  kind: 'array';
  span: Span;
  name: string;
  index?: string;
  append: boolean;
  nameSpan: Span;
  /** `NAME=(`. */
  open: Span;
  close?: Span;
  items: Word[];
  block: Block;
}

interface HereDoc {
  delim: string;
  strip: boolean;
  /** The delimiter was quoted: the body is literal text. */
  quoted: boolean;
  span: Span;
  body?: Span;
}

type Token = { k: 'word'; w: Word } | { k: 'array'; a: ArrayLit } | { k: 'op'; op: string; span: Span } | { k: 'redir'; span: Span; hd?: HereDoc };

/** Where flags are written: an array definition or a command line. */
interface Block {
  kind: 'array' | 'command';
  span: Span;
  /** New flags may be written into it (closed, and written in the script itself, not in a string). */
  insertable: boolean;
}

/** A word as written in the script. */
interface Tok {
  span: Span;
  block?: Block;
  role: 'arg' | 'assign' | 'default';
  /** Only literal text (no expansions): it can be rewritten as a whole. */
  literal: boolean;
  quote: Quote;
  /** Its expansion when it expanded to exactly one word. */
  value?: string;
  single?: boolean;
}

/** How to change a value: replace `span` with the new text, quoted for `quote` (`wrap`: write the quotes too). */
interface Target {
  span: Span;
  quote: Quote;
  wrap: boolean;
  /** Reached through this variable. */
  via?: string;
}

/** A piece of an expanded word, with where it comes from. */
interface Seg {
  text: string;
  /** Offset of text[0] when the text is the source character for character. */
  src?: number;
  ctx?: Unit;
  /** Read out of a string by a nested shell (`bash -c`): only edited inside that string. */
  nested?: boolean;
  span: Span;
  tok?: Tok;
  /** Not split on whitespace. */
  quoted: boolean;
  unknown?: string;
  /** The whole value of one variable expansion: how to edit it (null: not editable). */
  ref?: Target | null;
  defaultSpan?: Span;
  passthrough?: boolean;
  /** From a variable of an enclosing script (`bash -c`): located where it is expanded. */
  detached?: boolean;
}

/** One word after expansion. */
interface Field {
  text: string;
  segs: Seg[];
  /** The written word it was expanded from. */
  outer: Tok;
  passthrough?: boolean;
}

interface Binding {
  kind: 'scalar' | 'array';
  segs: Seg[];
  items: Seg[][];
  unknown?: string;
  target?: Target;
  defaultSpan?: Span;
  exported: boolean;
  nameSpan: Span;
  valueSpan: Span;
}

type Env = Map<string, Binding>;

interface Frame {
  kind: 'if' | 'case' | 'andor' | 'loop' | 'group' | 'brace';
  line: number;
  arm: boolean;
  dead: boolean;
  taken: Tri;
  decided: boolean;
  maybe: boolean;
  exhaustive: boolean;
  pattern: boolean;
  subject?: string;
  /** A `{ … }` group run by `&&`/`||`: the conditional frame below it closes with it. */
  closesAndor?: boolean;
  undo: Map<string, Binding | undefined>;
  done: { vals: Map<string, Binding | undefined>; taken: Tri }[];
}

interface Cmd {
  words: (Word | ArrayLit)[];
  span: Span;
  block: Block;
  test2?: (Word | string)[];
  heredocs?: HereDoc[];
}

interface Training {
  launcher?: Launcher;
  launcherFields: Field[];
  entry: Field;
  args: Field[];
  block: Block;
  /** End of the command's last word. */
  lastEnd: number;
  env: Env;
  /** The command's words before the launcher (`ssh`, `env`, `VAR=1`…), as base names ('' when unknown). */
  prefix?: string[];
  /** The command is inside a loop (it may run once per host). */
  inLoop?: boolean;
}

interface Ctx {
  problems: SyntaxProblem[];
  work: number;
  depth: number;
  lineOf(offset: number): number;
}

// ---------------------------------------------------------------------------------------------
// Lexer

function isMeta(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === ';' || c === '&' || c === '|' || c === '(' || c === ')' || c === '<' || c === '>';
}

function isNameStart(c: string | undefined): boolean {
  return c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_');
}

function isNameChar(c: string | undefined): boolean {
  return c !== undefined && (isNameStart(c) || (c >= '0' && c <= '9'));
}

const P = 1;
const B = 2;
const D = 3;
const K = 4;

/**
 * Skips to the bracket that closes an opening already consumed (`$(`, `(`, `${`), through quotes,
 * backticks and nested openings, without recursion. Returns the offset after it.
 */
function skipBalanced(s: string, i: number, end: number, first: 'paren' | 'brace'): { end: number; closed: boolean } {
  const stack: number[] = [first === 'paren' ? P : B];
  while (i < end) {
    const c = s[i];
    const top = stack[stack.length - 1];
    if (top === D) {
      if (c === '\\') i += 2;
      else if (c === '"') {
        stack.pop();
        i++;
        if (!stack.length) return { end: i, closed: true };
      } else if (c === '$' && s[i + 1] === '(') {
        stack.push(P);
        i += 2;
      } else if (c === '$' && s[i + 1] === '{') {
        stack.push(B);
        i += 2;
      } else if (c === '`') {
        stack.push(K);
        i++;
      } else i++;
      continue;
    }
    if (top === K) {
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
      stack.push(D);
      i++;
      continue;
    }
    if (c === '`') {
      stack.push(K);
      i++;
      continue;
    }
    if (c === '$' && s[i + 1] === '(') {
      stack.push(P);
      i += 2;
      continue;
    }
    if (c === '$' && s[i + 1] === '{') {
      stack.push(B);
      i += 2;
      continue;
    }
    if (top === P) {
      if (c === '(') stack.push(P);
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

const REDIR = /(\d*)(<<<|<<-|<<|&>>|&>|<>|<&|>&|>>|>\||<|>)/y;
const ARRAY_HEAD = /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?(\+?)=$/;

class Lexer {
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

  next(): Token | undefined {
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
        return { k: 'redir', span: { start, end: this.pos }, hd };
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

// ---------------------------------------------------------------------------------------------
// Expansion helpers

const IFS = /[ \t\n]/;
const PASS_NAMES = /(ARGS|FLAGS|OPTS|OPTIONS|OVERRIDES)$/i;
const LAUNCHER_NAME = /^(torchrun|srun|deepspeed|mpirun|mpiexec|python[0-9.]*)$/;
const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** A variable as an inner shell (`bash -c`) sees it: its value, without locations in the outer script. */
function detach(b: Binding): Binding {
  const off = (s: Seg): Seg => ({ text: s.text, span: { start: 0, end: 0 }, quoted: s.quoted, unknown: s.unknown, passthrough: s.passthrough, detached: true });
  const none = { start: 0, end: 0 };
  return { ...b, segs: b.segs.map(off), items: b.items.map((i) => i.map(off)), target: undefined, defaultSpan: undefined, nameSpan: none, valueSpan: none };
}

function unknownOf(b: Binding): string | undefined {
  return b.unknown ?? (b.kind === 'array' ? b.items.flat() : b.segs).find((s) => s.unknown)?.unknown;
}

function textOf(segs: readonly Seg[]): string {
  let t = '';
  for (const s of segs) t += s.text;
  return t;
}

function union(spans: Span[]): Span {
  let start = Infinity;
  let end = -Infinity;
  for (const s of spans) {
    if (s.start < start) start = s.start;
    if (s.end > end) end = s.end;
  }
  return { start, end };
}

function sliceSeg(s: Seg, a: number, b: number): Seg {
  const exact = s.src !== undefined;
  return { ...s, text: s.text.slice(a, b), src: exact ? s.src! + a : undefined, span: exact ? { start: s.src! + a, end: s.src! + b } : s.span, ref: undefined, defaultSpan: undefined };
}

function short(text: string): string {
  const one = text.replace(/\s+/g, ' ');
  return one.length > 40 ? `${one.slice(0, 37)}…` : one;
}

function envReason(name: string): string {
  if (/^SLURM_/.test(name)) return `${name} is set by Slurm when the job runs`;
  if (/^(OMPI|PMI|PMIX|MPI)_/.test(name)) return `${name} is set by the MPI launcher when the job runs`;
  if (name === 'RANDOM' || name === 'SRANDOM') return `$${name} is a new random number each time`;
  if (name === 'HOSTNAME' || name === 'PWD' || name === 'HOME' || name === 'USER') return `${name} depends on the machine running the script`;
  return `${name} comes from the environment`;
}

function argReason(n: string): string {
  return n === '0' ? "$0 is the script's own path" : `$${n} is argument ${n} of the script`;
}

function baseName(t: string): string {
  const i = t.lastIndexOf('/');
  return i >= 0 ? t.slice(i + 1) : t;
}

function isFlagText(t: string): boolean {
  return /^--?[A-Za-z]/.test(t);
}

/** Python's reading of a command-line value: integers and floats as numbers, the rest as text. */
function typedValue(text: string): string | number {
  if (/^[+-]?\d+$/.test(text)) {
    const n = Number(text);
    return Number.isSafeInteger(n) ? n : text;
  }
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) {
    const n = Number(text);
    return Number.isFinite(n) ? n : text;
  }
  return text;
}

function not(t: Tri): Tri {
  return t === undefined ? undefined : !t;
}

function and3(a: Tri, b: Tri): Tri {
  if (a === false || b === false) return false;
  return a === true && b === true ? true : undefined;
}

function or3(a: Tri, b: Tri): Tri {
  if (a === true || b === true) return true;
  return a === false && b === false ? false : undefined;
}

function globMatch(pattern: string, text: string): boolean {
  let re = '^';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[') {
      const close = pattern.indexOf(']', i + 2);
      if (close < 0) re += '\\[';
      else {
        let cls = pattern.slice(i + 1, close).replace(/\\/g, '\\\\');
        if (cls.startsWith('!')) cls = `^${cls.slice(1)}`;
        re += `[${cls}]`;
        i = close;
      }
    } else re += c.replace(/[.+^${}()|\\\]]/g, '\\$&');
  }
  try {
    return new RegExp(`${re}$`, 's').test(text);
  } catch {
    return pattern === text;
  }
}

/** The written word the field is, when it is all of one word's single expansion. */
function wholeTok(f: Field): Tok | undefined {
  const t = f.segs[0]?.tok;
  if (!t || !t.single || t.value !== f.text) return undefined;
  for (const s of f.segs) if (s.tok !== t) return undefined;
  return t;
}

interface Located {
  span: Span;
  target?: Target;
  unknown?: string;
  /** The text maps character for character onto `exactSpan` inside this quoting unit. */
  ctx?: Unit;
  exactSpan?: Span;
  ref?: boolean;
}

/** Where the characters [a, b) of an expanded word are written, and how to replace them. */
function locateRange(f: Field, a: number, b: number): Located {
  const hits: { seg: Seg; from: number; to: number }[] = [];
  let off = 0;
  for (const seg of f.segs) {
    const s0 = off;
    const s1 = off + seg.text.length;
    off = s1;
    if (a === b) {
      if (!hits.length && s0 <= a && a <= s1) hits.push({ seg, from: a - s0, to: a - s0 });
    } else if (s1 > a && s0 < b) hits.push({ seg, from: Math.max(a, s0) - s0, to: Math.min(b, s1) - s0 });
  }
  if (!hits.length) return { span: f.outer.span };
  const unknown = hits.find((h) => h.seg.unknown)?.seg.unknown;
  const h0 = hits[0];
  const hl = hits[hits.length - 1];
  if (hits.length === 1 && h0.seg.ref !== undefined && h0.from === 0 && h0.to === h0.seg.text.length) {
    return { span: h0.seg.span, target: h0.seg.ref ?? undefined, unknown, ref: true };
  }
  let exactSpan: Span | undefined;
  let ctx: Unit | undefined;
  if (hits.every((h) => h.seg.src !== undefined)) {
    let ok = true;
    for (let i = 1; i < hits.length && ok; i++) {
      const p = hits[i - 1];
      const c = hits[i];
      ok = p.to === p.seg.text.length && c.from === 0 && p.seg.src! + p.seg.text.length === c.seg.src!;
    }
    if (ok) {
      exactSpan = { start: h0.seg.src! + h0.from, end: hl.seg.src! + hl.to };
      ctx = hits.every((h) => h.seg.ctx === h0.seg.ctx) ? h0.seg.ctx : undefined;
    }
  }
  const nested = hits.some((h) => h.seg.nested);
  const T = a === 0 && b === f.text.length ? wholeTok(f) : undefined;
  if (T && T.literal && !nested) return { span: T.span, target: { span: T.span, quote: T.quote, wrap: true }, unknown, ctx, exactSpan };
  if (exactSpan) {
    if (ctx && !nested && exactSpan.start === ctx.content.start && exactSpan.end === ctx.content.end) {
      return { span: ctx.span, target: { span: ctx.span, quote: ctx.quote, wrap: true }, unknown, ctx, exactSpan };
    }
    return { span: exactSpan, target: ctx ? { span: exactSpan, quote: ctx.quote, wrap: false } : undefined, unknown, ctx, exactSpan };
  }
  if (T) return { span: T.span, unknown };
  const toks = new Set(hits.map((h) => h.seg.tok));
  if (toks.size === 1) return { span: union(hits.map((h) => h.seg.span)), unknown };
  return { span: f.outer.span, unknown };
}

// ---------------------------------------------------------------------------------------------
// The evaluator

/** Variables a batch scheduler or MPI launcher sets in the job's environment. */
const SCHEDULER_VAR = /^(SLURM_|PBS_|LSB_|OMPI_COMM_WORLD_|PMI_|PMIX_)/;

class Script {
  private readonly lx: Lexer;
  private la: Token | undefined;
  private laSet = false;
  private frames: Frame[] = [];
  private overflow = 0;
  private deadCount = 0;
  private status: Tri = undefined;
  training: Training | undefined;
  readonly arrays: ArrayLit[] = [];

  constructor(
    private readonly src: string,
    start: number,
    end: number,
    private readonly ctx: Ctx,
    readonly env: Env,
    private readonly sub: boolean,
  ) {
    this.lx = new Lexer(src, start, end, (message, span, severity = 'error') => this.report(message, span, severity), sub);
  }

  private report(message: string, span: Span, severity: 'error' | 'warning'): void {
    if (this.sub || this.ctx.problems.length >= MAX_PROBLEMS) return;
    this.ctx.problems.push({ code: 'parse-error', severity, message, span: { start: span.start, end: Math.max(span.start, Math.min(span.end, this.src.length)) } });
  }

  private peek(): Token | undefined {
    if (!this.laSet) {
      this.la = this.lx.next();
      this.laSet = true;
    }
    return this.la;
  }

  private take(): Token | undefined {
    const t = this.peek();
    this.laSet = false;
    if (t?.k === 'array') this.arrays.push(t.a);
    return t;
  }

  private lit(w: Word): string | undefined {
    if (w.pieces.length !== 1) return undefined;
    const p = w.pieces[0];
    if (p.t !== 'lit' || p.quoted || p.src !== w.span.start || p.text.length !== w.span.end - w.span.start) return undefined;
    return p.text;
  }

  private isDead(): boolean {
    return this.deadCount > 0;
  }

  private setDead(f: Frame, v: boolean): void {
    if (f.dead !== v) {
      f.dead = v;
      this.deadCount += v ? 1 : -1;
    }
  }

  run(): void {
    let prev = '\n';
    let negate = false;
    for (;;) {
      const t = this.peek();
      if (!t) break;
      const top = this.frames[this.frames.length - 1];
      if (top?.kind === 'case' && top.pattern && !(t.k === 'op' && (t.op === '\n' || t.op === ';'))) {
        this.casePattern(top);
        prev = '\n';
        continue;
      }
      if (t.k === 'op') {
        this.take();
        if (t.op === '\n' || t.op === ';' || t.op === '&') {
          prev = '\n';
          negate = false;
        } else if (t.op === '&&' || t.op === '||') prev = t.op;
        else if (t.op === '|' || t.op === '|&') prev = '|';
        else if (t.op === ';;' || t.op === ';&' || t.op === ';;&') {
          const f = this.frames[this.frames.length - 1];
          if (f?.kind === 'case') {
            this.endArm(f);
            f.pattern = true;
          }
          prev = '\n';
        } else if (t.op === '(') {
          const n = this.peek();
          if (n?.k === 'op' && n.op === '(' && n.span.start === t.span.end) {
            this.take();
            this.arithCommand(t.span.start);
          } else if (prev === '&&' || prev === '||') this.conditionalGroup(prev, 'group', t.span.start);
          else this.push('group', t.span.start);
          prev = '\n';
        } else if (t.op === ')') this.popTo('group');
        continue;
      }
      if (t.k === 'redir') {
        this.take();
        continue;
      }
      if (t.k === 'word') {
        const kw = this.lit(t.w);
        if (kw && KEYWORDS.has(kw)) {
          this.take();
          if (kw === '!') negate = !negate;
          else if (kw === '{' && (prev === '&&' || prev === '||')) {
            this.conditionalGroup(prev, 'brace', t.w.span.start);
            prev = '\n';
          } else {
            this.keyword(kw, t.w);
            prev = '\n';
          }
          continue;
        }
      }
      const cmd = this.simpleCommand();
      if (cmd) this.runCommand(cmd, prev, negate);
      negate = false;
    }
    while (this.frames.length) this.closeFrame(this.frames.pop()!);
  }

  // ---- structure

  private push(kind: Frame['kind'], at: number): Frame | undefined {
    if (this.frames.length >= MAX_FRAMES) {
      this.overflow++;
      return undefined;
    }
    const f: Frame = { kind, line: this.ctx.lineOf(at), arm: false, dead: false, taken: undefined, decided: false, maybe: false, exhaustive: false, pattern: false, undo: new Map(), done: [] };
    this.frames.push(f);
    return f;
  }

  private popTo(kind: Frame['kind']): void {
    if (this.overflow > 0) {
      this.overflow--;
      return;
    }
    let i = this.frames.length - 1;
    while (i >= 0 && this.frames[i].kind !== kind) i--;
    if (i < 0) return;
    const closes = this.frames[i].closesAndor;
    while (this.frames.length > i) this.closeFrame(this.frames.pop()!);
    if (closes && this.frames[this.frames.length - 1]?.kind === 'andor') this.closeFrame(this.frames.pop()!);
    if (closes) this.status = undefined;
  }

  /** `cond && { …; }` / `cond || ( … )`: the group runs only when the list before it says so. */
  private conditionalGroup(prev: string, kind: 'brace' | 'group', at: number): void {
    const cond: Tri = prev === '&&' ? this.status : not(this.status);
    if (cond === true) {
      this.push(kind, at);
      return;
    }
    const a = this.push('andor', at);
    if (a) this.startArm(a, cond);
    const g = this.push(kind, at);
    if (g && a) g.closesAndor = true;
  }

  private nearest(kind: Frame['kind']): Frame | undefined {
    const f = this.frames[this.frames.length - 1];
    return f?.kind === kind ? f : undefined;
  }

  private startArm(f: Frame, cond: Tri): void {
    f.arm = true;
    if (f.decided || cond === false) {
      this.setDead(f, true);
      f.taken = false;
    } else if (cond === true) {
      this.setDead(f, false);
      f.taken = f.maybe ? undefined : true;
      f.decided = true;
      f.exhaustive = true;
    } else {
      this.setDead(f, false);
      f.taken = undefined;
      f.maybe = true;
    }
  }

  private endArm(f: Frame): void {
    if (!f.arm) return;
    const vals = new Map<string, Binding | undefined>();
    for (const name of f.undo.keys()) vals.set(name, this.env.get(name));
    for (const [name, b] of f.undo) {
      if (b) this.env.set(name, b);
      else this.env.delete(name);
    }
    f.done.push({ vals, taken: f.taken });
    f.undo = new Map();
    f.arm = false;
    this.setDead(f, false);
  }

  private closeFrame(f: Frame): void {
    this.endArm(f);
    this.setDead(f, false);
    if (f.kind !== 'if' && f.kind !== 'case' && f.kind !== 'andor') return;
    const live = f.done.filter((a) => a.taken !== false);
    const names = new Set<string>();
    for (const a of live) for (const n of a.vals.keys()) names.add(n);
    const sure = live.find((a) => a.taken === true);
    for (const name of names) {
      const pre = this.env.get(name);
      let result: Binding | undefined;
      if (sure) result = sure.vals.has(name) ? sure.vals.get(name) : pre;
      else {
        const cands = live.map((a) => (a.vals.has(name) ? a.vals.get(name) : pre));
        if (!f.exhaustive) cands.push(pre);
        if (cands.some((b) => b?.kind === 'array')) {
          const first = live.find((a) => a.vals.has(name));
          result = first ? first.vals.get(name) : pre;
        } else result = this.mergeScalars(name, cands, f);
      }
      this.setVar(name, result);
    }
  }

  private mergeScalars(name: string, cands: (Binding | undefined)[], f: Frame): Binding | undefined {
    const defined = cands.filter((b): b is Binding => !!b);
    if (!defined.length) return undefined;
    const latest = defined.reduce((x, y) => (y.nameSpan.start > x.nameSpan.start ? y : x));
    const first = defined[0];
    const text = textOf(first.segs);
    if (defined.every((b) => !unknownOf(b) && textOf(b.segs) === text)) {
      if (defined.every((b) => b === first)) return first;
      return { ...latest, target: undefined, defaultSpan: undefined };
    }
    const where = f.kind === 'andor' ? `is set only on some paths (line ${f.line})` : `is assigned differently in the branches of the \`${f.kind}\` on line ${f.line}`;
    return { ...latest, segs: [], unknown: `${name} ${where}`, target: undefined, defaultSpan: undefined };
  }

  private setVar(name: string, b: Binding | undefined): void {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const f = this.frames[i];
      if ((f.kind === 'if' || f.kind === 'case' || f.kind === 'andor') && f.arm) {
        if (!f.undo.has(name)) f.undo.set(name, this.env.get(name));
        break;
      }
    }
    if (b) this.env.set(name, b);
    else this.env.delete(name);
  }

  private keyword(kw: string, w: Word): void {
    switch (kw) {
      case 'if':
        this.push('if', w.span.start);
        this.status = undefined;
        return;
      case 'then': {
        const f = this.nearest('if');
        if (f && !f.arm) this.startArm(f, this.status);
        return;
      }
      case 'elif': {
        const f = this.nearest('if');
        if (!f) return;
        this.endArm(f);
        this.setDead(f, f.decided);
        this.status = undefined;
        return;
      }
      case 'else': {
        const f = this.nearest('if');
        if (!f) return;
        this.endArm(f);
        this.startArm(f, true);
        return;
      }
      case 'fi':
        this.popTo('if');
        return;
      case 'case': {
        const t = this.peek();
        let subject: string | undefined;
        if (t?.k === 'word') {
          this.take();
          const f = this.expandWord(t.w, this.mkTok(t.w, 'assign'), 'assign')[0];
          if (f && !f.segs.some((s) => s.unknown)) subject = f.text;
          const n = this.peek();
          if (n?.k === 'word' && this.lit(n.w) === 'in') this.take();
        }
        const f = this.push('case', w.span.start);
        if (f) {
          f.pattern = true;
          f.subject = subject;
        }
        return;
      }
      case 'esac':
        this.popTo('case');
        return;
      case 'for':
      case 'select': {
        const t = this.peek();
        if (t?.k === 'op' && t.op === '(') {
          this.take();
          const n = this.peek();
          if (n?.k === 'op' && n.op === '(') {
            this.take();
            this.arithCommand(t.span.start);
          }
        } else if (t?.k === 'word') {
          this.take();
          const name = this.lit(t.w);
          for (;;) {
            const n = this.peek();
            if (!n || n.k === 'op') break;
            this.take();
          }
          if (name && /^[A-Za-z_]\w*$/.test(name) && !this.isDead()) {
            const old = this.env.get(name);
            this.setVar(name, { kind: 'scalar', segs: [], items: [], unknown: `${name} is set by the \`${kw}\` loop on line ${this.ctx.lineOf(w.span.start)}`, exported: old?.exported ?? false, nameSpan: t.w.span, valueSpan: t.w.span });
          }
        }
        this.push('loop', w.span.start);
        return;
      }
      case 'while':
      case 'until':
        this.push('loop', w.span.start);
        return;
      case 'done':
        this.popTo('loop');
        return;
      case '{':
        this.push('brace', w.span.start);
        return;
      case '}':
        this.popTo('brace');
        return;
      case 'function': {
        const t = this.peek();
        if (t?.k === 'word') {
          this.take();
          const n = this.peek();
          if (n?.k === 'op' && n.op === '(') {
            this.take();
            const m = this.peek();
            if (m?.k === 'op' && m.op === ')') this.take();
          }
        }
        return;
      }
      default:
        return; // do, time, in: nothing to do
    }
  }

  private casePattern(f: Frame): void {
    let t = this.peek();
    if (t?.k === 'op' && t.op === '(') {
      this.take();
      t = this.peek();
    }
    if (t?.k === 'word' && this.lit(t.w) === 'esac') {
      this.take();
      this.popTo('case');
      return;
    }
    const pats: ({ text: string; glob: boolean } | undefined)[] = [];
    for (;;) {
      t = this.peek();
      if (!t) break;
      if (t.k === 'word') {
        this.take();
        const fl = this.expandWord(t.w, this.mkTok(t.w, 'assign'), 'assign')[0];
        const glob = t.w.pieces.some((p) => p.t === 'lit' && !p.quoted && /[*?[]/.test(p.text));
        pats.push(fl && !fl.segs.some((s) => s.unknown) ? { text: fl.text, glob } : undefined);
      } else if (t.k === 'op' && t.op === '|') this.take();
      else if (t.k === 'op' && t.op === ')') {
        this.take();
        break;
      } else {
        this.take();
        break;
      }
    }
    let match: Tri;
    if (pats.some((p) => p && p.glob && p.text === '*')) match = true;
    else if (f.subject === undefined || pats.some((p) => !p)) match = undefined;
    else match = pats.some((p) => (p!.glob ? globMatch(p!.text, f.subject!) : p!.text === f.subject));
    f.pattern = false;
    this.startArm(f, match);
  }

  /** `(( … ))`: not evaluated; what it assigns becomes unknown. */
  private arithCommand(at: number): void {
    const s = this.src;
    const from = this.lx.pos;
    const r = skipBalanced(s, from, this.lx.end, 'paren');
    let end = r.end;
    if (r.closed && s[end] === ')') end++;
    else if (!r.closed) this.report('This `((` is never closed. Close it with `))`.', { start: at, end: at + 2 }, 'error');
    this.lx.pos = end;
    this.laSet = false;
    if (this.isDead()) return;
    const body = s.slice(from, Math.max(from, r.end - 1));
    const re = /([A-Za-z_]\w*)\s*(?:\+\+|--|(?:[-+*/%&|^]|<<|>>)?=(?!=))|(?:\+\+|--)\s*([A-Za-z_]\w*)/g;
    let m: RegExpExecArray | null;
    let n = 0;
    while ((m = re.exec(body)) && n++ < 100) {
      const name = m[1] ?? m[2];
      const old = this.env.get(name);
      const span = { start: from + m.index, end: from + m.index + name.length };
      this.setVar(name, { kind: 'scalar', segs: [], items: [], unknown: `${name} is changed by the arithmetic command on line ${this.ctx.lineOf(at)}`, exported: old?.exported ?? false, nameSpan: span, valueSpan: span });
    }
  }

  private simpleCommand(): Cmd | undefined {
    const first = this.peek();
    if (first?.k === 'word' && this.lit(first.w) === '[[') {
      this.take();
      const parts: (Word | string)[] = [];
      let end = first.w.span.end;
      for (;;) {
        const t = this.peek();
        if (!t || (t.k === 'op' && (t.op === '\n' || t.op === ';'))) break;
        this.take();
        if (t.k === 'word' && this.lit(t.w) === ']]') {
          end = t.w.span.end;
          break;
        }
        if (t.k === 'word') parts.push(t.w);
        else if (t.k === 'op') parts.push(t.op);
      }
      const span = { start: first.w.span.start, end };
      return { words: [], span, block: { kind: 'command', span, insertable: false }, test2: parts };
    }
    const words: (Word | ArrayLit)[] = [];
    const heredocs: HereDoc[] = [];
    for (;;) {
      const t = this.peek();
      if (!t || t.k === 'op') break;
      this.take();
      if (t.k === 'word') words.push(t.w);
      else if (t.k === 'array') words.push(t.a);
      else if (t.hd) heredocs.push(t.hd);
    }
    // Reading the end of the line also reads the here-document bodies.
    this.peek();
    if (!words.length) return undefined;
    if (words.length === 1 && words[0].kind === 'word') {
      const t = this.peek();
      if (t?.k === 'op' && t.op === '(') {
        // name() { … }: a function definition; its body is read where it stands.
        this.take();
        const u = this.peek();
        if (u?.k === 'op' && u.op === ')') this.take();
        return undefined;
      }
    }
    const span = { start: words[0].span.start, end: words[words.length - 1].span.end };
    return { words, span, block: { kind: 'command', span, insertable: !this.sub }, heredocs: heredocs.length ? heredocs : undefined };
  }

  private runCommand(cmd: Cmd, prev: string, negate: boolean): void {
    const cond: Tri = prev === '&&' ? this.status : prev === '||' ? not(this.status) : true;
    if (cond === false || this.isDead()) return;
    let frame: Frame | undefined;
    if (cond === undefined) {
      frame = this.push('andor', cmd.span.start);
      if (frame) this.startArm(frame, undefined);
    }
    const r = this.execute(cmd);
    const st = negate ? not(r) : r;
    if (frame) this.popTo('andor');
    if (prev === '&&') this.status = and3(this.status, st);
    else if (prev === '||') this.status = or3(this.status, st);
    else this.status = st;
  }

  // ---- commands

  private isAssign(w: Word | ArrayLit): boolean {
    if (w.kind === 'array') return true;
    const p = w.pieces[0];
    return !!p && p.t === 'lit' && !p.quoted && p.src === w.span.start && /^[A-Za-z_]\w*(\[[^\]]*\])?\+?=/.test(p.text);
  }

  private execute(cmd: Cmd): Tri {
    if (cmd.test2) return this.test2(cmd.test2);
    const words = cmd.words;
    let i = 0;
    while (i < words.length && this.isAssign(words[i])) i++;
    const rest = words.slice(i);
    if (!rest.length) {
      for (const a of words) this.assign(a, false);
      return true;
    }
    const head = rest[0].kind === 'word' ? this.lit(rest[0]) : undefined;
    switch (head) {
      case 'export':
      case 'declare':
      case 'typeset':
      case 'local':
      case 'readonly':
        return this.declare(head, rest.slice(1));
      case 'unset':
        for (const w of rest.slice(1)) {
          const n = w.kind === 'word' ? this.lit(w) : undefined;
          if (n && /^[A-Za-z_]\w*$/.test(n)) this.setVar(n, undefined);
        }
        return true;
      case 'read': {
        let skipNext = false;
        for (const w of rest.slice(1)) {
          const n = w.kind === 'word' ? this.lit(w) : undefined;
          if (skipNext) {
            skipNext = false;
            continue;
          }
          if (n && /^-[ptdnNui]$/.test(n)) skipNext = true;
          else if (n && /^[A-Za-z_]\w*$/.test(n)) {
            const old = this.env.get(n);
            this.setVar(n, { kind: 'scalar', segs: [], items: [], unknown: `${n} is set by \`read\` when the script runs`, exported: old?.exported ?? false, nameSpan: w.span, valueSpan: w.span });
          }
        }
        return undefined;
      }
      case '[':
      case 'test': {
        const items = rest.slice(1).filter((w): w is Word => w.kind === 'word');
        if (head === '[' && items.length && this.lit(items[items.length - 1]) === ']') items.pop();
        return this.testWords(items.map((w) => w as Word | string));
      }
      case 'false':
        return false;
      default: {
        const fields = this.expandAll(rest, cmd.block);
        if (head === 'true' || head === ':') return true;
        if (i === 0) {
          this.detectTraining(fields, cmd);
          return undefined;
        }
        // `VAR=1 cmd`: the command (and its children) see VAR, exported, for this command only.
        const saved = new Map<string, Binding | undefined>();
        const frames = this.frames;
        this.frames = [];
        try {
          for (const a of words.slice(0, i)) {
            const name = a.kind === 'word' ? /^([A-Za-z_]\w*)/.exec((a.pieces[0] as Extract<Piece, { t: 'lit' }>).text)?.[1] : undefined;
            if (name && !saved.has(name)) saved.set(name, this.env.get(name));
            this.assign(a, true);
          }
          this.detectTraining(fields, cmd);
        } finally {
          for (const [name, b] of saved) {
            if (b) this.env.set(name, b);
            else this.env.delete(name);
          }
          this.frames = frames;
        }
        return undefined;
      }
    }
  }

  private declare(head: string, args: (Word | ArrayLit)[]): Tri {
    let exported = head === 'export';
    for (const a of args) {
      if (a.kind === 'array') {
        this.assign(a, exported);
        continue;
      }
      const t = this.lit(a);
      if (t !== undefined && /^[-+][A-Za-z]+$/.test(t)) {
        if (t.startsWith('-') && t.includes('x')) exported = true;
        if (t === '-n' && head === 'export') exported = false;
        continue;
      }
      if (this.isAssign(a)) {
        this.assign(a, exported);
        continue;
      }
      if (t && /^[A-Za-z_]\w*$/.test(t) && exported) {
        const b = this.env.get(t);
        if (b && !b.exported) this.setVar(t, { ...b, exported: true });
      }
    }
    return true;
  }

  private assign(a: Word | ArrayLit, exported: boolean): void {
    if (a.kind === 'array') {
      this.assignArray(a, exported);
      return;
    }
    const first = a.pieces[0] as Extract<Piece, { t: 'lit' }>;
    const m = /^([A-Za-z_]\w*)(\[([^\]]*)\])?(\+?)=/.exec(first.text)!;
    const name = m[1];
    const append = m[4] === '+';
    const eqEnd = first.src! + m[0].length;
    const nameSpan = { start: first.src!, end: first.src! + name.length };
    const pieces: Piece[] = [];
    const restText = first.text.slice(m[0].length);
    const oldUnit = first.unit;
    const unit: Unit = { span: { start: eqEnd, end: oldUnit.span.end }, content: { start: eqEnd, end: oldUnit.span.end }, quote: oldUnit.quote };
    if (restText) pieces.push({ ...first, text: restText, src: eqEnd, span: { start: eqEnd, end: first.span.end }, unit });
    for (const p of a.pieces.slice(1)) pieces.push(p.t === 'lit' && p.unit === oldUnit ? { ...p, unit } : p);
    const value: Word = { kind: 'word', span: { start: eqEnd, end: a.span.end }, pieces };
    const tok = this.mkTok(value, 'assign');
    const f = this.expandWord(value, tok, 'assign')[0] ?? { text: '', segs: [], outer: tok };
    const old = this.env.get(name);
    if (m[2] !== undefined) {
      // NAME[i]=value: one element.
      const idx = /^\s*\d+\s*$/.test(m[3]) ? Number(m[3]) : -1;
      const items = old ? (old.kind === 'array' ? [...old.items] : [old.segs]) : [];
      if (idx < 0 || idx > MAX_ITEMS) {
        this.setVar(name, { kind: 'array', segs: [], items, unknown: `an element of ${name} is chosen when the script runs`, exported: exported || !!old?.exported, nameSpan, valueSpan: value.span });
        return;
      }
      while (items.length < idx) items.push([]);
      items[idx] = f.segs;
      this.setVar(name, { kind: 'array', segs: [], items, exported: exported || !!old?.exported, nameSpan, valueSpan: value.span });
      return;
    }
    let segs = f.segs;
    let target: Target | undefined;
    let defaultSpan: Span | undefined;
    if (append && old) {
      if (old.kind === 'array') {
        const items = [...old.items];
        items[0] = [...(items[0] ?? []), ...f.segs];
        this.setVar(name, { ...old, items, exported: exported || old.exported, nameSpan, valueSpan: value.span });
        return;
      }
      segs = [...old.segs, ...f.segs];
    } else {
      target = value.pieces.length === 0 ? { span: { start: eqEnd, end: eqEnd }, quote: 'none', wrap: true } : locateRange(f, 0, f.text.length).target;
      if (f.segs.length === 1) defaultSpan = f.segs[0].defaultSpan;
    }
    // A value with unknown parts keeps them (as written) so that splitting it still finds its known words.
    let unknown = (append && old?.unknown) || undefined;
    if (textOf(segs).length > MAX_VALUE) {
      unknown = `${name} is longer than this reader keeps`;
      segs = [];
    }
    this.setVar(name, { kind: 'scalar', segs, items: [], unknown, target, defaultSpan, exported: exported || !!old?.exported, nameSpan, valueSpan: value.span });
  }

  private assignArray(a: ArrayLit, exported: boolean): void {
    const items: Seg[][] = [];
    for (const w of a.items) {
      const tok = this.mkTok(w, 'arg', a.block);
      for (const f of this.expandWord(w, tok, 'args')) {
        if (items.length >= MAX_ITEMS) break;
        items.push(f.segs);
      }
    }
    const old = this.env.get(a.name);
    const valueSpan = { start: a.open.end - 1, end: a.close?.end ?? a.span.end };
    if (a.index !== undefined) return; // A[i]=( … ) is not valid bash
    let all = items;
    if (a.append && old) {
      const before = old.kind === 'array' ? old.items : [old.segs];
      all = before.length >= MAX_ITEMS ? before : before.concat(items.slice(0, MAX_ITEMS - before.length));
    }
    this.setVar(a.name, { kind: 'array', segs: [], items: all, exported: exported || !!old?.exported, nameSpan: a.nameSpan, valueSpan, unknown: a.append && old?.unknown ? old.unknown : undefined });
  }

  // ---- tests

  private testItem(w: Word): { text: string; known: boolean; glob: boolean } {
    const f = this.expandWord(w, this.mkTok(w, 'assign'), 'assign')[0];
    const glob = w.pieces.some((p) => p.t === 'lit' && !p.quoted && /[*?[]/.test(p.text));
    if (!f) return { text: '', known: true, glob };
    return { text: f.text, known: !f.segs.some((s) => s.unknown), glob };
  }

  private test2(parts: (Word | string)[]): Tri {
    return this.testWords(parts, true);
  }

  /** A `[`/`[[`/`test` expression over words, with `&&`/`||` (and `-a`/`-o`) between comparisons. */
  private testWords(parts: (Word | string)[], double = false): Tri {
    const groups: { op: string; items: (Word | string)[] }[] = [{ op: '', items: [] }];
    for (const p of parts) {
      const t = typeof p === 'string' ? p : this.lit(p);
      if (t === '&&' || t === '||' || (!double && (t === '-a' || t === '-o'))) groups.push({ op: t === '-a' ? '&&' : t === '-o' ? '||' : t, items: [] });
      else groups[groups.length - 1].items.push(p);
    }
    let result: Tri;
    groups.forEach((g, i) => {
      const r = this.testOne(g.items, double);
      result = i === 0 ? r : g.op === '&&' ? and3(result, r) : or3(result, r);
    });
    return result;
  }

  private testOne(items: (Word | string)[], double: boolean): Tri {
    if (items.some((i) => typeof i === 'string')) return undefined;
    const words = items as Word[];
    if (words.length && this.lit(words[0]) === '!') return not(this.testOne(words.slice(1), double));
    const v = words.map((w) => this.testItem(w));
    if (v.length === 0) return false;
    if (v.length === 1) return v[0].known ? v[0].text !== '' : undefined;
    if (v.length === 2) {
      const op = this.lit(words[0]);
      if (!v[1].known) return undefined;
      if (op === '-z') return v[1].text === '';
      if (op === '-n') return v[1].text !== '';
      return undefined;
    }
    if (v.length === 3) {
      const op = this.lit(words[1]);
      const [l, , r] = v;
      if (!l.known || !r.known) return undefined;
      switch (op) {
        case '=':
        case '==':
          return double && r.glob ? globMatch(r.text, l.text) : l.text === r.text;
        case '!=':
          return !(double && r.glob ? globMatch(r.text, l.text) : l.text === r.text);
        case '-eq':
        case '-ne':
        case '-lt':
        case '-le':
        case '-gt':
        case '-ge': {
          if (!/^\s*-?\d+\s*$/.test(l.text) || !/^\s*-?\d+\s*$/.test(r.text)) return undefined;
          const a = Number(l.text);
          const b = Number(r.text);
          return op === '-eq' ? a === b : op === '-ne' ? a !== b : op === '-lt' ? a < b : op === '-le' ? a <= b : op === '-gt' ? a > b : a >= b;
        }
        default:
          return undefined;
      }
    }
    return undefined;
  }

  // ---- expansion

  private mkTok(w: Word, role: Tok['role'], block?: Block): Tok {
    const firstLit = w.pieces.find((p) => p.t === 'lit') as Extract<Piece, { t: 'lit' }> | undefined;
    return { span: w.span, block, role, literal: w.pieces.every((p) => p.t === 'lit'), quote: firstLit?.unit.quote ?? 'none' };
  }

  private expandAll(words: (Word | ArrayLit)[], block: Block): Field[] {
    const out: Field[] = [];
    for (const w of words) if (w.kind === 'word') out.push(...this.expandWord(w, this.mkTok(w, 'arg', block), 'args'));
    return out;
  }

  private expandWord(w: Word, tok: Tok, mode: 'args' | 'assign'): Field[] {
    this.ctx.work += w.pieces.length + 1;
    if (this.ctx.work > WORK_BUDGET) {
      const seg: Seg = { text: this.src.slice(w.span.start, w.span.end), span: w.span, tok, quoted: true, unknown: 'the script is too large to expand every word', ref: null };
      return [{ text: seg.text, segs: [seg], outer: tok }];
    }
    const out: (Seg | null)[] = [];
    for (const p of w.pieces) this.expandPiece(p, w, tok, mode, out);
    this.ctx.work += out.length;
    let fields: Field[];
    if (mode === 'assign') {
      const segs = out.filter((s): s is Seg => s !== null);
      fields = [{ text: textOf(segs), segs, outer: tok }];
    } else fields = splitFields(out, tok);
    if (tok.single === undefined) {
      tok.single = fields.length === 1;
      tok.value = fields.length === 1 ? fields[0].text : undefined;
    }
    return fields;
  }

  private expandPiece(p: Piece, w: Word, tok: Tok, mode: 'args' | 'assign', out: (Seg | null)[]): void {
    const refSpan = w.pieces.length === 1 ? tok.span : p.span;
    switch (p.t) {
      case 'lit':
        out.push({ text: p.text, src: p.src, ctx: p.unit, span: p.span, tok, quoted: p.quoted || mode === 'assign' });
        return;
      case 'cmd': {
        const raw = this.src.slice(p.span.start, p.span.end);
        out.push({ text: this.src.slice(refSpan.start, refSpan.end), span: refSpan, tok, quoted: true, unknown: `set by the command \`${short(raw)}\` when the script runs`, ref: null });
        return;
      }
      case 'arith': {
        const r = p.bad ? { unknown: 'the arithmetic is never closed' } : this.arith(p.expr);
        out.push({ text: r.value !== undefined ? String(r.value) : this.src.slice(refSpan.start, refSpan.end), span: refSpan, tok, quoted: true, unknown: r.unknown, ref: null });
        return;
      }
      case 'param':
        this.expandParam(p, tok, mode, out, refSpan);
        return;
    }
  }

  private expandParam(p: Extract<Piece, { t: 'param' }>, tok: Tok, mode: 'args' | 'assign', out: (Seg | null)[], refSpan: Span): void {
    const quoted = p.quoted || mode === 'assign';
    const raw = this.src.slice(refSpan.start, refSpan.end);
    const unknownSeg = (reason: string, passthrough = false): Seg => ({ text: raw, span: refSpan, tok, quoted: true, unknown: reason, ref: null, passthrough: passthrough || undefined });
    const pass = (reason: string): void => {
      out.push(null, unknownSeg(reason, true), null);
    };
    if (p.bad) {
      out.push(unknownSeg(p.bad));
      return;
    }
    const name = p.name;
    if (name === '@' || name === '*') {
      if (mode === 'assign') out.push(unknownSeg(`the script's arguments ($${name})`));
      else pass(`the script's own arguments ($${name}) are passed through here`);
      return;
    }
    if ('#?$!-'.includes(name)) {
      out.push(unknownSeg(`$${name} is set by the shell when the script runs`));
      return;
    }
    const positional = /^\d+$/.test(name);
    const b = positional ? undefined : this.env.get(name);
    const unsetReason = positional ? argReason(name) : envReason(name);
    if (name === 'RANDOM' || name === 'SRANDOM') {
      out.push(unknownSeg(envReason(name)));
      return;
    }
    const all = p.index === '@' || p.index === '*';
    if (p.length) {
      if (!b || b.unknown) out.push(unknownSeg(b?.unknown ?? unsetReason));
      else {
        const n = all ? (b.kind === 'array' ? b.items.length : 1) : textOf(b.kind === 'array' ? (b.items[0] ?? []) : b.segs).length;
        out.push({ text: String(n), span: refSpan, tok, quoted: true, ref: null });
      }
      return;
    }
    if (p.indirect) {
      out.push(unknownSeg(`\${!${name}} names another variable; it is not followed here`));
      return;
    }
    if (p.index !== undefined && !all && !/^\s*\d+\s*$/.test(p.index)) {
      out.push(unknownSeg(`the element of ${name} is chosen when the script runs`));
      return;
    }
    const op = p.op;
    const emptyish = (x: Binding): boolean => (x.kind === 'scalar' ? textOf(x.segs) === '' : x.items.length === 0);
    if (op === ':-' || op === '-' || op === ':=' || op === '=') {
      if (b?.unknown) {
        out.push(unknownSeg(b.unknown));
        return;
      }
      // `${SLURM_NNODES:-1}`: the scheduler sets it when the job runs, so the default is only a
      // fallback for running outside it, not the value the job gets.
      if (!b && SCHEDULER_VAR.test(name)) {
        out.push(unknownSeg(`${name} is set by the scheduler when the job runs (the script's default is only for running outside it)`));
        return;
      }
      const useDefault = !b || (op.startsWith(':') && emptyish(b));
      if (!useDefault) {
        this.expandBinding(b!, p, name, tok, mode, quoted, out, refSpan, unknownSeg);
        return;
      }
      const argTok = this.mkTok(p.arg!, 'default');
      const f = this.expandWord(p.arg!, argTok, 'assign')[0];
      const loc = locateRange(f, 0, f.text.length);
      const target = p.arg!.pieces.length === 0 ? { span: { start: p.arg!.span.start, end: p.arg!.span.start }, quote: 'none' as Quote, wrap: true } : loc.target;
      if ((op === ':=' || op === '=') && !positional && !this.isDead()) {
        this.setVar(name, { kind: 'scalar', segs: f.segs, items: [], target, defaultSpan: p.arg!.span, exported: !!b?.exported, nameSpan: p.span, valueSpan: p.arg!.span });
      }
      if (!quoted && IFS.test(f.text)) {
        for (const s of f.segs) out.push({ ...s, quoted: !!s.unknown });
        return;
      }
      out.push({ text: f.text, span: refSpan, tok, quoted, unknown: loc.unknown, ref: target ?? null, defaultSpan: p.arg!.span });
      return;
    }
    if (op === ':+' || op === '+') {
      if (b?.unknown) {
        out.push(unknownSeg(b.unknown));
        return;
      }
      const set = !!b && (op === '+' || !emptyish(b));
      if (!b && positional) {
        out.push(unknownSeg(unsetReason));
        return;
      }
      if (set) {
        const f = this.expandWord(p.arg!, this.mkTok(p.arg!, 'default'), 'assign')[0];
        if (!quoted && IFS.test(f.text)) for (const s of f.segs) out.push({ ...s, quoted: !!s.unknown });
        else out.push({ text: f.text, span: refSpan, tok, quoted, unknown: f.segs.find((s) => s.unknown)?.unknown, ref: null });
      } else if (p.quoted) out.push({ text: '', span: refSpan, tok, quoted: true, ref: null });
      return;
    }
    if ((op === ':?' || op === '?') && !b) {
      out.push(unknownSeg(`${positional ? `$${name}` : name} must be given when the script runs`));
      return;
    }
    if (op === 'other') {
      out.push(unknownSeg(`\${${name}…} transforms ${positional ? `$${name}` : name}; the result is not worked out here`));
      return;
    }
    if (!b) {
      if (all || (!quoted && mode === 'args' && PASS_NAMES.test(name))) pass(positional ? unsetReason : `${name} is not set in this script`);
      else out.push(unknownSeg(unsetReason));
      return;
    }
    this.expandBinding(b, p, name, tok, mode, quoted, out, refSpan, unknownSeg);
  }

  private expandBinding(b: Binding, p: Extract<Piece, { t: 'param' }>, name: string, tok: Tok, mode: 'args' | 'assign', quoted: boolean, out: (Seg | null)[], refSpan: Span, unknownSeg: (reason: string, passthrough?: boolean) => Seg): void {
    if (b.unknown) {
      if (p.index === '@' && mode === 'args') out.push(null, unknownSeg(b.unknown, true), null);
      else out.push(unknownSeg(b.unknown));
      return;
    }
    const all = p.index === '@' || p.index === '*';
    const splice = (s: Seg): Seg => (s.detached ? { ...s, quoted: quoted || !!s.unknown, span: refSpan, tok, detached: undefined } : { ...s, quoted: quoted || !!s.unknown });
    if (all) {
      const items = b.kind === 'array' ? b.items : [b.segs];
      if (p.index === '@' && mode === 'args') {
        items.forEach((item, k) => {
          if (k > 0) out.push(null);
          for (const s of item) out.push(splice(s));
        });
      } else {
        items.forEach((item, k) => {
          if (k > 0) out.push({ text: ' ', span: p.span, tok, quoted, ref: undefined });
          for (const s of item) out.push(splice(s));
        });
      }
      return;
    }
    const idx = p.index !== undefined ? Number(p.index.trim()) : 0;
    const segs = b.kind === 'array' ? (b.items[idx] ?? []) : idx === 0 ? b.segs : [];
    const text = textOf(segs);
    if (segs.some((s) => !s.unknown && IFS.test(s.text))) {
      // Several words' worth of text keeps its pieces (and where they are written), split here or not.
      for (const s of segs) out.push(splice(s));
      return;
    }
    const unknown = segs.find((s) => s.unknown)?.unknown;
    if (unknown) {
      out.push(unknownSeg(unknown));
      return;
    }
    const ref = b.kind === 'scalar' && b.target ? { ...b.target, via: b.target.via ?? name } : null;
    out.push({ text, span: refSpan, tok, quoted, ref, defaultSpan: b.kind === 'scalar' ? b.defaultSpan : undefined });
  }

  /** Integer arithmetic as bash does it, for the operators launch scripts use. */
  private arith(expr: string, depth = 0): { value?: number; unknown?: string } {
    if (depth > 8 || expr.length > 10_000) return { unknown: 'the arithmetic is too complex to work out here' };
    type T = number | string | { v: string; def?: string };
    const toks: T[] = [];
    const re = /\s*(?:(0[xX][0-9a-fA-F]+|[0-9]+)|\$\{([A-Za-z_]\w*)(?::?-([^}]*))?\}|\$([A-Za-z_]\w*|[0-9])|([A-Za-z_]\w*)|(\*\*|[-+*/%()]))/y;
    let i = 0;
    while (i < expr.length) {
      while (i < expr.length && /\s/.test(expr[i])) i++;
      if (i >= expr.length) break;
      re.lastIndex = i;
      const m = re.exec(expr);
      if (!m) return { unknown: `the arithmetic \`${short(expr)}\` uses operators this reader does not evaluate` };
      i = re.lastIndex;
      if (m[1] !== undefined) {
        const t = m[1];
        if (/^0[xX]/.test(t)) toks.push(parseInt(t, 16));
        else if (/^0[0-7]+$/.test(t)) toks.push(parseInt(t, 8));
        else if (/^0\d/.test(t)) return { unknown: `\`${t}\` is not a valid number in bash arithmetic` };
        else toks.push(Number(t));
      } else if (m[2] !== undefined) toks.push({ v: m[2], def: m[3] });
      else if (m[4] !== undefined) toks.push({ v: m[4] });
      else if (m[5] !== undefined) toks.push({ v: m[5] });
      else toks.push(m[6]);
    }
    let k = 0;
    let d = 0;
    let unknown: string | undefined;
    const fail = (why: string): undefined => {
      unknown ??= why;
      return undefined;
    };
    const val = (t: { v: string; def?: string }): number | undefined => {
      if (/^\d$/.test(t.v)) return fail(argReason(t.v));
      const b = this.env.get(t.v);
      let text: string;
      if (!b) {
        if (t.def === undefined) return fail(envReason(t.v));
        text = t.def;
      } else {
        if (b.unknown) return fail(b.unknown);
        text = textOf(b.kind === 'array' ? (b.items[0] ?? []) : b.segs).trim();
        if (b.kind === 'scalar' && b.segs.some((s) => s.unknown)) return fail(b.segs.find((s) => s.unknown)!.unknown!);
      }
      if (text === '') return 0;
      if (/^[+-]?\d+$/.test(text)) return Number(text);
      const r = this.arith(text, depth + 1);
      return r.unknown ? fail(r.unknown) : r.value;
    };
    const num = (a: number | undefined, b: number | undefined, f: (x: number, y: number) => number | undefined): number | undefined => (a === undefined || b === undefined ? undefined : f(a, b));
    const primary = (): number | undefined => {
      const t = toks[k++];
      if (typeof t === 'number') return t;
      if (t && typeof t === 'object') return val(t);
      if (t === '(') {
        if (++d > 200) return fail('the arithmetic nests too deeply');
        const v = sum();
        d--;
        if (toks[k] !== ')') return fail(`the arithmetic \`${short(expr)}\` has unbalanced parentheses`);
        k++;
        return v;
      }
      return fail(`the arithmetic \`${short(expr)}\` could not be read`);
    };
    const unary = (): number | undefined => {
      const t = toks[k];
      if (t === '-' || t === '+') {
        k++;
        if (++d > 200) return fail('the arithmetic nests too deeply');
        const v = unary();
        d--;
        return v === undefined ? undefined : t === '-' ? -v : v;
      }
      return primary();
    };
    const power = (): number | undefined => {
      const base = unary();
      if (toks[k] === '**') {
        k++;
        if (++d > 200) return fail('the arithmetic nests too deeply');
        const e = power();
        d--;
        return num(base, e, (x, y) => (y < 0 ? fail('a negative exponent') : x ** y));
      }
      return base;
    };
    const product = (): number | undefined => {
      let v = power();
      while (toks[k] === '*' || toks[k] === '/' || toks[k] === '%') {
        const op = toks[k++];
        const r = power();
        v = num(v, r, (x, y) => {
          if (op === '*') return x * y;
          if (y === 0) return fail('the arithmetic divides by zero');
          return op === '/' ? Math.trunc(x / y) : x % y;
        });
      }
      return v;
    };
    const sum = (): number | undefined => {
      let v = product();
      while (toks[k] === '+' || toks[k] === '-') {
        const op = toks[k++];
        const r = product();
        v = num(v, r, (x, y) => (op === '+' ? x + y : x - y));
      }
      return v;
    };
    if (!toks.length) return { value: 0 };
    const v = sum();
    if (unknown) return { unknown };
    if (k < toks.length) return { unknown: `the arithmetic \`${short(expr)}\` could not be read` };
    if (v === undefined || !Number.isSafeInteger(v)) return { unknown: 'the arithmetic result is out of range' };
    return { value: v === 0 ? 0 : v };
  }

  // ---- the training command

  private detectTraining(fields: Field[], cmd: Cmd): void {
    if (!fields.length) return;
    const names = fields.map((f) => (f.segs.some((s) => s.unknown) ? '' : baseName(f.text)));
    // The entry point: a `.py` word whose end is known (`$MEGATRON/pretrain_gpt.py` counts).
    const isEntry = (f: Field): boolean => {
      const last = [...f.segs].reverse().find((s) => s.text !== '');
      return !f.passthrough && !!last && !last.unknown && /\.py$/.test(f.text) && !f.text.startsWith('-');
    };
    const found = (p: number, q: number): void => {
      const launcherFields = fields.slice(p, q);
      this.training = { launcher: this.launchers(launcherFields), launcherFields, entry: fields[q], args: fields.slice(q + 1), block: cmd.block, lastEnd: cmd.span.end, env: new Map(this.env), prefix: names.slice(0, p), inLoop: this.frames.some((f) => f.kind === 'loop') };
    };
    const p = names.findIndex((n) => LAUNCHER_NAME.test(n));
    if (p >= 0) {
      for (let q = p + 1; q < fields.length; q++) {
        if (isEntry(fields[q])) {
          found(p, q);
          return;
        }
      }
    } else if (fields.length > 1 && fields[0].segs.some((s) => s.unknown) && !fields[0].passthrough && isEntry(fields[1])) {
      // `$LAUNCHER train.py …` with the launcher from outside the script.
      found(0, 1);
      return;
    }
    for (let k = 0; k + 2 < fields.length; k++) {
      if (!/^(ba|da|z|k)?sh$/.test(names[k])) continue;
      let j = k + 1;
      while (j < fields.length && /^[-+][A-Za-z]+$/.test(fields[j].text) && !/^-[A-Za-z]*c$/.test(fields[j].text)) j++;
      if (j + 1 < fields.length && /^-[A-Za-z]*c$/.test(fields[j].text)) {
        this.fromString(fields[j + 1], p >= 0 && p < k ? fields.slice(p, k) : [], cmd);
        return;
      }
    }
    if (names[0] === 'eval' && fields.length === 2) this.fromString(fields[1], [], cmd);
    if (cmd.heredocs && /^(sbatch|(ba|da|z|k)?sh)$/.test(names[0] ?? '')) {
      // `sbatch <<EOF … EOF` / `bash <<EOF`: the here-document is the script that runs.
      for (const hd of cmd.heredocs) {
        if (!hd.body) continue;
        const w = new Lexer(this.src, hd.body.start, hd.body.end, () => undefined, true).readHeredoc(hd.quoted);
        const f = this.expandWord(w, this.mkTok(w, 'assign'), 'assign')[0];
        if (f) this.fromString(f, [], cmd);
        if (this.training?.block === cmd.block || (this.training && this.training.lastEnd === cmd.span.end)) return;
      }
    }
  }

  /** `bash -c "…"` / `eval "…"`: the text is read again as a script, as the inner shell reads it. */
  private fromString(f: Field, outerLaunchers: Field[], cmd: Cmd): void {
    // Unknown parts keep their text as written (`$SLURM_PROCID`, `$(hostname)`), which reads back as the same unknowns.
    if (this.ctx.depth >= MAX_SUBSCRIPT_DEPTH || f.text.length > MAX_VALUE) return;
    const outerStart = locateRange(f, 0, f.text.length).span.start;
    // The inner shell sees the variables' values, not where they are written in this script.
    const env: Env = new Map();
    for (const [name, b] of this.env) env.set(name, detach(b));
    const inner = new Script(f.text, 0, f.text.length, { problems: [], work: this.ctx.work, depth: this.ctx.depth + 1, lineOf: () => this.ctx.lineOf(outerStart) }, env, true);
    inner.run();
    this.ctx.work = Math.max(this.ctx.work, inner.ctx.work);
    const t = inner.training;
    if (!t) return;
    const block: Block = { kind: 'command', span: locateRange(f, 0, f.text.length).span, insertable: false };
    const toks = new Map<Tok, Tok>();
    const mapSpan = (s: Span): Span => (s.start === s.end ? this.mapPoint(f, s.start) : locateRange(f, s.start, s.end).span);
    const mapTok = (tk: Tok | undefined): Tok | undefined => {
      if (!tk) return undefined;
      let m = toks.get(tk);
      if (!m) {
        m = { span: mapSpan(tk.span), block, role: tk.role, literal: false, quote: 'none', value: tk.value, single: tk.single };
        toks.set(tk, m);
      }
      return m;
    };
    const mapTarget = (tg: Target | null | undefined): Target | null | undefined => {
      if (!tg) return tg;
      const loc = locateRange(f, tg.span.start, tg.span.end);
      return loc.exactSpan && loc.ctx && tg.span.end > tg.span.start ? { span: loc.exactSpan, quote: loc.ctx.quote, wrap: false, via: tg.via } : null;
    };
    const mapSeg = (s: Seg): Seg => {
      if (s.src !== undefined && s.text.length) {
        const loc = locateRange(f, s.src, s.src + s.text.length);
        if (loc.exactSpan && loc.ctx && !loc.ref) return { ...s, src: loc.exactSpan.start, ctx: loc.ctx, nested: true, span: loc.exactSpan, tok: mapTok(s.tok), ref: s.ref === undefined ? undefined : mapTarget(s.ref) };
        if (loc.ref) return { ...s, src: undefined, ctx: undefined, span: loc.span, tok: mapTok(s.tok), ref: loc.target ?? null, unknown: s.unknown ?? loc.unknown };
        return { ...s, src: undefined, ctx: undefined, span: loc.span, tok: mapTok(s.tok), ref: s.ref === undefined ? undefined : null };
      }
      return { ...s, src: undefined, ctx: undefined, span: mapSpan(s.span), tok: mapTok(s.tok), ref: s.ref === undefined ? undefined : mapTarget(s.ref), defaultSpan: s.defaultSpan && mapSpan(s.defaultSpan) };
    };
    const mapField = (x: Field): Field => ({ ...x, segs: x.segs.map(mapSeg), outer: mapTok(x.outer)! });
    const mapLauncher = (l: Launcher | undefined): Launcher | undefined => {
      if (!l) return undefined;
      const args = new Map<string, LauncherArg>();
      for (const [k, v] of l.args) args.set(k, { ...v, span: mapSpan(v.span), keySpan: mapSpan(v.keySpan) });
      return { kind: l.kind, args, span: mapSpan(l.span), inner: mapLauncher(l.inner) };
    };
    let launcher = mapLauncher(t.launcher);
    if (outerLaunchers.length) {
      const outer = this.launchers(outerLaunchers);
      if (outer) {
        let last = outer;
        while (last.inner) last = last.inner;
        last.inner = launcher;
        launcher = outer;
      }
    }
    this.training = {
      launcher,
      launcherFields: [...outerLaunchers, ...t.launcherFields.map(mapField)],
      entry: mapField(t.entry),
      args: t.args.map(mapField),
      block,
      lastEnd: cmd.span.end,
      env: new Map(this.env),
      prefix: t.prefix,
      inLoop: t.inLoop || this.frames.some((f) => f.kind === 'loop'),
    };
  }

  private mapPoint(f: Field, at: number): Span {
    let off = 0;
    for (const s of f.segs) {
      const end = off + s.text.length;
      if (at >= off && at <= end) {
        const p = s.src !== undefined ? s.src + (at - off) : at === off ? s.span.start : s.span.end;
        return { start: p, end: p };
      }
      off = end;
    }
    const p = f.outer.span.end;
    return { start: p, end: p };
  }

  private launchers(fields: Field[]): Launcher | undefined {
    const starts: number[] = [];
    fields.forEach((f, i) => {
      if (!f.segs.some((s) => s.unknown) && LAUNCHER_NAME.test(baseName(f.text))) starts.push(i);
    });
    let outer: Launcher | undefined;
    let last: Launcher | undefined;
    starts.forEach((s, n) => {
      const seg = fields.slice(s, n + 1 < starts.length ? starts[n + 1] : fields.length);
      const l = this.launcher(seg);
      if (!outer) outer = l;
      else last!.inner = l;
      last = l;
    });
    return outer;
  }

  private launcher(seg: Field[]): Launcher {
    const head = seg[0];
    const name = baseName(head.text);
    const headSpan = locateRange(head, 0, head.text.length).span;
    if (name.startsWith('python')) {
      for (let i = 1; i < seg.length; i++) {
        const t = seg[i].text;
        if (t === '-m' && seg[i + 1]) {
          const mod = seg[i + 1].text;
          if (mod === 'torch.distributed.run' || mod === 'torch.distributed.launch') {
            const modSpan = locateRange(seg[i + 1], 0, mod.length).span;
            return { kind: mod, args: this.options(seg.slice(i + 2)), span: { start: headSpan.start, end: Math.max(headSpan.end, modSpan.end) } };
          }
          break;
        }
        if (!t.startsWith('-')) break;
      }
      return { kind: 'python', args: this.options(seg.slice(1)), span: headSpan };
    }
    const kind: LauncherKind = name === 'mpiexec' ? 'mpirun' : (name as LauncherKind);
    return { kind, args: this.options(seg.slice(1)), span: headSpan };
  }

  private options(fields: Field[]): Map<string, LauncherArg> {
    const map = new Map<string, LauncherArg>();
    const val = (f: Field, a: number, b: number): { value: string | number; unknown?: string; span: Span } => {
      const loc = locateRange(f, a, b);
      const text = f.text.slice(a, b);
      return loc.unknown ? { value: text, unknown: loc.unknown, span: loc.span } : { value: typedValue(text), span: loc.span };
    };
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i];
      if (f.passthrough || !isFlagText(f.text)) continue;
      const eq = f.text.indexOf('=');
      if (eq > 0) {
        const v = val(f, eq + 1, f.text.length);
        map.set(f.text.slice(0, eq), { ...v, keySpan: locateRange(f, 0, eq).span });
        continue;
      }
      const keySpan = locateRange(f, 0, f.text.length).span;
      const n = fields[i + 1];
      if (n && !n.passthrough && !isFlagText(n.text)) {
        map.set(f.text, { ...val(n, 0, n.text.length), keySpan });
        i++;
      } else map.set(f.text, { value: undefined, span: keySpan, keySpan });
    }
    return map;
  }
}

const KEYWORDS = new Set(['if', 'then', 'elif', 'else', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', '{', '}', '!', 'function', 'time', 'in']);

function splitFields(out: (Seg | null)[], tok: Tok): Field[] {
  const fields: Field[] = [];
  let cur: Seg[] = [];
  let keep = false;
  const flush = (): void => {
    if (cur.length && (keep || cur.some((s) => s.text !== ''))) {
      fields.push({ text: textOf(cur), segs: cur, outer: tok, passthrough: cur.some((s) => s.passthrough) || undefined });
    }
    cur = [];
    keep = false;
  };
  for (const s of out) {
    if (s === null) {
      flush();
      continue;
    }
    if (s.passthrough) {
      flush();
      cur.push(s);
      keep = true;
      flush();
      continue;
    }
    if (s.quoted || !IFS.test(s.text)) {
      cur.push(s);
      if (s.quoted) keep = true;
      continue;
    }
    const t = s.text;
    const re = /[ \t\n]+/g;
    let i = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(t))) {
      if (m.index > i) cur.push(sliceSeg(s, i, m.index));
      flush();
      i = m.index + m[0].length;
    }
    if (i < t.length) cur.push(sliceSeg(s, i, t.length));
  }
  flush();
  return fields;
}

// ---------------------------------------------------------------------------------------------
// The document

/** One flag of the training command with the words it was read from. */
interface Flag {
  entry: Entry;
  field: Field;
  /** Index of `=` in `--flag=value`, or -1. */
  eq: number;
  values: Field[];
}

/** Where a word is written: a whole word of a block, or characters inside a quoted string. */
type Place = { kind: 'tok'; span: Span; block: Block } | { kind: 'inner'; span: Span; ctx: Unit };

export function parseShell(text: string, lines = new LineIndex(text)): ShellDoc {
  const problems: SyntaxProblem[] = [];
  const ctx: Ctx = { problems, work: 0, depth: 0, lineOf: (o) => lines.position(o).line + 1 };
  // A batch script runs with the variables Slurm sets from its `#SBATCH` header.
  const sbatch = readSbatch(text);
  const start: Env = new Map();
  if (sbatch) for (const [name, v] of slurmVars(sbatch)) start.set(name, { kind: 'scalar', segs: [{ text: v.value, span: v.span, quoted: true, ref: null }], items: [], exported: true, nameSpan: v.span, valueSpan: v.span });
  const script = new Script(text, 0, text.length, ctx, start, false);
  try {
    script.run();
  } catch (err) {
    // Not expected; if it happens the file is still reported, not lost.
    problems.push({ code: 'parse-error', severity: 'error', message: `The launch-script reader failed: ${(err as Error).message}`, span: { start: 0, end: 0 }, fatal: true });
    return new ShellDoc(text, lines, undefined, problems, new Map(), undefined, undefined, undefined, [], [], sbatch);
  }
  const t = script.training;
  const flags: Flag[] = [];
  let root: MapNode | undefined;
  if (t) {
    const args = t.args;
    for (let i = 0; i < args.length; i++) {
      const f = args[i];
      if (f.passthrough || !isFlagText(f.text)) continue;
      const eq = f.text.startsWith('--') ? f.text.indexOf('=') : -1;
      if (eq > 2) {
        const k = locateRange(f, 0, eq);
        const value = scalarOf(text, f, eq + 1, f.text.length);
        flags.push({ entry: mkEntry(f.text.slice(0, eq), k.span, value), field: f, eq, values: [] });
        continue;
      }
      const values: Field[] = [];
      let j = i + 1;
      while (j < args.length && !args[j].passthrough && !isFlagText(args[j].text)) values.push(args[j++]);
      const keySpan = locateRange(f, 0, f.text.length).span;
      let value: Node;
      if (!values.length) value = { kind: 'scalar', span: { start: keySpan.end, end: keySpan.end }, value: true, style: 'word', raw: '' };
      else if (values.length === 1) value = scalarOf(text, values[0], 0, values[0].text.length);
      else {
        const items = values.map((v) => scalarOf(text, v, 0, v.text.length));
        const first = items[0].span;
        const last = items[items.length - 1].span;
        value = { kind: 'seq', span: last.start >= first.start ? { start: first.start, end: last.end } : first, items, flow: true };
      }
      flags.push({ entry: mkEntry(f.text, keySpan, value), field: f, eq: -1, values });
      i = j - 1;
    }
    const entries = flags.map((fl) => fl.entry);
    const all = [...entries.map((e) => e.span), t.block.span];
    root = { kind: 'map', span: union(all), entries, flow: false };
    const last = new Map<string, Entry>();
    for (const e of entries) last.set(e.key, e);
    for (const e of entries) {
      const winner = last.get(e.key)!;
      if (winner === e || problems.length >= MAX_PROBLEMS * 2) continue;
      const same = winner.keySpan.start === e.keySpan.start;
      problems.push({
        code: 'duplicate-key',
        severity: 'warning',
        message: same
          ? `\`${e.key}\` reaches the training command twice (this word is expanded twice); argparse keeps the last value and ignores the first.`
          : `\`${e.key}\` is passed twice; argparse keeps the last one (line ${lines.position(winner.keySpan.start).line + 1}) and silently ignores this one. Remove one of them.`,
        span: e.keySpan,
      });
    }
  }
  const vars = new Map<string, ShellVar>();
  for (const [name, b] of t?.env ?? script.env) {
    const v: ShellVar = { name, value: undefined, nameSpan: b.nameSpan, valueSpan: b.valueSpan, exported: b.exported };
    const unknown = unknownOf(b);
    if (unknown) v.unknown = unknown;
    else v.value = b.kind === 'array' ? b.items.map(textOf).join(' ') : textOf(b.segs);
    if (b.kind === 'array' && !unknown) v.items = b.items.map(textOf);
    if (b.defaultSpan) v.defaultSpan = b.defaultSpan;
    vars.set(name, v);
  }
  const entrypoint = t ? { path: t.entry.text, span: locateRange(t.entry, 0, t.entry.text.length).span } : undefined;
  return new ShellDoc(text, lines, root, problems, vars, t?.launcher, entrypoint, t, flags, script.arrays, sbatch);
}

function mkEntry(key: string, keySpan: Span, value: Node): Entry {
  const span = value.span.start >= keySpan.start ? { start: keySpan.start, end: Math.max(keySpan.end, value.span.end) } : keySpan;
  return { key, keySpan, value, span };
}

function scalarOf(text: string, f: Field, a: number, b: number): ScalarNode {
  const loc = locateRange(f, a, b);
  const t = f.text.slice(a, b);
  const node: ScalarNode = { kind: 'scalar', span: loc.span, value: loc.unknown ? t : typedValue(t), style: 'word', raw: text.slice(loc.span.start, loc.span.end) };
  if (loc.unknown) node.unknown = loc.unknown;
  return node;
}

const STOP_WORDS = new Set(['size', 'num', 'type', 'path', 'dir', 'file', 'model']);

function flagWords(flag: string): string[] {
  const w = flag.replace(/^-+/, '').toLowerCase().split(/[-_]+/).filter(Boolean);
  if (w.length > 1 && ['no', 'disable', 'use', 'enable'].includes(w[0])) w.shift();
  return w;
}

/** How close two flags are: shared leading words count most, then shared words. */
function affinity(a: string, b: string): number {
  const x = flagWords(a);
  const y = flagWords(b);
  let prefix = 0;
  while (prefix < x.length && prefix < y.length && x[prefix] === y[prefix]) prefix++;
  const shared = x.filter((w) => !STOP_WORDS.has(w) && y.includes(w)).length;
  return prefix * 10 + shared;
}

export class ShellDoc extends TreeDoc {
  readonly syntax = 'shell' as const;
  readonly index = 0;
  readonly span: Span;

  constructor(
    readonly text: string,
    readonly lines: LineIndex,
    readonly root: MapNode | undefined,
    readonly problems: SyntaxProblem[],
    /** Variables as they stand when the training command runs (at the end of the script when there is none). */
    readonly vars: ReadonlyMap<string, ShellVar>,
    /** The training command's launcher (the outermost, with `inner` for chains). */
    readonly launcher: Launcher | undefined,
    /** The training script the command runs. */
    readonly entrypoint: EntryPoint | undefined,
    private readonly training: Training | undefined,
    private readonly flags: Flag[],
    private readonly arrays: ArrayLit[],
    /** The `#SBATCH` header, when the script is a Slurm batch script. */
    readonly sbatch?: Allocation,
  ) {
    super();
    this.span = { start: 0, end: text.length };
    // Findings about the whole run go on the launcher word (`torchrun`), else the entry point.
    this.anchor = launcher?.span ?? entrypoint?.span;
  }

  readonly anchor: Span | undefined;

  /**
   * How the training command is started, beyond its launchers: the words before the first launcher
   * (`ssh host`, `env`, `VAR=1`) and whether it sits inside a loop.
   */
  get launchContext(): { prefix: string[]; inLoop: boolean } {
    return { prefix: this.training?.prefix ?? [], inLoop: !!this.training?.inLoop };
  }

  // ---- edits

  /**
   * Path edits as text edits. Edits that touch the same text (removing two neighbouring lines of a
   * continued command, say) are made one after the other on the re-read script and returned as one
   * replacement of the changed region.
   */
  edit(edits: readonly PathEdit[]): TextEdit[] | undefined {
    try {
      const out: TextEdit[] = [];
      for (const e of edits) {
        const one = this.editOne(e);
        if (!one) return undefined;
        out.push(...one);
      }
      const sorted = [...out].sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
      for (let i = 1; i < sorted.length; i++) if (sorted[i].span.start < sorted[i - 1].span.end) return this.inTurn(edits);
      return out;
    } catch {
      return undefined;
    }
  }

  private inTurn(edits: readonly PathEdit[]): TextEdit[] | undefined {
    let text = this.text;
    for (const e of edits) {
      const one = parseShell(text).edit([e]);
      if (!one) return undefined;
      text = applyEdits(text, one);
    }
    const old = this.text;
    let a = 0;
    while (a < old.length && a < text.length && old[a] === text[a]) a++;
    let b = 0;
    while (b < old.length - a && b < text.length - a && old[old.length - 1 - b] === text[text.length - 1 - b]) b++;
    return [{ span: { start: a, end: old.length - b }, newText: text.slice(a, text.length - b) }];
  }

  private flagOf(key: string): Flag | undefined {
    const entry = this.entry([key]);
    return entry && this.flags.find((f) => f.entry === entry);
  }

  private editOne(e: PathEdit): TextEdit[] | undefined {
    if (!this.root || e.path.length !== 1 || typeof e.path[0] !== 'string') return undefined;
    const key = e.path[0];
    const flag = this.flagOf(key);
    if (e.op === 'rename') return flag ? this.rename(flag, e.key) : undefined;
    if (e.op === 'remove') return flag ? this.remove(flag) : undefined;
    const v = e.value;
    if (!flag) {
      if (v === false || v === null || v === undefined) return [];
      return this.insert(key, v, e.quote);
    }
    const boolean = flag.eq < 0 && flag.values.length === 0;
    if (v === false || v === null || v === undefined) return this.remove(flag);
    if (v === true) return boolean ? [] : this.dropValues(flag);
    if (boolean) {
      const words = this.words(v, e.quote);
      const unit = this.unitOf(flag.field);
      if (!words || !unit) return undefined;
      if (unit.kind === 'inner' && !words.every((w) => SAFE_WORD.test(w))) return undefined;
      return [{ span: { start: unit.span.end, end: unit.span.end }, newText: ` ${words.join(' ')}` }];
    }
    return this.replaceValue(flag, v, e.quote);
  }

  /** The value as shell words (an array gives several). */
  private words(v: unknown, quote?: 'single' | 'double'): string[] | undefined {
    const list = Array.isArray(v) ? v : [v];
    const out: string[] = [];
    for (const x of list) {
      const w = formatWord(x, { span: { start: 0, end: 0 }, quote: 'none', wrap: true }, quote);
      if (w === undefined) return undefined;
      out.push(w);
    }
    return out;
  }

  private replaceValue(flag: Flag, v: unknown, quote?: 'single' | 'double'): TextEdit[] | undefined {
    if (flag.eq >= 0 || (flag.values.length === 1 && !Array.isArray(v))) {
      const f = flag.eq >= 0 ? flag.field : flag.values[0];
      const loc = flag.eq >= 0 ? locateRange(f, flag.eq + 1, f.text.length) : locateRange(f, 0, f.text.length);
      if (!loc.target || Array.isArray(v)) return undefined;
      const newText = formatWord(v, loc.target, quote);
      return newText === undefined ? undefined : [{ span: loc.target.span, newText }];
    }
    // Several words (nargs), or a list for one word: rewrite the written value words together.
    const words = this.words(v, quote);
    const units = flag.values.map((x) => this.unitOf(x));
    if (!words || !units.length || units.some((u) => !u || u.kind !== 'tok')) return undefined;
    const us = units as Extract<Place, { kind: 'tok' }>[];
    if (!this.contiguous(us) || this.lines.position(us[0].span.start).line !== this.lines.position(us[us.length - 1].span.end).line) return undefined;
    return [{ span: { start: us[0].span.start, end: us[us.length - 1].span.end }, newText: words.join(' ') }];
  }

  private dropValues(flag: Flag): TextEdit[] | undefined {
    if (flag.eq >= 0) {
      const loc = locateRange(flag.field, flag.eq, flag.field.text.length);
      return loc.exactSpan && loc.ctx ? [{ span: loc.exactSpan, newText: '' }] : undefined;
    }
    const units = [this.unitOf(flag.field), ...flag.values.map((x) => this.unitOf(x))];
    if (units.some((u) => !u) || !this.sameKind(units as Place[]) || !this.contiguous(units as Place[])) return undefined;
    const us = units as Place[];
    return [{ span: { start: us[0].span.end, end: us[us.length - 1].span.end }, newText: '' }];
  }

  private rename(flag: Flag, key: string): TextEdit[] | undefined {
    if (!/^--?[A-Za-z0-9][\w.-]*$/.test(key)) return undefined;
    const loc = flag.eq >= 0 ? locateRange(flag.field, 0, flag.eq) : locateRange(flag.field, 0, flag.field.text.length);
    if (!loc.target || loc.target.via) return undefined;
    const newText = formatWord(key, loc.target);
    return newText === undefined ? undefined : [{ span: loc.target.span, newText }];
  }

  /** Where a word is written, as a whole word of a block or as characters inside a string. */
  private unitOf(f: Field): Place | undefined {
    const T = wholeTok(f);
    if (T && T.role === 'arg' && T.block?.insertable && !f.segs.some((s) => s.nested)) return { kind: 'tok', span: T.span, block: T.block };
    const loc = locateRange(f, 0, f.text.length);
    if (loc.exactSpan && loc.ctx && !loc.ref) return { kind: 'inner', span: loc.exactSpan, ctx: loc.ctx };
    return undefined;
  }

  private sameKind(us: Place[]): boolean {
    const k = us[0].kind;
    if (!us.every((u) => u.kind === k)) return false;
    if (k === 'tok') return us.every((u) => (u as { block: Block }).block === (us[0] as { block: Block }).block);
    return us.every((u) => (u as { ctx: Unit }).ctx === (us[0] as { ctx: Unit }).ctx);
  }

  /** In order, with only blanks and line continuations between them. */
  private contiguous(us: Place[]): boolean {
    for (let i = 1; i < us.length; i++) {
      const gap = this.text.slice(us[i - 1].span.end, us[i].span.start);
      if (us[i].span.start < us[i - 1].span.end || !/^(?:[ \t]|\\\r?\n|\r?\n)*$/.test(gap)) return false;
    }
    return true;
  }

  private remove(flag: Flag): TextEdit[] | undefined {
    const units = [this.unitOf(flag.field), ...flag.values.map((x) => this.unitOf(x))];
    if (units.some((u) => !u)) return undefined;
    const us = units as Place[];
    if (!this.sameKind(us) || !this.contiguous(us)) return undefined;
    const s = us[0].span.start;
    const e = us[us.length - 1].span.end;
    if (us[0].kind === 'tok') return [this.deleteRange(s, e, undefined)];
    const ctx = (us[0] as { ctx: Unit }).ctx;
    const rest = (this.text.slice(ctx.content.start, s) + this.text.slice(e, ctx.content.end)).replace(/\\\r?\n/g, '');
    if (rest.trim() === '') {
      // The string held only this flag: drop the whole word, or leave an empty string in an assignment.
      const tok = flag.field.segs[0]?.tok;
      if (tok && tok.role === 'arg' && tok.block?.insertable && tok.span.start === ctx.span.start && tok.span.end === ctx.span.end) return [this.deleteRange(tok.span.start, tok.span.end, undefined)];
      if (tok?.role === 'assign' && ctx.quote !== 'none') return [{ span: ctx.content, newText: '' }];
      return undefined;
    }
    return [this.deleteRange(s, e, ctx.content)];
  }

  /**
   * Deletes [s, e): the whole line when nothing else is on it (dropping the `\` that would then
   * continue the previous line into an unrelated one), else the words and the blanks on one side.
   */
  private deleteRange(s: number, e: number, bound: Span | undefined): TextEdit {
    const text = this.text;
    const L1 = this.lines.position(s).line;
    const L2 = this.lines.position(e).line;
    const ls = this.lines.lineStart(L1);
    const le = this.lines.lineEnd(L2);
    const lo = bound ? Math.max(ls, bound.start) : ls;
    const hi = bound ? Math.min(le, bound.end) : le;
    const before = text.slice(ls, s);
    const after = text.slice(e, le);
    const inside = !bound || (ls >= bound.start && le <= bound.end);
    const afterBS = /^[ \t]*\\$/.test(after);
    const afterEmpty = /^[ \t]*$/.test(after);
    const afterComment = !bound && /^[ \t]+#/.test(after);
    if (inside && /^[ \t]*$/.test(before) && (afterBS || afterEmpty || afterComment)) {
      let start = ls;
      let end = L2 + 1 < this.lines.lineCount ? this.lines.lineStart(L2 + 1) : text.length;
      if (!afterBS && L1 > 0) {
        const prev = this.lines.lineText(L1 - 1);
        const m = /[ \t]*\\$/.exec(prev);
        if (m && (!bound || this.lines.lineStart(L1 - 1) + m.index >= bound.start)) {
          start = this.lines.lineStart(L1 - 1) + m.index;
          end = le;
        }
      }
      return { span: { start, end }, newText: '' };
    }
    if (/^[ \t]/.test(text.slice(e, hi)) && !/^[ \t]*(\\)?$/.test(text.slice(e, hi))) {
      let q = e;
      while (q < hi && (text[q] === ' ' || text[q] === '\t')) q++;
      return { span: { start: s, end: q }, newText: '' };
    }
    let p = s;
    while (p > lo && (text[p - 1] === ' ' || text[p - 1] === '\t')) p--;
    if (p === s && e < hi && (text[e] === ' ' || text[e] === '\t')) {
      let q = e;
      while (q < hi && (text[q] === ' ' || text[q] === '\t')) q++;
      return { span: { start: s, end: q }, newText: '' };
    }
    return { span: { start: p, end: e }, newText: '' };
  }

  /**
   * Inserts `--flag value`: into the block (array or the continued training command) holding the
   * written flag closest to the new one (most leading words in common, then most words in common:
   * `--overlap-param-gather` goes after `--overlap-grad-reduce`), right after that flag's line;
   * with nothing close, at the end of the block holding the most flags; with no block, after the
   * command's last word. One flag per line in multi-line blocks (with ` \` where the block uses it),
   * on the same line in one-line blocks.
   */
  private insert(key: string, v: unknown, quote?: 'single' | 'double'): TextEdit[] | undefined {
    if (!/^--?[A-Za-z0-9][\w.-]*$/.test(key) || !this.training) return undefined;
    const words = v === true ? [] : this.words(v, quote);
    if (!words) return undefined;
    const flagText = [key, ...words].join(' ');
    const anchors: { flag: Flag; block: Block; end: number }[] = [];
    for (const fl of this.flags) {
      const units = [this.unitOf(fl.field), ...fl.values.map((x) => this.unitOf(x))];
      if (units.some((u) => !u || u.kind !== 'tok')) continue;
      const us = units as Extract<Place, { kind: 'tok' }>[];
      if (!us.every((u) => u.block === us[0].block) || !this.contiguous(us)) continue;
      anchors.push({ flag: fl, block: us[0].block, end: us[us.length - 1].span.end });
    }
    if (!anchors.length) {
      if (!this.training.block.insertable) return undefined;
      return this.insertAt(this.training.lastEnd, this.training.block, flagText);
    }
    let best: (typeof anchors)[number] | undefined;
    let bestScore = 0;
    for (const a of anchors) {
      const sc = affinity(key, a.flag.entry.key);
      if (sc > 0 && sc >= bestScore) {
        best = a;
        bestScore = sc;
      }
    }
    if (!best) {
      const counts = new Map<Block, number>();
      for (const a of anchors) counts.set(a.block, (counts.get(a.block) ?? 0) + 1);
      let block = anchors[0].block;
      for (const [b, n] of counts) if (n >= (counts.get(block) ?? 0)) block = b;
      best = anchors.filter((a) => a.block === block).reduce((x, y) => (y.end > x.end ? y : x));
    }
    return this.insertAt(best.end, best.block, flagText);
  }

  private insertAt(endPos: number, block: Block, flagText: string): TextEdit[] {
    const eol = this.lines.eol;
    const L = this.lines.position(endPos).line;
    const rest = this.text.slice(endPos, this.lines.lineEnd(L));
    const sameLine = [{ span: { start: endPos, end: endPos }, newText: ` ${flagText}` }];
    const startLine = this.lines.position(block.span.start).line;
    const endLine = this.lines.position(block.span.end).line;
    if (startLine === endLine) return sameLine;
    const restBS = /^[ \t]*\\$/.test(rest);
    const restEnd = /^[ \t]*$/.test(rest) || /^[ \t]+#/.test(rest);
    const indent = this.indentFor(L, startLine, endLine);
    const next = L + 1 < this.lines.lineCount ? this.lines.lineStart(L + 1) : -1;
    if (block.kind === 'array') {
      if ((restBS || restEnd) && next >= 0) return [{ span: { start: next, end: next }, newText: `${indent}${flagText}${restBS ? ' \\' : ''}${eol}` }];
      return sameLine;
    }
    if (restBS && next >= 0) return [{ span: { start: next, end: next }, newText: `${indent}${flagText} \\${eol}` }];
    if (restEnd) return [{ span: { start: endPos, end: endPos }, newText: ` \\${eol}${indent}${flagText}` }];
    return sameLine;
  }

  private indentFor(L: number, startLine: number, endLine: number): string {
    const indentOf = (l: number): string => /^[ \t]*/.exec(this.lines.lineText(l))![0];
    if (L > startLine) return indentOf(L);
    for (let l = L + 1; l <= endLine; l++) {
      const t = this.lines.lineText(l).trim();
      if (t && !t.startsWith('#') && !t.startsWith(')')) return indentOf(l);
    }
    return `${indentOf(L)}    `;
  }

  // ---- completion

  completionSite(offset: number): CompletionSite | undefined {
    try {
      return this.site(offset);
    } catch {
      return undefined;
    }
  }

  private site(offset: number): CompletionSite | undefined {
    const text = this.text;
    if (offset < 0 || offset > text.length) return undefined;
    let inside = false;
    const t = this.training;
    if (t && t.block.insertable) {
      const entryEnd = locateRange(t.entry, 0, t.entry.text.length).span.end;
      const lastLine = this.lines.position(t.block.span.end).line;
      let extentEnd = this.lines.lineEnd(lastLine);
      if (/\\$/.test(this.lines.lineText(lastLine)) && lastLine + 1 < this.lines.lineCount) extentEnd = this.lines.lineEnd(lastLine + 1);
      if (offset > entryEnd && offset <= extentEnd && t.block.span.start <= entryEnd) inside = true;
    }
    if (!inside) {
      const launcherBlocks = new Set<Block>();
      for (const f of t?.launcherFields ?? []) for (const s of f.segs) if (s.tok?.block) launcherBlocks.add(s.tok.block);
      for (const a of this.arrays) {
        if (launcherBlocks.has(a.block)) continue;
        if (offset >= a.open.end && offset <= (a.close?.start ?? text.length)) {
          inside = true;
          break;
        }
      }
    }
    if (!inside) return undefined;
    const line = this.lines.position(offset).line;
    const ls = this.lines.lineStart(line);
    const before = text.slice(ls, offset);
    if (/(^|[ \t])#/.test(before.replace(/"[^"]*"|'[^']*'/g, '""'))) return undefined;
    const stop = /[\s()"'`;|&<>]/;
    let ws = offset;
    while (ws > ls && !stop.test(text[ws - 1])) ws--;
    let we = offset;
    while (we < text.length && /[\w.=-]/.test(text[we])) we++;
    const typed = text.slice(ws, offset);
    const existing = [...new Set((this.root?.entries ?? []).map((e) => e.key))].filter((k) => k !== typed);
    const eq = /^(--?[A-Za-z][\w-]*)=(.*)$/.exec(typed);
    if (eq) return { path: [eq[1]], kind: 'value', replace: { start: ws + eq[1].length + 1, end: we }, typed: eq[2], existing: [] };
    if (/^--?[\w-]*$/.test(typed)) {
      let ke = offset;
      while (ke < text.length && /[\w-]/.test(text[ke])) ke++;
      return { path: [], kind: 'key', replace: { start: ws, end: ke }, typed, existing };
    }
    let p = ws;
    while (p > 0) {
      const c = text[p - 1];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') p--;
      else if (c === '\\' && (text[p] === '\n' || text[p] === '\r')) p--;
      else break;
    }
    let ps = p;
    while (ps > 0 && !stop.test(text[ps - 1])) ps--;
    const prev = text.slice(ps, p);
    if (/^--?[A-Za-z][\w-]*$/.test(prev)) return { path: [prev], kind: 'value', replace: { start: ws, end: we }, typed, existing: [] };
    if (typed === '') return { path: [], kind: 'key', replace: { start: ws, end: ws }, typed, existing };
    return undefined;
  }
}

/** A value as shell text for a target: keeps the target's quoting, or fits inside the string it is in. */
function formatWord(v: unknown, target: Target, pref?: 'single' | 'double'): string | undefined {
  let text: string;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return undefined;
    text = String(v);
  } else if (typeof v === 'string') text = v;
  else if (typeof v === 'boolean') text = String(v);
  else return undefined;
  const dq = (): string => `"${text.replace(/[\\"$`]/g, '\\$&')}"`;
  if (target.wrap) {
    const q = pref ?? (target.quote === 'ansi' ? 'single' : target.quote);
    if (q === 'none') return SAFE_WORD.test(text) ? text : dq();
    if (q === 'single') return text.includes("'") ? dq() : `'${text}'`;
    return dq();
  }
  if (text === '' || /\s/.test(text)) return undefined;
  switch (target.quote) {
    case 'none':
    case 'ansi':
      return SAFE_WORD.test(text) ? text : undefined;
    case 'single':
      return text.includes("'") ? undefined : text;
    case 'double':
      return text.replace(/[\\"$`]/g, '\\$&');
  }
}
