/** The document: `parseShell` turns the training command into a flag map, and `ShellDoc` edits it in place and answers completion requests. */
import { applyEdits, LineIndex } from '../../text';
import type { Span, TextEdit } from '../../types';
import { type CompletionSite, type PathEdit, type SyntaxProblem, TreeDoc } from '../sourcedoc';
import { sameValue, toValue, type Entry, type MapNode, type Node, type ScalarNode } from '../tree';
import { type Allocation, readSbatch, slurmVars } from '../sbatch';
import { type ArrayLit, type Block, type Ctx, type EntryPoint, type Env, type ExpandedWord, type Launcher, MAX_PROBLEMS, type RecipeCommand, type Seg, type ShellVar, type Training, type Unit } from './types';
import { affinity, formatWord } from './edit-helpers';
import { assumedOf, isFlagText, locateRange, SAFE_WORD, splitFields, textOf, typedValue, underPlaceholder, union, unknownOf, wholeTok } from './expansion';
import { Script } from './evaluator';
import { normalizePath } from './substitution';
import { twiceThrough } from './duplicates';
import { type CommandLog, heredocConfig, type HeredocConfig } from './heredocs';
import type { OpenWord, SourcedFile } from './sourcing';
import { type EntryProgram, entryProgramOf } from './entry';

/** One flag of the training command with the words it was read from. */
export interface Flag {
  entry: Entry;
  field: ExpandedWord;
  /** Index of `=` in `--flag=value`, or -1. */
  eq: number;
  values: ExpandedWord[];
}

/** Where a word is written: a whole word of a block, or characters inside a quoted string. */
export type Place = { kind: 'tok'; span: Span; block: Block } | { kind: 'inner'; span: Span; ctx: Unit };

/** What reading a script may use beyond its text. */
export interface ShellOptions {
  /**
   * False for a flag that takes no value (argparse's `store_true`): a word after it whose text is not
   * known is then not its value. Undefined when the flag is not known.
   */
  takesValue?: (flag: string) => boolean | undefined;
  /** Reads a file the script sources (`source`, `.`), resolved as the host resolves references. */
  read?: (ref: string) => { text?: string; path?: string; why?: string };
  /** The script's own path, as the host knows it (`$0`, `${BASH_SOURCE[0]}`). */
  path?: string;
}


/**
 * A word that may be flags, a value or nothing: passed through, or with no text of its own (only
 * expansions whose text is not known), or a flag whose name is not all known (`--${X}-size`). A word
 * with text of its own that is no flag (`"VALID: 1 $DATA"`, `${DATA_ROOT}/shard_00001_text_document`)
 * is one value whatever its unknown parts.
 */
function unknownWord(w: ExpandedWord): boolean {
  if (w.passthrough) return true;
  const first = w.segs.find((s) => s.text !== '');
  if (!first) return false;
  if (first.unknown) return w.segs.every((s) => s.unknown || s.text === '');
  if (!w.text.startsWith('-')) return false;
  const eq = w.text.indexOf('=');
  let off = 0;
  for (const s of w.segs) {
    if (s.unknown) return eq < 0 || off < eq;
    off += s.text.length;
  }
  return false;
}

