/**
 * Word expansion and `[ … ]` tests as the evaluator runs them: parameters (`$X`, `${X:-d}`, `${A[@]}`…),
 * command substitutions (unknown), arithmetic, word splitting, and comparisons of known values. The
 * evaluator (`Script`) supplies the variables in scope and the control-flow state.
 */
import type { Span } from '../../types';
import { type ArrayLit, type Binding, type Block, type Ctx, type Env, type ExpandedWord, MAX_SUBSCRIPT_DEPTH, type Piece, type Quote, type Seg, type Tri, type Word, WORK_BUDGET, type WrittenWord } from './types';
import { evaluateArithmetic } from './arithmetic';
import { Lexer } from './lexer';
import { type SubCommand, substitutionOutput } from './substitution';
import { and3, argReason, envReason, globMatch, IFS, locateRange, not, or3, SCHEDULER_VAR, short, splitFields, textOf } from './expansion';

export abstract class WordExpander {
  protected abstract readonly src: string;
  protected abstract readonly ctx: Ctx;
  abstract readonly env: Env;
  /** The code being read does not run (an arm not taken). */
  protected abstract isDead(): boolean;
  /** Sets (or unsets) a variable, remembering the old value for the enclosing branch. */
  protected abstract setVar(name: string, b: Binding | undefined): void;

  protected lit(w: Word): string | undefined {
    if (w.pieces.length !== 1) return undefined;
    const p = w.pieces[0];
    if (p.t !== 'lit' || p.quoted || p.src !== w.span.start || p.text.length !== w.span.end - w.span.start) return undefined;
    return p.text;
  }

  // ---- tests

