/** The straight-line evaluator: runs the script's commands in text order, keeps variables and arrays with their spans, follows control flow where it is decidable, and finds the training command. */
import type { Span } from '../../types';
import { type ArrayLit, type Binding, type Block, type Cmd, type Ctx, type Env, type ExpandedWord, type Frame, type HereDoc, type LexToken, MAX_FRAMES, MAX_ITEMS, MAX_PROBLEMS, MAX_SUBSCRIPT_DEPTH, MAX_RECIPE_LAUNCHES, MAX_VALUE, type Piece, type RecipeCommand, type Seg, type Target, type Training, type Tri, type Unit, type Word } from './types';
import { KEYWORDS, Lexer, skipBalanced } from './lexer';
import { entryAfterInterpreter, evalCommandWords, laterModule, laterStep, launcherChain, launcherWords, moduleEntryIndex } from './launchers';
import { type OpenWord, readSourced, setBySource, type SourcedFile } from './sourcing';
import { changedDir } from './substitution';
import { CommandRunner } from './runner';
import { and3, commandName, declaredName, detach, globMatch, isPlaceholder, LAUNCHER_NAME, locateRange, mergeArrays, mergeScalars, not, or3, remapper, textOf } from './expansion';

/** Runs a script (or the text of a `bash -c` string) and finds its training command. */
export class Script extends CommandRunner {
  private readonly lx: Lexer;
  private la: LexToken | undefined;
  private laSet = false;
  private frames: Frame[] = [];
  private overflow = 0;
  /** A function was just defined (`name()`, `function name`): the `{` that follows opens its body. */
  private functionNext = false;
  private deadCount = 0;
  private status: Tri = undefined;
  training: Training | undefined;
  /** `llamafactory-cli train <recipe>` commands, in text order (at most MAX_RECIPE_LAUNCHES). */
  readonly recipeLaunches: RecipeCommand[] = [];
  readonly arrays: ArrayLit[] = [];
  /** Places that may add flags this reader cannot see (a `source` not read); see sourcing.ts. */
  readonly opened: OpenWord[] = [];
  readonly sourced: SourcedFile[] = [];

  constructor(
    protected readonly src: string,
    start: number,
    end: number,
    protected readonly ctx: Ctx,
    readonly env: Env,
    protected readonly sub: boolean,
  ) {
    super();
    this.lx = new Lexer(src, start, end, (message, span, severity = 'error') => this.report(message, span, severity), sub);
  }

  protected where(): { branch: number | undefined; loop: boolean } {
    return { branch: this.frames.find((f) => f.kind !== 'loop' && f.kind !== 'group' && f.kind !== 'brace' && f.taken === undefined)?.line, loop: this.frames.some((f) => f.kind === 'loop') };
  }

  private report(message: string, span: Span, severity: 'error' | 'warning'): void {
    if (this.sub || this.ctx.problems.length >= MAX_PROBLEMS) return;
    this.ctx.problems.push({ code: 'parse-error', severity, message, span: { start: span.start, end: Math.max(span.start, Math.min(span.end, this.src.length)) } });
  }

  private peek(): LexToken | undefined {
    if (!this.laSet) {
      this.la = this.lx.next();
      this.laSet = true;
    }
    return this.la;
  }

  private take(): LexToken | undefined {
    const t = this.peek();
    this.laSet = false;
    if (t?.k === 'array') this.arrays.push(t.a);
    return t;
  }