export function parseShell(text: string, lines = new LineIndex(text), options: ShellOptions = {}): ShellDoc {
  const problems: SyntaxProblem[] = [];
  const ctx: Ctx = { problems, work: 0, depth: 0, lineOf: (o) => lines.position(o).line + 1, read: options.read, path: options.path, topPath: options.path, sources: 0 };
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
    return new ShellDoc(text, lines, undefined, problems, new Map(), undefined, undefined, undefined, [], [], sbatch, options);
  }
  const t = script.training;
  let flags: Flag[] = [];
  const open: OpenWord[] = [...script.opened];
  const unsure: Entry[] = [];
  let ordered: Entry[] = [];
  let root: MapNode | undefined;
  if (t) {
    const g = groupFlags(text, t.args, options);
    flags = g.flags;
    open.push(...g.open);
    unsure.push(...g.unsure);
    ordered = g.entries;
    const entries = ordered;
    const all = [...entries.map((e) => e.span), t.block.span];
    root = { kind: 'map', span: union(all), entries, flow: false };
    const last = new Map<string, Entry>();
    for (const e of entries) last.set(e.key, e);
    // Where the flag's word is written (an array's element, or the command's own word).
    const blockOf = new Map(flags.map((fl) => [fl.entry, fl.field.segs.find((g) => g.tok)?.tok?.block ?? fl.field.outer.block]));
    for (const e of entries) {
      const winner = last.get(e.key)!;
      if (winner === e || problems.length >= MAX_PROBLEMS * 2) continue;
      const expandedTwice = winner.keySpan.start === e.keySpan.start;
      const line = lines.position(winner.keySpan.start).line + 1;
      const same = sameValue(e.value, winner.value);
      // A later block (another array, the command line) setting what an earlier one set is how
      // scripts override a shared set of flags: said, not warned about.
      const layered = blockOf.get(e) !== blockOf.get(winner);
      problems.push({
        code: 'duplicate-key',
        key: e.key,
        severity: same || (layered && !expandedTwice) ? 'information' : 'warning',
        message: expandedTwice
          ? twiceThrough(text, lines, e.key, same)
          : same
            ? `\`${e.key}\` is passed twice with the same value (again on line ${line}); argparse keeps the last one, so nothing changes. One of them can go.`
            : layered
              ? `\`${e.key}\` is passed again later (line ${line}), and argparse keeps the later value: this one is overridden. If that is meant, nothing to do; otherwise remove one.`
              : `\`${e.key}\` is passed twice; argparse keeps the last one (line ${line}) and silently ignores this one. Remove one of them.`,
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
    if (!unknown && assumedOf(b)) v.assumed = assumedOf(b);
    if (b.kind === 'array' && !unknown) v.items = b.items.map(textOf);
    if (b.defaultSpan) v.defaultSpan = b.defaultSpan;
    vars.set(name, v);
  }
  const entrypoint = t ? { path: t.entry.text, span: locateRange(t.entry, 0, t.entry.text.length).span, ...(t.module ? { module: true } : {}) } : undefined;
  return new ShellDoc(text, lines, root, problems, vars, t?.launcher, entrypoint, t, flags, script.arrays, sbatch, options, open, script.sourced, new Set(unsure), script.recipeLaunches, script.log);
}

/**
 * The training command's words as flags: `--flag value`, `--flag=value`, `--flag v1 v2` (a list), a
 * bare flag. A word whose text is not known is a flag's value only right after a flag that needs one;
 * elsewhere it leaves the set open, unless it stands for the arms of an undecided branch whose words
 * are all known: flags every arm passes alike are read as passed, the others as not known, and a flag
 * no arm passes is known to be absent.
 */
function groupFlags(text: string, args: readonly ExpandedWord[], options: ShellOptions): { flags: Flag[]; open: OpenWord[]; unsure: Entry[]; entries: Entry[] } {
  const flags: Flag[] = [];
  const open: OpenWord[] = [];
  const unsure: Entry[] = [];
  // Every flag in the order argparse reads them (the last of a repeated flag wins).
  const entries: Entry[] = [];
  for (let i = 0; i < args.length; i++) {
    const f = args[i];
    if (unknownWord(f)) {
      const choice = f.segs.length === 1 ? f.segs[0].choice : undefined;
      const arms = choice ? fromChoice(text, choice, options) : undefined;
      if (arms) {
        unsure.push(...arms);
        entries.push(...arms);
      }
      // Not a value (the word before it is not a flag that still needs one): flags, a value or nothing.
      else open.push({ span: locateRange(f, 0, f.text.length).span, reason: f.segs.find((x) => x.unknown)?.unknown ?? 'its text is not known' });
      continue;
    }
    if (!isFlagText(f.text)) continue;
    const eq = f.text.startsWith('--') ? f.text.indexOf('=') : -1;
    if (eq > 2) {
      const k = locateRange(f, 0, eq);
      const value = scalarOf(text, f, eq + 1, f.text.length);
      flags.push({ entry: mkEntry(f.text.slice(0, eq), k.span, value), field: f, eq, values: [] });
      entries.push(flags[flags.length - 1].entry);
      continue;
    }
    const values: ExpandedWord[] = [];
    let j = i + 1;
    // A word whose text is unknown is the flag's value only where the flag still needs one (right
    // after it, unless it takes none); after its values it may be flags or nothing, never another value.
    if (j < args.length && unknownWord(args[j])) {
      // Any number of words (`"$@"`, an array from outside) is the value only of a flag known to take one.
      const takes = options.takesValue?.(f.text);
      if (args[j].passthrough ? takes === true : takes !== false) values.push(args[j++]);
    } else while (j < args.length && !unknownWord(args[j]) && !isFlagText(args[j].text)) values.push(args[j++]);
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
    entries.push(flags[flags.length - 1].entry);
    i = j - 1;
  }
  return { flags, open, unsure, entries };
}

/**
 * The flags of the arms of an undecided branch (see groupFlags), as entries that are read but never
 * edited; undefined when an arm's words are not all known (the set stays open).
 */
function fromChoice(text: string, choice: NonNullable<ExpandedWord['segs'][number]['choice']>, options: ShellOptions): Entry[] | undefined {
  if (choice.arms.length > 16) return undefined;
  const perArm: Map<string, Entry>[] = [];
  for (const arm of choice.arms) {
    const out: (Seg | null)[] = [];
    for (const item of arm) {
      out.push(null);
      for (const seg of item) out.push({ ...seg, quoted: !!choice.quoted || !!seg.unknown });
    }
    const tok = { span: { start: 0, end: 0 }, role: 'arg' as const, literal: false, quote: 'none' as const };
    const g = groupFlags(text, splitFields(out, tok), options);
    if (g.open.length || g.unsure.length) return undefined;
    perArm.push(new Map(g.flags.map((fl) => [fl.entry.key, fl.entry])));
  }
  const keys = new Set(perArm.flatMap((m) => [...m.keys()]));
  const entries: Entry[] = [];
  for (const key of keys) {
    const seen = perArm.map((m) => m.get(key));
    const first = seen.find((e): e is Entry => !!e)!;
    const same = seen.every((e) => e && JSON.stringify(toValue(e.value)) === JSON.stringify(toValue(first.value)));
    if (same) {
      entries.push(first);
      continue;
    }
    const why = seen.every((e) => e) ? `its value depends on which arm of ${choice.cond} runs` : `it is passed only by some arms of ${choice.cond}`;
    const raw = text.slice(first.value.span.start, first.value.span.end);
    entries.push({ ...first, value: { kind: 'scalar', span: first.value.span, value: raw, style: 'word', raw, unknown: why } });
  }
  return entries;
}

export function mkEntry(key: string, keySpan: Span, value: Node): Entry {
  const span = value.span.start >= keySpan.start ? { start: keySpan.start, end: Math.max(keySpan.end, value.span.end) } : keySpan;
  return { key, keySpan, value, span };
}

export function scalarOf(text: string, f: ExpandedWord, a: number, b: number): ScalarNode {
  const loc = locateRange(f, a, b);
  const t = f.text.slice(a, b);
  const node: ScalarNode = { kind: 'scalar', span: loc.span, value: loc.unknown ? t : typedValue(t), style: 'word', raw: text.slice(loc.span.start, loc.span.end) };
  if (loc.unknown) node.unknown = loc.unknown;
  else if (loc.assumed) node.assumed = loc.assumed;
  return node;
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
    readonly options: ShellOptions = {},
    /**
     * Words of the training command whose text is not known and that are no flag's value, and other
     * places (a `source` that was not read, an `eval` of unknown text) that may add flags: the flag
     * set is closed only when this is empty.
     */
    readonly open: readonly OpenWord[] = [],
    /** The files the script sources that were read (their paths), and the ones that could not be. */
    readonly sourced: readonly SourcedFile[] = [],
    /** Flags read from the arms of an undecided branch: never edited (which arm runs is not known). */
    private readonly unsure: ReadonlySet<Entry> = new Set(),
    /** The script's `llamafactory-cli train <recipe>` commands. */
    readonly recipeCommands: readonly RecipeCommand[] = [],
    private readonly log?: CommandLog,
  ) {
    super();
    this.span = { start: 0, end: text.length };
    // Findings about the whole run go on the launcher word (`torchrun`), else the entry point.
    this.anchor = launcher?.span ?? entrypoint?.span;
  }

  readonly anchor: Span | undefined;

  private program?: EntryProgram;

  /** The Accelerate config the training command's `accelerate launch` names (`--config_file`), with its launcher, when the name is known text (or known under a placeholder folder). */
  accelerateConfig(): { ref: string; span: Span; launcher: Launcher; open?: string } | undefined {
    let l = this.launcher;
    while (l && l.kind !== 'accelerate') l = l.inner;
    const arg = l?.args.get('--config_file') ?? l?.args.get('--config-file');
    if (!l || !arg || arg.assumed || typeof arg.value !== 'string' || !arg.value.trim()) return undefined;
    const ref = arg.unknown ? underPlaceholder(arg.value, arg.unknown) : arg.value.trim();
    if (!ref) return undefined;
    // Whether this is every way the script launches it: options it does not show, a command in one arm of
    // a branch the script does not decide, or a path under a placeholder folder (a guess at the file).
    const branch = this.training?.inBranch;
    const placeholder = arg.unknown ? `under the folder left as a placeholder in \`${arg.value.trim()}\`, taken to be \`${ref}\` here` : undefined;
    const open = l.open ? `among the options it does not show (${l.open})` : branch !== undefined ? `in the arms of the branch on line ${branch}, of which this reader follows one` : placeholder;
    return { ref, span: arg.span, launcher: l, ...(open ? { open } : {}) };
  }

  /** The here-document the training command reads as its DeepSpeed config (`cat <<EOF > $ds_json` … `--deepspeed_config $ds_json`), if one does. */
  heredocConfig(): HeredocConfig | undefined {
    return heredocConfig(this.training, this.flags, this.log, this.unsure, (o) => this.lines.position(o).line + 1);
  }

  /** The `llamafactory-cli train --key value…` command whose flags are the recipe, when the training command is one. */
  recipeCli(): RecipeCommand | undefined {
    return this.training?.recipeCli;
  }

  /** The training command's words after the entry point, and the line of the undecided branch it is in, if any. */
  trainingArgs(): { args: readonly ExpandedWord[]; inBranch?: number } | undefined {
    return this.training && { args: this.training.args, inBranch: this.training.inBranch };
  }

  /**
   * A Hydra launch (NeMo's entry scripts): the config the training command names (`--config-name` /
   * `-cn`, in `--config-path` / `-cp`, which Hydra takes relative to the entry script), and the keys
   * its `key=value` words override (`+key=`, `++key=` too), each with its value when the text is known.
   * `open` when words whose text is not known may override more.
   */
  hydraConfig(): { name: string; span: Span; folder?: string; overrides: Map<string, string | undefined>; open?: string } | undefined {
    const entries = this.root?.entries ?? [];
    const known = (keys: string[]) => {
      const e = entries.find((x) => keys.includes(x.key));
      return e && e.value.kind === 'scalar' && typeof e.value.value === 'string' && !this.unsure.has(e) ? { text: e.value.value.trim(), span: e.value.span } : undefined;
    };
    const name = known(['--config-name', '-cn']);
    if (!name || !name.text || /[$`*?]/.test(name.text)) return undefined;
    const folder = known(['--config-path', '-cp']);
    const overrides = new Map<string, string | undefined>();
    let open: string | undefined;
    for (const w of this.training?.args ?? []) {
      const lead = w.segs.find((x) => x.text !== '');
      const literal = lead && !lead.unknown ? lead.text : '';
      const m = /^\+{0,2}([A-Za-z_][\w.-]*)=/.exec(literal);
      if (m && !w.text.startsWith('-')) overrides.set(m[1], unknownWord(w) || w.segs.some((x) => x.unknown) ? undefined : w.text.slice(w.text.indexOf('=') + 1));
      else if (unknownWord(w)) open ??= 'words whose text is not known may override more keys';
    }
    return { name: name.text, span: name.span, folder: folder?.text && !/[$`*?]/.test(folder.text) ? folder.text : undefined, overrides, ...(open ? { open } : {}) };
  }

  /**
   * The text of the program the training command runs, when the host can read it (see
   * `entryProgramOf`). `missing` when the host looked and found nothing; undefined when it cannot
   * look (no host, a name not known).
   */
  entryProgram(): { text: string; path?: string; ref?: string; root?: string } | { missing: true } | undefined {
    this.program ??= entryProgramOf(this);
    const { text, path, ref, root, missing } = this.program;
    return text !== undefined ? { text, path, ref, ...(root !== undefined ? { root } : {}) } : missing ? { missing: true } : undefined;
  }

  /**
   * Where a path the training command names is looked for: a relative one from the folder a `cd`
   * before the command leads to (`cd "$(dirname "$0")/../sft"; deepspeed main.py`), undefined when
   * the script changes to a folder that is not known; as written otherwise.
   */
  launchRef(ref: string): string | undefined {
    if (ref.startsWith('/') || ref.startsWith('$')) return ref;
    const cwd = this.workingDir;
    if (!cwd) return ref;
    return cwd.unknown || cwd.text === undefined ? undefined : normalizePath(`${cwd.text}/${ref}`);
  }

  /** The program's text, when it was found (see `entryProgram`), with the reference it was read by (and, for a module, the folder its package was found in). */
  entryText(): { text: string; path?: string; ref?: string; root?: string } | undefined {
    const p = this.entryProgram();
    return p && 'text' in p ? p : undefined;
  }

  /**
   * The entries of a `:`-separated path variable (PYTHONPATH) as the training command gets it: the
   * known text of each, or why an entry is not known. What the variable held before the script
   * (`$PYTHONPATH` itself) is left out. Empty when the script does not export the variable.
   */
  pathEntries(name: string): { text?: string; unknown?: string }[] {
    const b = this.training?.env.get(name);
    if (!b || !b.exported || b.kind !== 'scalar') return [];
    const out: { text?: string; unknown?: string }[] = [];
    let text = '';
    let unknown: string | undefined;
    let inherited = false;
    const flush = (): void => {
      if (unknown && !inherited) out.push({ unknown });
      else if (!unknown && text) out.push({ text });
      text = '';
      unknown = undefined;
      inherited = false;
    };
    for (const s of b.segs) {
      if (s.unknown) {
        unknown ??= s.unknown;
        if (s.unset === name) inherited = true;
        continue;
      }
      const parts = s.text.split(':');
      parts.forEach((p, i) => {
        if (i > 0) flush();
        text += p;
      });
    }
    flush();
    return out.slice(0, 32);
  }

  /**
   * The folder the training command starts in when the script changes to one (`cd DIR` before it):
   * its path (relative ones to the folder the script starts in), or why it is not known. Undefined
   * when the script does not change folder.
   */
  get workingDir(): { text?: string; unknown?: string } | undefined {
    const b = this.training?.env.get('PWD');
    if (!b) return undefined;
    return b.unknown || b.kind !== 'scalar' ? { unknown: b.unknown ?? 'the folder the command starts in is not known' } : { text: b.segs.map((x) => x.text).join('') };
  }

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
      const one = parseShell(text, undefined, this.options).edit([e]);
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
    if ([...this.unsure].some((u) => u.key === key)) return undefined;
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
  private unitOf(f: ExpandedWord): Place | undefined {
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
