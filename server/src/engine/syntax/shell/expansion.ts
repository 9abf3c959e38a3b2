/** Helpers for expanded words: unknown reasons, typed values, glob matching, three-valued logic, and where the characters of an expanded word are written (`locateRange`). */
import type { Span } from '../../types';
import type { Binding, Block, ExpandedWord, Frame, Launcher, LauncherArg, Seg, Target, Tri, Unit, WrittenWord } from './types';

/** Variables a batch scheduler or MPI launcher sets in the job's environment. */
export const SCHEDULER_VAR = /^(SLURM_|PBS_|LSB_|OMPI_COMM_WORLD_|PMI_|PMIX_)/;

export const IFS = /[ \t\n]/;
export const LAUNCHER_NAME = /^(torchrun|srun|deepspeed|mpirun|mpiexec|accelerate|python[0-9.]*)$/;
export const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** A variable as an inner shell (`bash -c`) sees it: its value, without locations in the outer script. */
export function detach(b: Binding): Binding {
  const off = (s: Seg): Seg => ({ text: s.text, span: { start: 0, end: 0 }, quoted: s.quoted, unknown: s.unknown, assumed: s.assumed, passthrough: s.passthrough, detached: true, ...(s.binding ? { binding: s.binding } : {}) });
  const none = { start: 0, end: 0 };
  const copy: Binding = { ...b, segs: b.segs.map(off), items: b.items.map((i) => i.map(off)), target: undefined, defaultSpan: undefined, nameSpan: none, valueSpan: none };
  ORIGINS.set(copy, originOf(b));
  return copy;
}

/** The value a nested shell's copy of a variable was made from (detach): the same value in both shells. */
const ORIGINS = new WeakMap<Binding, Binding>();

export function originOf(b: Binding): Binding {
  return ORIGINS.get(b) ?? b;
}

export function unknownOf(b: Binding): string | undefined {
  return b.unknown ?? (b.kind === 'array' ? b.items.flat() : b.segs).find((s) => s.unknown)?.unknown;
}

/** Why a binding's value is only assumed (a part of it is a fallback), if it is. */
export function assumedOf(b: Binding): string | undefined {
  return (b.kind === 'array' ? b.items.flat() : b.segs).find((s) => s.assumed)?.assumed;
}

export function textOf(segs: readonly Seg[]): string {
  let t = '';
  for (const s of segs) t += s.text;
  return t;
}

export function union(spans: Span[]): Span {
  let start = Infinity;
  let end = -Infinity;
  for (const s of spans) {
    if (s.start < start) start = s.start;
    if (s.end > end) end = s.end;
  }
  return { start, end };
}

export function sliceSeg(s: Seg, a: number, b: number): Seg {
  const exact = s.src !== undefined;
  return { ...s, text: s.text.slice(a, b), src: exact ? s.src! + a : undefined, span: exact ? { start: s.src! + a, end: s.src! + b } : s.span, ref: undefined, defaultSpan: undefined };
}

export function short(text: string): string {
  const one = text.replace(/\s+/g, ' ');
  return one.length > 40 ? `${one.slice(0, 37)}…` : one;
}

export function envReason(name: string): string {
  if (/^SLURM_/.test(name)) return `${name} is set by Slurm when the job runs`;
  if (/^(OMPI|PMI|PMIX|MPI)_/.test(name)) return `${name} is set by the MPI launcher when the job runs`;
  if (name === 'RANDOM' || name === 'SRANDOM') return `$${name} is a new random number each time`;
  if (name === 'HOSTNAME' || name === 'PWD' || name === 'HOME' || name === 'USER') return `${name} depends on the machine running the script`;
  return `${name} comes from the environment`;
}

export function argReason(n: string): string {
  return n === '0' ? "$0 is the script's own path" : `$${n} is argument ${n} of the script`;
}

export function baseName(t: string): string {
  const i = t.lastIndexOf('/');
  return i >= 0 ? t.slice(i + 1) : t;
}

/**
 * The program name a command word runs, when it is known: the whole word's, or, where only a folder
 * is not known (`"${ENV}/venv/bin/python"` with `ENV` from the environment), the name after the last
 * `/` of the known text that ends it. Empty when the name itself is not known.
 */