  protected isDead(): boolean {
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
    for (const [name, before] of f.restore ?? []) this.setVar(name, before);
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
        // A `cd` on some paths only: the folder is the start's or the new one, which is not known.
        if (name === 'PWD' && cands.some((b) => !b)) result = { ...cands.find((b) => b)!, segs: [], unknown: `the script changes folder only on some paths (line ${f.line})` };
        else if (cands.some((b) => b?.kind === 'array')) result = mergeArrays(name, cands, f);
        else result = mergeScalars(name, cands, f);
      }
      this.setVar(name, result);
    }
  }

  protected setVar(name: string, b: Binding | undefined): void {
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
      case '{': {
        const f = this.push('brace', w.span.start);
        // A function body: what `local` declares in it is gone when it returns.
        if (f && this.functionNext) f.locals = new Map();
        this.functionNext = false;
        return;
      }
      case '}': {
        const body = this.overflow > 0 ? undefined : [...this.frames].reverse().find((f) => f.kind === 'brace');
        this.popTo('brace');
        for (const [name, before] of body?.locals ?? []) this.setVar(name, before);
        return;
      }
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
          this.functionNext = true;
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
    const outputs: Word[] = [];
    const others: Word[] = [];
    for (;;) {
      const t = this.peek();
      if (!t || t.k === 'op') break;
      this.take();
      if (t.k === 'word') words.push(t.w);
      else if (t.k === 'array') words.push(t.a);
      else if (t.hd) heredocs.push(t.hd);
      else if (t.target && /^(>|>\||&>)$/.test(t.op ?? '') && (t.fd === '' || t.fd === '1' || t.op === '&>')) outputs.push(t.target);
      else if (t.target && /[>]/.test(t.op ?? '') && !/&$/.test(t.op ?? '')) others.push(t.target);
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
        this.functionNext = true;
        return undefined;
      }
    }
    const span = { start: words[0].span.start, end: words[words.length - 1].span.end };
    return { words, span, block: { kind: 'command', span, insertable: !this.sub }, heredocs: heredocs.length ? heredocs : undefined, outputs: outputs.length ? outputs : undefined, written: others.length ? others : undefined };
  }

  private runCommand(cmd: Cmd, prev: string, negate: boolean): void {
    this.functionNext = false;
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
        this.unset(rest.slice(1));
        return true;
      case 'read':
        this.read(rest.slice(1));
        return undefined;
      case '[':
      case 'test': {
        const items = rest.slice(1).filter((w): w is Word => w.kind === 'word');
        if (head === '[' && items.length && this.lit(items[items.length - 1]) === ']') items.pop();
        return this.testWords(items.map((w) => w as Word | string));
      }
      case 'false':
        return false;
      case 'cd':
      case 'pushd':
      case 'popd':
        this.changeDir(head, this.expandAll(rest.slice(1), cmd.block), cmd.span);
        return undefined;
      case 'source':
      case '.':
        readSourced(this.expandAll(rest.slice(1), cmd.block)[0], cmd.span, {
          ctx: this.ctx,
          env: this.env,
          opened: this.opened,
          sourced: this.sourced,
          set: (name, b) => this.setVar(name, b),
          run: (text, ctx, env) => {
            const inner = new Script(text, 0, text.length, ctx, env, true);
            inner.run();
            return { env: inner.env, opened: inner.opened, sourced: inner.sourced, ctx };
          },
        });
        return undefined;
      default: {
        const fields = this.expandAll(rest, cmd.block);
        this.noteCommand(fields, cmd);
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

  /** `cd DIR`, `pushd DIR`, `popd`: the folder later commands start in, kept as `PWD` (see `changedDir`). */
  private changeDir(head: string, args: ExpandedWord[], span: Span): void {
    const to = changedDir(head, args, this.env.get('PWD'), this.ctx.lineOf(span.start));
    const sub = [...this.frames].reverse().find((f) => f.kind === 'group');
    if (sub && !sub.restore?.has('PWD')) (sub.restore ??= new Map()).set('PWD', this.env.get('PWD'));
    const seg: Seg = { text: to.dir ?? '', span, quoted: true, unknown: to.why, ref: null };
    this.setVar('PWD', { kind: 'scalar', segs: [seg], items: [], unknown: to.why, exported: true, nameSpan: span, valueSpan: span });
  }

  private declare(head: string, args: (Word | ArrayLit)[]): Tri {
    let exported = head === 'export';
    // `local` in a function body: the value before it comes back when the function returns.
    const body = head === 'local' ? [...this.frames].reverse().find((f) => f.locals) : undefined;
    for (const a of args) {
      const declared = body ? declaredName(a.kind === 'array' ? a.name : a.pieces[0]?.t === 'lit' ? a.pieces[0].text : undefined) : undefined;
      if (body && declared && !body.locals!.has(declared)) body.locals!.set(declared, this.env.get(declared));
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
    const hidden = append && !old ? setBySource(this.sourced, name, false) : undefined;
    let segs = hidden ? [hidden, ...f.segs] : f.segs;
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
    } else if (!append && isPlaceholder(textOf(segs))) {
      unknown = `${name} holds a placeholder to fill in (\`${textOf(segs).trim().slice(0, 40)}\`)`;
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
    const hidden = a.append && !old ? setBySource(this.sourced, a.name, true) : undefined;
    let all = hidden ? [[hidden], ...items] : items;
    if (a.append && old) {
      const before = old.kind === 'array' ? old.items : [old.segs];
      all = before.length >= MAX_ITEMS ? before : before.concat(items.slice(0, MAX_ITEMS - before.length));
    }
    // Never closed: the rest of the file was read as its elements, so what it holds is not known.
    const unclosed = a.close ? undefined : `\`${a.name}=(\` on line ${this.ctx.lineOf(a.span.start)} is never closed`;
    this.setVar(a.name, { kind: 'array', segs: [], items: all, exported: exported || !!old?.exported, nameSpan: a.nameSpan, valueSpan, unknown: unclosed ?? (a.append && old?.unknown ? old.unknown : undefined) });
  }

  // ---- the training command

  private detectTraining(fields: ExpandedWord[], cmd: Cmd): void {
    if (!fields.length) return;
    fields = evalCommandWords(fields);
    // A program whose folder is not known still has its name (`"${ENV}/venv/bin/python"`).
    const names = fields.map((f) => commandName(f));
    if (/^(llamafactory-cli|lmf)$/.test(names[0]) && fields[1]?.text === 'train' && !fields[1].segs.some((s) => s.unknown)) {
      const inBranch = this.frames.find((f) => f.kind !== 'loop' && f.kind !== 'group' && f.kind !== 'brace' && f.taken === undefined)?.line;
      const c = { head: fields[0], args: fields.slice(2), env: new Map(this.env), inBranch };
      if (this.recipeLaunches.length < MAX_RECIPE_LAUNCHES) this.recipeLaunches.push(c);
      if (fields[2] && !fields[2].segs.some((x) => x.unknown) && fields[2].text.startsWith('--')) this.training = { launcherFields: [], entry: fields[1], args: c.args, block: cmd.block, lastEnd: cmd.span.end, env: c.env, prefix: [], inLoop: this.frames.some((f) => f.kind === 'loop'), inBranch, recipeCli: c };
      return;
    }
    // The entry point: a `.py` word whose end is known (`$MEGATRON/pretrain_gpt.py` counts).
    const isEntry = (f: ExpandedWord): boolean => {
      const last = [...f.segs].reverse().find((s) => s.text !== '');
      return !f.passthrough && !!last && !last.unknown && /\.py$/.test(f.text) && !f.text.startsWith('-');
    };
    const found = (p: number, q: number, how: { module?: boolean; interpreter?: boolean } = {}): void => {
      const launcherFields = fields.slice(p, q), launcher = launcherChain(launcherFields, how.interpreter ?? false);
      // An evaluation or conversion after training (`torchrun -m evaluation.eval_mmlu` too) is not the run.
      if (laterStep(this.training?.launcher, launcher) || (how.module && this.training && laterModule(fields[q].text))) return;
      this.training = { launcher, launcherFields, entry: fields[q], ...(how.module ? { module: true } : {}), args: fields.slice(q + 1), block: cmd.block, lastEnd: cmd.span.end, env: new Map(this.env), prefix: names.slice(0, p), inLoop: this.frames.some((f) => f.kind === 'loop'), inBranch: this.frames.find((f) => f.kind !== 'loop' && f.kind !== 'group' && f.kind !== 'brace' && f.taken === undefined)?.line, order: this.order() };
    };
    const p = names.findIndex((n) => LAUNCHER_NAME.test(n));
    if (p >= 0) {
      // `python -m pkg.mod`, `torchrun -m pkg.mod`: the program is a module.
      const mod = moduleEntryIndex(fields, names, p);
      for (let q = p + 1; q < fields.length; q++) {
        if (q === mod || isEntry(fields[q])) {
          found(p, q, { module: q === mod });
          return;
        }
      }
    } else {
      // `$LAUNCHER train.py …`: the launcher from outside the script, or from arms of a branch (launcherWords).
      const q = fields.slice(0, 4).findIndex((f) => !launcherWords(f));
      const at = q > 0 ? entryAfterInterpreter(fields, q, isEntry, this.src) : undefined;
      if (at) return found(0, at.entry, { interpreter: at.interpreter });
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
  private fromString(f: ExpandedWord, outerLaunchers: ExpandedWord[], cmd: Cmd): void {
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
    const { mapField, mapLauncher } = remapper(f, block);
    let launcher = mapLauncher(t.launcher);
    if (outerLaunchers.length) {
      const outer = launcherChain(outerLaunchers);
      if (outer) {
        let last = outer;
        while (last.inner) last = last.inner;
        last.inner = launcher;
        launcher = outer;
      }
    }
    if (laterStep(this.training?.launcher, launcher)) return;
    const inBranch = t.inBranch ?? this.frames.find((f) => f.kind !== 'loop' && f.kind !== 'group' && f.kind !== 'brace' && f.taken === undefined)?.line;
    this.training = { ...t, launcher, launcherFields: [...outerLaunchers, ...t.launcherFields.map(mapField)], entry: mapField(t.entry), args: t.args.map(mapField), block, lastEnd: cmd.span.end, env: new Map(this.env), inLoop: t.inLoop || this.frames.some((f) => f.kind === 'loop'), inBranch, order: this.order() };
  }
}