  protected testItem(w: Word): { text: string; known: boolean; glob: boolean } {
    const f = this.expandWord(w, this.mkTok(w, 'assign'), 'assign')[0];
    const glob = w.pieces.some((p) => p.t === 'lit' && !p.quoted && /[*?[]/.test(p.text));
    if (!f) return { text: '', known: true, glob };
    return { text: f.text, known: !f.segs.some((s) => s.unknown), glob };
  }

  protected test2(parts: (Word | string)[]): Tri {
    return this.testWords(parts, true);
  }

  /** A `[`/`[[`/`test` expression over words, with `&&`/`||` (and `-a`/`-o`) between comparisons. */
  protected testWords(parts: (Word | string)[], double = false): Tri {
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

  protected testOne(items: (Word | string)[], double: boolean): Tri {
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

  protected mkTok(w: Word, role: WrittenWord['role'], block?: Block): WrittenWord {
    const firstLit = w.pieces.find((p) => p.t === 'lit') as Extract<Piece, { t: 'lit' }> | undefined;
    return { span: w.span, block, role, literal: w.pieces.every((p) => p.t === 'lit'), quote: firstLit?.unit.quote ?? 'none' };
  }

  protected expandAll(words: (Word | ArrayLit)[], block: Block): ExpandedWord[] {
    const out: ExpandedWord[] = [];
    for (const w of words) if (w.kind === 'word') out.push(...this.expandWord(w, this.mkTok(w, 'arg', block), 'args'));
    return out;
  }

  protected expandWord(w: Word, tok: WrittenWord, mode: 'args' | 'assign'): ExpandedWord[] {
    this.ctx.work += w.pieces.length + 1;
    if (this.ctx.work > WORK_BUDGET) {
      const seg: Seg = { text: this.src.slice(w.span.start, w.span.end), span: w.span, tok, quoted: true, unknown: 'the script is too large to expand every word', ref: null };
      return [{ text: seg.text, segs: [seg], outer: tok }];
    }
    const out: (Seg | null)[] = [];
    for (const p of w.pieces) this.expandPiece(p, w, tok, mode, out);
    this.ctx.work += out.length;
    let fields: ExpandedWord[];
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

  protected expandPiece(p: Piece, w: Word, tok: WrittenWord, mode: 'args' | 'assign', out: (Seg | null)[]): void {
    const refSpan = w.pieces.length === 1 ? tok.span : p.span;
    switch (p.t) {
      case 'lit':
        out.push({ text: p.text, src: p.src, ctx: p.unit, span: p.span, tok, quoted: p.quoted || mode === 'assign' });
        return;
      case 'cmd': {
        const raw = this.src.slice(p.span.start, p.span.end);
        if (p.placeholder) {
          out.push({ text: raw, span: refSpan, tok, quoted: true, unknown: `a placeholder to fill in (\`${short(raw)}\`)`, ref: null });
          return;
        }
        const known = this.substitute(p.span);
        if (known !== undefined) out.push({ text: known, span: refSpan, tok, quoted: p.quoted || mode === 'assign', ref: null });
        else out.push({ text: this.src.slice(refSpan.start, refSpan.end), span: refSpan, tok, quoted: true, unknown: `set by the command \`${short(raw)}\` when the script runs`, ref: null });
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

  protected expandParam(p: Extract<Piece, { t: 'param' }>, tok: WrittenWord, mode: 'args' | 'assign', out: (Seg | null)[], refSpan: Span): void {
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
    const own = this.ownPath(p);
    if (own !== undefined) return void out.push({ text: own, span: refSpan, tok, quoted: true, ref: null });
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
      // A variable the script does not set (or an argument not given) comes from whoever runs it: its
      // fallback is what runs only when nothing sets it, an assumption whatever its name.
      const fallback = !b ? (positional ? `the script's argument ${name} is not given` : `\`${name}\` is not set when the script runs`) : undefined;
      if (!useDefault) {
        this.expandBinding(b!, p, name, tok, mode, quoted, out, refSpan, unknownSeg);
        return;
      }
      const argTok = this.mkTok(p.arg!, 'default');
      const f = this.expandWord(p.arg!, argTok, 'assign')[0];
      const loc = locateRange(f, 0, f.text.length);
      const target = p.arg!.pieces.length === 0 ? { span: { start: p.arg!.span.start, end: p.arg!.span.start }, quote: 'none' as Quote, wrap: true } : loc.target;
      if ((op === ':=' || op === '=') && !positional && !this.isDead()) {
        const segs = fallback && !loc.unknown ? f.segs.map((x) => ({ ...x, assumed: x.assumed ?? `${fallback} (the script's fallback is \`${short(f.text)}\`)` })) : f.segs;
        this.setVar(name, { kind: 'scalar', segs, items: [], target, defaultSpan: p.arg!.span, exported: !!b?.exported, nameSpan: p.span, valueSpan: p.arg!.span });
      }
      const assumed = fallback && !loc.unknown ? `${fallback} (the script's fallback is \`${short(f.text)}\`)` : undefined;
      if (!quoted && IFS.test(f.text)) {
        for (const s of f.segs) out.push({ ...s, quoted: !!s.unknown, assumed: s.assumed ?? (s.unknown ? undefined : assumed) });
        return;
      }
      out.push({ text: f.text, span: refSpan, tok, quoted, unknown: loc.unknown, assumed: loc.assumed ?? assumed, ref: target ?? null, defaultSpan: p.arg!.span });
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
      // Not set in the script: whatever the environment (or the command line) gives, any number of
      // words for an array, one unknown word otherwise.
      if (all) pass(positional ? unsetReason : `${name} is not set in this script`);
      else out.push({ ...unknownSeg(unsetReason), unset: name });
      return;
    }
    this.expandBinding(b, p, name, tok, mode, quoted, out, refSpan, unknownSeg);
  }

  /** The script's own path when the host knows it: `$0` (the script run), `${BASH_SOURCE[0]}` (the file being read, a sourced one included). */
  private ownPath(p: Extract<Piece, { t: 'param' }>): string | undefined {
    if (p.op || p.length || p.indirect) return undefined;
    if (p.name === '0') return this.ctx.topPath;
    return p.name === 'BASH_SOURCE' && (p.index === undefined || /^\s*0\s*$/.test(p.index)) ? this.ctx.path : undefined;
  }

  protected expandBinding(b: Binding, p: Extract<Piece, { t: 'param' }>, name: string, tok: WrittenWord, mode: 'args' | 'assign', quoted: boolean, out: (Seg | null)[], refSpan: Span, unknownSeg: (reason: string, passthrough?: boolean) => Seg): void {
    if (b.unknown) {
      if (p.index === '@' && mode === 'args') out.push(null, unknownSeg(b.unknown, true), null);
      else out.push({ ...unknownSeg(b.unknown), binding: b });
      return;
    }
    const all = p.index === '@' || p.index === '*';
    const splice = (s: Seg): Seg => {
      const q = quoted || !!s.unknown;
      const spliced = s.detached ? { ...s, quoted: q, span: refSpan, tok, detached: undefined } : { ...s, quoted: q };
      if (s.choice) spliced.choice = { ...s.choice, quoted };
      return spliced;
    };
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
      out.push({ ...unknownSeg(unknown), binding: b });
      return;
    }
    const ref = b.kind === 'scalar' && b.target ? { ...b.target, via: b.target.via ?? name } : null;
    out.push({ text, span: refSpan, tok, quoted, ref, defaultSpan: b.kind === 'scalar' ? b.defaultSpan : undefined, assumed: segs.find((s) => s.assumed)?.assumed });
  }

  /**
   * The output of `$( … )` or backticks when it is one of the path commands substitution.ts works
   * out (`dirname "$0"`, `cd … && pwd`, `realpath …`) over known words; undefined otherwise.
   */
  protected substitute(span: Span): string | undefined {
    const raw = this.src.slice(span.start, span.end);
    let start: number;
    let end: number;
    if (raw.startsWith('$(') && raw.endsWith(')') && !raw.startsWith('$((')) [start, end] = [span.start + 2, span.end - 1];
    else if (raw.length > 1 && raw.startsWith('`') && raw.endsWith('`')) [start, end] = [span.start + 1, span.end - 1];
    else return undefined;
    if (end - start > 1000 || this.ctx.depth >= MAX_SUBSCRIPT_DEPTH) return undefined;
    const lx = new Lexer(this.src, start, end, () => undefined, true);
    const cmds: SubCommand[] = [];
    let words: (string | undefined)[] = [];
    for (let t = lx.next(), n = 0; t; t = lx.next(), n++) {
      if (n > 100) return undefined;
      if (t.k === 'redir') continue;
      if (t.k === 'array') return undefined;
      if (t.k === 'op') {
        if (!['\n', ';', '&&', '||', '|', '|&'].includes(t.op)) return undefined;
        if (words.length) cmds.push({ words, next: t.op });
        words = [];
        continue;
      }
      this.ctx.depth++;
      try {
        for (const f of this.expandWord(t.w, this.mkTok(t.w, 'arg'), 'args')) words.push(f.passthrough || f.segs.some((x) => x.unknown) ? undefined : f.text);
      } finally {
        this.ctx.depth--;
      }
    }
    if (words.length) cmds.push({ words, next: '' });
    const pwd = this.env.get('PWD');
    return substitutionOutput(cmds, pwd && !pwd.unknown && pwd.kind === 'scalar' ? textOf(pwd.segs) : undefined);
  }

  protected arith(expr: string, depth = 0): { value?: number; unknown?: string } {
    return evaluateArithmetic(expr, this.env, depth);
  }
}