export function commandName(f: { text: string; segs: readonly Seg[] }): string {
  if (!f.segs.some((s) => s.unknown)) return baseName(f.text);
  let last = -1;
  f.segs.forEach((s, i) => {
    if (s.unknown || s.choice) last = i;
  });
  const tail = f.segs.slice(last + 1).map((s) => s.text).join('');
  return tail.includes('/') ? baseName(tail) : '';
}

export function isFlagText(t: string): boolean {
  return /^--?[A-Za-z]/.test(t);
}

/** Python's reading of a command-line value: integers and floats as numbers, the rest as text. */
export function typedValue(text: string): string | number {
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

export function not(t: Tri): Tri {
  return t === undefined ? undefined : !t;
}

export function and3(a: Tri, b: Tri): Tri {
  if (a === false || b === false) return false;
  return a === true && b === true ? true : undefined;
}

export function or3(a: Tri, b: Tri): Tri {
  if (a === true || b === true) return true;
  return a === false && b === false ? false : undefined;
}

export function globMatch(pattern: string, text: string): boolean {
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
export function wholeTok(f: ExpandedWord): WrittenWord | undefined {
  const t = f.segs[0]?.tok;
  if (!t || !t.single || t.value !== f.text) return undefined;
  for (const s of f.segs) if (s.tok !== t) return undefined;
  return t;
}

export interface RangeLocation {
  span: Span;
  target?: Target;
  unknown?: string;
  assumed?: string;
  /** The text maps character for character onto `exactSpan` inside this quoting unit. */
  ctx?: Unit;
  exactSpan?: Span;
  ref?: boolean;
}

/** Where the characters [a, b) of an expanded word are written, and how to replace them. */
export function locateRange(f: ExpandedWord, a: number, b: number): RangeLocation {
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
  const assumed = unknown ? undefined : hits.find((h) => h.seg.assumed)?.seg.assumed;
  const h0 = hits[0];
  const hl = hits[hits.length - 1];
  if (hits.length === 1 && h0.seg.ref !== undefined && h0.from === 0 && h0.to === h0.seg.text.length) {
    return { span: h0.seg.span, target: h0.seg.ref ?? undefined, unknown, assumed, ref: true };
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
  if (T && T.literal && !nested) return { span: T.span, target: { span: T.span, quote: T.quote, wrap: true }, unknown, assumed, ctx, exactSpan };
  if (exactSpan) {
    if (ctx && !nested && exactSpan.start === ctx.content.start && exactSpan.end === ctx.content.end) {
      return { span: ctx.span, target: { span: ctx.span, quote: ctx.quote, wrap: true }, unknown, assumed, ctx, exactSpan };
    }
    return { span: exactSpan, target: ctx ? { span: exactSpan, quote: ctx.quote, wrap: false } : undefined, unknown, assumed, ctx, exactSpan };
  }
  if (T) return { span: T.span, unknown, assumed };
  const toks = new Set(hits.map((h) => h.seg.tok));
  if (toks.size === 1) return { span: union(hits.map((h) => h.seg.span)), unknown, assumed };
  return { span: f.outer.span, unknown, assumed };
}

/** Splits an expansion into words as bash does: on unquoted whitespace, `null` marking a forced break. */
export function splitFields(out: (Seg | null)[], tok: WrittenWord): ExpandedWord[] {
  const fields: ExpandedWord[] = [];
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
  return joinPlaceholders(fields);
}

/**
 * Words split out of one placeholder (`--vocab-file <PATH TO gpt-vocab.json>` inside a string the
 * script expands unquoted): one word whose text is not known, as a placeholder assigned whole is.
 */
function joinPlaceholders(fields: ExpandedWord[]): ExpandedWord[] {
  if (!fields.some((f) => f.text.startsWith('<'))) return fields;
  const out: ExpandedWord[] = [];
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i];
    let j = i;
    if (f.text.startsWith('<') && !f.text.endsWith('>')) {
      while (j + 1 < fields.length && j - i < 12 && !/[<>]/.test(fields[j + 1].text.slice(0, -1))) {
        j++;
        if (fields[j].text.endsWith('>')) break;
      }
    }
    const run = fields.slice(i, j + 1);
    const text = run.map((r) => r.text).join(' ');
    if (j > i && text.endsWith('>') && isPlaceholder(text)) {
      const why = `a placeholder to fill in (\`${text.slice(0, 40)}\`)`;
      out.push({ text, segs: run.flatMap((r) => r.segs.map((x) => ({ ...x, unknown: x.unknown ?? why }))), outer: f.outer });
      i = j;
    } else out.push(f);
  }
  return out;
}

/** The source position of character `at` of an expanded word (zero-width). */
export function mapPoint(f: ExpandedWord, at: number): Span {
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

/** The value of a variable after a conditional frame whose arms assigned it differently: one value when they agree, else unknown with why. */
export function mergeScalars(name: string, cands: (Binding | undefined)[], f: Frame): Binding | undefined {
  const defined = cands.filter((b): b is Binding => !!b);
  if (!defined.length) return undefined;
  const latest = defined.reduce((x, y) => (y.nameSpan.start > x.nameSpan.start ? y : x));
  const first = defined[0];
  const text = textOf(first.segs);
  if (defined.every((b) => !unknownOf(b) && textOf(b.segs) === text)) {
    // Set on some paths and unset on the others: the value holds only if the branch that sets it is
    // the one that runs, which is assumed, not known.
    if (defined.length < cands.length) {
      const why = f.kind === 'andor' ? `${name} is set only on some paths (line ${f.line})` : `${name} is set only in some branches of the \`${f.kind}\` on line ${f.line}, which the script does not decide`;
      const b = defined.every((x) => x === first) ? first : { ...latest, target: undefined, defaultSpan: undefined };
      return { ...b, segs: b.segs.map((x) => (x.assumed ? x : { ...x, assumed: why })) };
    }
    if (defined.every((b) => b === first)) return first;
    return { ...latest, target: undefined, defaultSpan: undefined };
  }
  const where = f.kind === 'andor' ? `is set only on some paths (line ${f.line})` : `is assigned differently in the branches of the \`${f.kind}\` on line ${f.line}`;
  return { ...latest, segs: [], unknown: `${name} ${where}`, target: undefined, defaultSpan: undefined };
}

/**
 * An array after a conditional frame whose arms changed it differently: the elements every path
 * agrees on, then one element that stands for the rest (unknown: any words or none), so that
 * `"${ARGS[@]}"` keeps the flags all arms pass and leaves the others open.
 */
export function mergeArrays(name: string, cands: (Binding | undefined)[], f: Frame): Binding | undefined {
  const defined = cands.filter((b): b is Binding => !!b);
  if (!defined.length) return undefined;
  const latest = defined.reduce((x, y) => (y.nameSpan.start > x.nameSpan.start ? y : x));
  const itemsOf = (b: Binding | undefined): Seg[][] => (!b ? [] : b.kind === 'array' ? b.items : [b.segs]);
  const texts = cands.map((b) => itemsOf(b).map(textOf));
  const first = itemsOf(defined[0]);
  const same = !cands.some((b) => b && unknownOf(b)) && texts.every((t) => t.length === texts[0].length && t.every((x, i) => x === texts[0][i]));
  if (same && cands.every((b) => b)) return defined.every((b) => b === defined[0]) ? defined[0] : { ...latest, kind: 'array', items: first, target: undefined, defaultSpan: undefined };
  let n = 0;
  while (texts.every((t) => n < t.length && t[n] === texts[0][n]) && !cands.some((b) => itemsOf(b)[n]?.some((x) => x.unknown))) n++;
  const where = f.kind === 'andor' ? `gets elements only on some paths (line ${f.line})` : `gets different elements in the branches of the \`${f.kind}\` on line ${f.line}`;
  // Each arm's own elements after the common ones, when every arm's are known: one of them is passed.
  // (Values not known inside an arm are fine; words that stand for any number of words are not.)
  const known = cands.every((b) => b && !b.unknown && itemsOf(b).flat().every((x) => !x.passthrough || x.choice));
  const cond = f.kind === 'andor' ? `the \`&&\`/\`||\` on line ${f.line}` : `the \`${f.kind}\` on line ${f.line}`;
  const choice = known ? { cond, arms: cands.map((b) => itemsOf(b).slice(n)) } : undefined;
  const rest: Seg = { text: '', span: { start: 0, end: 0 }, quoted: true, unknown: `${name} ${where}`, passthrough: true, ref: null, detached: true, choice };
  const base = itemsOf(defined.find((b) => texts[cands.indexOf(b)].length >= n) ?? defined[0]).slice(0, n);
  return { ...latest, kind: 'array', segs: [], items: [...base, [rest]], unknown: undefined, target: undefined, defaultSpan: undefined };
}

/** The variable a declaration names (`MBS`, `MBS=4`, `ARGS+=(…)`), if the word is one. */
export function declaredName(word: string | undefined): string | undefined {
  return word === undefined ? undefined : /^([A-Za-z_]\w*)(\[[^\]]*\])?(\+?=|$)/.exec(word)?.[1];
}

/**
 * Maps what a nested shell (`bash -c "…"`, `eval "…"`) read out of the string `f` back to where it is
 * written in the script: spans, written words, edit targets, launchers.
 */
export function remapper(f: ExpandedWord, block: Block): { mapField(x: ExpandedWord): ExpandedWord; mapLauncher(l: Launcher | undefined): Launcher | undefined } {
  const toks = new Map<WrittenWord, WrittenWord>();
  const mapSpan = (s: Span): Span => (s.start === s.end ? mapPoint(f, s.start) : locateRange(f, s.start, s.end).span);
  const mapTok = (tk: WrittenWord | undefined): WrittenWord | undefined => {
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
  const mapField = (x: ExpandedWord): ExpandedWord => ({ ...x, segs: x.segs.map(mapSeg), outer: mapTok(x.outer)! });
  const mapLauncher = (l: Launcher | undefined): Launcher | undefined => {
    if (!l) return undefined;
    const args = new Map<string, LauncherArg>();
    for (const [k, v] of l.args) args.set(k, { ...v, span: mapSpan(v.span), keySpan: mapSpan(v.keySpan) });
    return { kind: l.kind, args, span: mapSpan(l.span), inner: mapLauncher(l.inner) };
  };
  return { mapField, mapLauncher };
}

/**
 * A value written as a placeholder for the user to replace, not a value: `<path to the checkpoint>`,
 * `your model ckpt path` / `YOUR_DATA_DIR` / `path to save your weights`, `/path/to/data`, `xxx`, `TODO`,
 * `CHANGE_ME`.
 */
export function isPlaceholder(text: string): boolean {
  const t = text.trim();
  if (!t || t.length > 200) return false;
  return (
    /^<[^<>|\n]*[A-Za-z][^<>|\n]*>$/.test(t) ||
    /^your[\s_-]/i.test(t) ||
    (/\s/.test(t) && /\byour\b/i.test(t)) ||
    /^(the\s+)?(path|dir|directory|folder|file)\s+(to|of|for)\s/i.test(t) ||
    /(^|\/)path\/to(\/|$)/i.test(t) ||
    /(^|[\/_-])x{3,}([\/_.-]|$)/i.test(t) ||
    /^(todo|fixme|tbd|change[_-]?me|replace[_-]?me|placeholder|fill[_-]?me|fill[_-]?in)$/i.test(t)
  );
}

/**
 * The path under a folder variable the script leaves as a placeholder to fill in
 * (`$CODE/configs/acc.yaml` with `CODE=/path/to/code`): the part after it, which names the file from
 * the folder the user fills in (the host looks for it from the script's folder up).
 */
export function underPlaceholder(text: string, unknown: string): string | undefined {
  const m = /^\$\{?(\w+)\}?\/([\w.-]+(?:\/[\w.-]+)*)$/.exec(text.trim());
  return m && !m[2].split('/').includes('..') && unknown.startsWith(`${m[1]} holds a placeholder`) ? m[2] : undefined;
}

/**
 * The tails of an absolute path of another machine (a container's `/workspace/llm/conf/x.yaml`), each
 * with at least a folder and the file (`llm/conf/x.yaml`, `conf/x.yaml`), longest first: where the
 * host looks for the file in the repository.
 */
export function absoluteTails(ref: string): string[] {
  if (!ref.startsWith('/')) return [];
  const parts = ref.split('/').filter((p) => p && p !== '.');
  return parts.slice(1, -1).map((_, i) => parts.slice(i + 1).join('/'));
}
