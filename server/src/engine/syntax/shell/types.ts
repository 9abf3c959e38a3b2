/** Limits on hostile input and the shapes shared by the reader: the public ones (variables, launchers, the entry point) and the internal ones (tokens, written and expanded words, bindings, control-flow frames). */
import type { Span } from '../../types';
import type { SyntaxProblem } from '../sourcedoc';

/** `${…}` nested deeper than this is not read (and cannot exhaust the stack). */
export const MAX_NESTING = 64;
export const MAX_PROBLEMS = 20;
export const MAX_FRAMES = 200;
export const MAX_ITEMS = 10_000;
export const MAX_VALUE = 200_000;
export const WORK_BUDGET = 2_000_000;
export const MAX_SUBSCRIPT_DEPTH = 3;

// ---------------------------------------------------------------------------------------------
// Public shapes

/** A shell variable as it stands when the training command runs (the last assignment that reaches it). */
export interface ShellVar {
  name: string;
  /** The resolved value (arrays: the elements joined by spaces); undefined when it cannot be known. */
  value: string | undefined;
  /** Why the value cannot be known. */
  unknown?: string;
  /** Why the value is only assumed (a fallback of a variable the script does not set). */
  assumed?: string;
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

export type LauncherKind = 'torchrun' | 'torch.distributed.run' | 'torch.distributed.launch' | 'srun' | 'deepspeed' | 'mpirun' | 'accelerate' | 'python';

export interface LauncherArg {
  /** Numbers as numbers; undefined for an option given without a value. */
  value: string | number | undefined;
  unknown?: string;
  assumed?: string;
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
  /** Why its options may hold more than `args` (a word whose text is not known, `$EXTRA_ARGS`), when they may. */
  open?: string;
}

export interface EntryPoint {
  /** The resolved path (`$MEGATRON/pretrain_gpt.py` → `/opt/megatron/pretrain_gpt.py`, or as written when unknown). */
  path: string;
  span: Span;
  /** The entry is a module (`pkg.mod`, run as `python -m pkg.mod`): `path` is its dotted name. */
  module?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Tokens

export type Quote = 'none' | 'single' | 'double' | 'ansi';
export type Tri = boolean | undefined;

/** A run of text with one quoting: a bare run, `'…'`, `"…"` or `$'…'`. */
export interface Unit {
  span: Span;
  content: Span;
  quote: Quote;
}

export type Piece =
  | { t: 'lit'; text: string; src: number | undefined; span: Span; unit: Unit; quoted: boolean }
  | { t: 'param'; span: Span; name: string; index?: string; length?: boolean; indirect?: boolean; op?: string; arg?: Word; quoted: boolean; bad?: string }
  | { t: 'cmd'; span: Span; quoted: boolean; /** `<PATH TO the vocab>` written for the user to fill in, not run. */ placeholder?: true }
  | { t: 'arith'; span: Span; expr: string; quoted: boolean; bad?: boolean };

export interface Word {
  kind: 'word';
  span: Span;
  pieces: Piece[];
}

export interface ArrayLit {
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

export interface HereDoc {
  delim: string;
  strip: boolean;
  /** The delimiter was quoted: the body is literal text. */
  quoted: boolean;
  span: Span;
  body?: Span;
}

/** A redirection: its operator, the file descriptor written before it (`2>`), and the word it names (a file, or a here-document's delimiter). */
export type LexToken = { k: 'word'; w: Word } | { k: 'array'; a: ArrayLit } | { k: 'op'; op: string; span: Span } | { k: 'redir'; span: Span; hd?: HereDoc; op?: string; fd?: string; target?: Word };

/** Where flags are written: an array definition or a command line. */
export interface Block {
  kind: 'array' | 'command';
  span: Span;
  /** New flags may be written into it (closed, and written in the script itself, not in a string). */
  insertable: boolean;
}

/** A word as written in the script. */
export interface WrittenWord {
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
export interface Target {
  span: Span;
  quote: Quote;
  wrap: boolean;
  /** Reached through this variable. */
  via?: string;
}

/** A piece of an expanded word, with where it comes from. */
export interface Seg {
  text: string;
  /** Offset of text[0] when the text is the source character for character. */
  src?: number;
  ctx?: Unit;
  /** Read out of a string by a nested shell (`bash -c`): only edited inside that string. */
  nested?: boolean;
  span: Span;
  tok?: WrittenWord;
  /** Not split on whitespace. */
  quoted: boolean;
  unknown?: string;
  /** A value the context may override (a `${X:-8}` fallback of a variable the script does not set): why. */
  assumed?: string;
  /** The variable this unknown text expands, when it is one the script does not set. */
  unset?: string;
  /** The value of the script's variable this unknown text expands (the same one expanded twice is the same text). */
  binding?: Binding;
  /**
   * An array's elements that the arms of an undecided `if`/`case` set differently, each arm's known:
   * the words are one arm's (which, is not known). `quoted`: expanded as `"${A[@]}"` (one word per element).
   */
  choice?: { cond: string; arms: Seg[][][]; quoted?: boolean };
  /** The whole value of one variable expansion: how to edit it (null: not editable). */
  ref?: Target | null;
  defaultSpan?: Span;
  passthrough?: boolean;
  /** From a variable of an enclosing script (`bash -c`): located where it is expanded. */
  detached?: boolean;
}

/** One word after expansion. */
export interface ExpandedWord {
  text: string;
  segs: Seg[];
  /** The written word it was expanded from. */
  outer: WrittenWord;
  passthrough?: boolean;
}

export interface Binding {
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

export type Env = Map<string, Binding>;

export interface Frame {
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
  /** A function body: the bindings `local` shadowed in it, restored when it closes. */
  locals?: Map<string, Binding | undefined>;
  /** A subshell `( … )`: what its `cd` changed, restored when it closes. */
  restore?: Map<string, Binding | undefined>;
  undo: Map<string, Binding | undefined>;
  done: { vals: Map<string, Binding | undefined>; taken: Tri }[];
}

export interface Cmd {
  words: (Word | ArrayLit)[];
  span: Span;
  block: Block;
  test2?: (Word | string)[];
  heredocs?: HereDoc[];
  /** The files its standard output is written to (`> FILE`, `>| FILE`, `1> FILE`, `&> FILE`), as written. */
  outputs?: Word[];
  /** The other files it writes by a redirection (`>> FILE`, `2> FILE`). */
  written?: Word[];
}

/** A piece of a here-document's body after expansion: its text, where it is written, and how well it is known. */
export interface HeredocPiece {
  text: string;
  /** Where it is written in the body: the literal text itself (`exact`), or the whole expansion (`$GBS`). */
  span: Span;
  exact: boolean;
  unknown?: string;
  assumed?: string;
}

/** A file a command writes with a here-document as its whole content (`cat <<EOF > FILE`, `tee FILE <<EOF`). */
export interface HeredocWrite {
  /** The file, expanded (its text and where each part comes from). */
  file: ExpandedWord;
  body: HeredocPiece[];
  /** The body as written (between the line after `<<EOF` and the line `EOF`). */
  bodySpan: Span;
  /** The delimiter was quoted: the body is written as it stands. */
  quoted: boolean;
  /** The writing command. */
  span: Span;
  /** The command is in an arm of an `if`, `case` or `&&`/`||` whose condition is not known (the line of it). */
  inBranch?: number;
  inLoop?: boolean;
  /** The folder the command runs in (a relative file is found from it). */
  pwd: Binding | undefined;
  /** Its place among the commands the script runs (see Script.commands). */
  order: number;
}

export interface Training {
  launcher?: Launcher;
  launcherFields: ExpandedWord[];
  entry: ExpandedWord;
  /** The entry is a module the launcher runs (`python -m pkg.mod`, `torchrun -m pkg.mod`), not a file. */
  module?: boolean;
  args: ExpandedWord[];
  block: Block;
  /** End of the command's last word. */
  lastEnd: number;
  env: Env;
  /** The command's words before the launcher (`ssh`, `env`, `VAR=1`…), as base names ('' when unknown). */
  prefix?: string[];
  /** The command is inside a loop (it may run once per host). */
  inLoop?: boolean;
  /** The command is in an arm of an `if`, `case` or `&&`/`||` whose condition is not known (the line of it). */
  inBranch?: number;
  /** How many commands of the script ran before it (see Script.commands): the here-documents written before it are those of a lower order. */
  order?: number;
  /** `llamafactory-cli train --key value…`: with no recipe file the flags are the recipe, read by HfArgumentParser (src/llamafactory/hparams/parser.py@ff6d4d1:125-126, 156); the command's entry is the word `train`. */
  recipeCli?: RecipeCommand;
}

/** A `llamafactory-cli train <recipe> [key=value…]` command: its words after `train`, and the variables it runs with. */
export interface RecipeCommand {
  head: ExpandedWord;
  args: ExpandedWord[];
  env: Env;
  /** The command is in an arm of a branch whose condition is not known (the line of it). */
  inBranch?: number;
}

/** The most `llamafactory-cli train` commands one script is read for. */
export const MAX_RECIPE_LAUNCHES = 16;

export interface Ctx {
  problems: SyntaxProblem[];
  work: number;
  depth: number;
  lineOf(offset: number): number;
  /** Reads a sourced file (see ShellOptions.read); absent: sourced files are not read. */
  read?: (ref: string) => { text?: string; path?: string; why?: string };
  /** The path of the file being read (`${BASH_SOURCE[0]}`: a sourced file's own), when known. */
  path?: string;
  /** The path of the script that was run (`$0`), when known. */
  topPath?: string;
  /** Files sourced so far in this analysis (bounded). */
  sources?: number;
}
