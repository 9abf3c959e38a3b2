/**
 * Files a script writes with a here-document (`cat <<EOF > FILE`, `cat > FILE <<-'EOF'`, `tee FILE <<EOF`):
 * the file as expanded, and the body as the shell writes it, each piece with where it is written and
 * whether its text is known. The commands the script runs are kept too (bounded), so that a file
 * that may change between its writing and the training command is not taken for what was written.
 */
import type { Span } from '../../types';
import type { Binding, Cmd, ExpandedWord, HeredocPiece, HeredocWrite, HereDoc, Piece, Seg, Training, Word } from './types';
import { baseName, originOf, textOf } from './expansion';

/** The most commands of one script kept to tell whether a written file is touched again. */
export const MAX_COMMANDS = 5_000;
/** The most here-document writes of one script kept. */
export const MAX_WRITES = 64;

/** Variables the shell sets to a new value at each use: two expansions of them are not the same text. */
const VOLATILE = /^(RANDOM|SRANDOM|SECONDS|EPOCHSECONDS|EPOCHREALTIME|BASHPID|LINENO|PPID)$/;

/** What noting a command needs from the evaluator. */
export interface CommandSite {
  /** Expands one word as the shell expands a redirection's file (no splitting). */
  expand(w: Word): ExpandedWord | undefined;
  /** Expands one piece of a here-document body (a parameter, a command substitution, arithmetic). */
  expandPiece(p: Piece, w: Word): Seg[];
  /** Reads a here-document's body as one word (expanded like a double-quoted string unless its delimiter was quoted). */
  bodyWord(hd: HereDoc): Word | undefined;
  inBranch: number | undefined;
  inLoop: boolean;
  pwd: Binding | undefined;
}

/** The files and here-document writes of a script's commands, in the order they run. */
export class CommandLog {
  readonly commands: LoggedCommand[] = [];
  readonly writes: HeredocWrite[] = [];
  /** Commands were left out (past MAX_COMMANDS): the places of later ones are not known. */
  overflow = false;

  /** Notes a command the script runs (not the training command): the words it names, and the file it writes a here-document to. */
  note(fields: readonly ExpandedWord[], cmd: Cmd, site: CommandSite): void {
    if (this.commands.length >= MAX_COMMANDS) {
      this.overflow = true;
      return;
    }
    const outputs = (cmd.outputs ?? []).flatMap((w) => site.expand(w) ?? []);
    const written = (cmd.written ?? []).flatMap((w) => site.expand(w) ?? []);
    this.commands.push({ words: fields, written: [...outputs, ...written] });
    const order = this.commands.length - 1;
    const hd = cmd.heredocs?.[cmd.heredocs.length - 1];
    if (!hd?.body || this.writes.length >= MAX_WRITES) return;
    const files = writtenFiles(fields, outputs);
    if (!files.length) return;
    const w = site.bodyWord(hd);
    if (!w) return;
    const body = bodyPieces(w, site);
    for (const file of files) this.writes.push({ file, body, bodySpan: hd.body, quoted: hd.quoted, span: cmd.span, inBranch: site.inBranch, inLoop: site.inLoop || undefined, pwd: site.pwd, order });
  }
}

/**
 * The files a command writes its here-document to, whole: `cat` (no other operand than `-`) to the
 * last file its output goes to; `tee` (not `-a`) to each of its files and its output's. Any other
 * command, or options that change the text, write something else.
 */
function writtenFiles(fields: readonly ExpandedWord[], outputs: readonly ExpandedWord[]): ExpandedWord[] {
  const head = fields[0];
  if (!head || head.segs.some((s) => s.unknown)) return [];
  const name = baseName(head.text);
  const rest = fields.slice(1);
  const out = outputs.length ? [outputs[outputs.length - 1]] : [];
  if (name === 'cat') return rest.every((f) => f.text === '-' && !f.segs.some((s) => s.unknown)) ? out : [];
  if (name !== 'tee') return [];
  const files: ExpandedWord[] = [];
  for (const f of rest) {
    const lead = f.segs.find((s) => s.text !== '');
    if (lead?.unknown) return [];
    if (f.text === '--') continue;
    if (f.text.startsWith('-') && f.text.length > 1) {
      // `-a` appends (the file then holds more than the body); `-i`, `-p` and their long forms change nothing written.
      if (!/^(-[ip]+|--ignore-interrupts|--output-error(=\S*)?)$/.test(f.text)) return [];
      continue;
    }
    files.push(f);
  }
  return [...files, ...out];
}

/** The body's pieces: literal text where it is written, and each expansion as one piece at its `$…`. */
function bodyPieces(w: Word, site: CommandSite): HeredocPiece[] {
  const out: HeredocPiece[] = [];
  for (const p of w.pieces) {
    if (p.t === 'lit') {
      out.push({ text: p.text, span: p.span, exact: p.src !== undefined && p.src === p.span.start && p.text.length === p.span.end - p.span.start });
      continue;
    }
    const segs = site.expandPiece(p, w);
    const piece: HeredocPiece = { text: textOf(segs), span: p.span, exact: false };
    const unknown = segs.find((s) => s.unknown)?.unknown;
    const assumed = segs.find((s) => s.assumed)?.assumed;
    if (unknown) piece.unknown = unknown;
    else if (assumed) piece.assumed = assumed;
    out.push(piece);
  }
  return out;
}

const bindingIds = new WeakMap<Binding, number>();
let nextBinding = 0;

/** A number for one value of a variable (its binding), the same each time it is asked. */
function bindingId(b: Binding): number {
  let id = bindingIds.get(b);
  if (id === undefined) bindingIds.set(b, (id = nextBinding++));
  return id;
}

/**
 * A word as a file name whose text may hold parts not known: the same signature means the same file
 * when each unknown part is the same value of a script's variable expanded twice, the same text of
 * an assignment, or a variable of the environment the script does not set (constant while it runs). Undefined when a part cannot be
 * compared (a value the shell changes at each use). `from`: the offset in the word's text to start at.
 */
export function fileSignature(w: ExpandedWord, from = 0): string | undefined {
  let sig = '';
  let off = 0;
  for (const s of w.segs) {
    const start = off;
    off += s.text.length;
    if (off <= from) continue;
    if (!s.unknown) {
      sig += s.text.slice(Math.max(0, from - start));
      continue;
    }
    if (from > start) return undefined;
    if (s.binding) sig += `\u0000var:${bindingId(originOf(s.binding))}\u0000`;
    else if (s.unset) {
      if (VOLATILE.test(s.unset)) return undefined;
      sig += `\u0000env:${s.unset}\u0000`;
    } else sig += `\u0000at:${s.span.start}:${s.span.end}\u0000`;
  }
  // `./ds.json` and `ds.json` name one file; so do `a//b` and `a/./b`.
  return sig.replace(/\/(\.?\/)+/g, '/').replace(/^(\.\/)+/, '');
}

/** A command the script runs: its words, and the files it writes by redirections. */
export interface LoggedCommand {
  words: readonly ExpandedWord[];
  written: readonly ExpandedWord[];
}

/** Commands that read the files they name and write none (beside their output): they leave a written file as it is. */
const READ_ONLY = /^(echo|printf|cat|ls|head|tail|grep|egrep|fgrep|wc|stat|file|diff|cmp|md5sum|sha1sum|sha256sum|du|realpath|readlink|dirname|basename|jq|test|\[)$/;

/** Whether a command may change the file: it writes it by a redirection, or names it (`…=FILE` too) and is not known to only read it. */
export function mayChange(c: LoggedCommand, sig: string): boolean {
  const is = (w: ExpandedWord): boolean => {
    const whole = fileSignature(w);
    return whole !== undefined && (whole === sig || whole.endsWith(`=${sig}`));
  };
  if (c.written.some(is)) return true;
  const head = c.words[0];
  const readOnly = !!head && !head.segs.some((s) => s.unknown) && READ_ONLY.test(baseName(head.text));
  return !readOnly && c.words.some(is);
}

/** The flags that pass a DeepSpeed config file: `deepspeed.add_config_arguments` (and its old `deepscale` names), and the Trainer's `--deepspeed FILE`. */
const CONFIG_FLAG = /^--(deepspeed[_-]config|deepscale[_-]config)$/;

/** A flag of the training command as the reader grouped it (document.ts), with the words it was read from. */
interface FlagWords {
  entry: { key: string; keySpan: Span; value: { kind: string; span: Span } };
  field: ExpandedWord;
  eq: number;
  values: ExpandedWord[];
}

/** The here-document the training command reads as its DeepSpeed config. */
export interface HeredocConfig {
  write: HeredocWrite;
  /** The flag that names the file (`--deepspeed_config`), and where it is written. */
  flag: string;
  flagSpan: Span;
  /** The file as the command names it (unknown parts as written). */
  ref: string;
  /** Why the body is only assumed to be what the command reads (written in one arm of a branch), if it is. */
  assumed?: string;
}

/**
 * The file the training command passes as its DeepSpeed config (the last such flag: argparse keeps
 * it), when a here-document writes it whole before the command runs and no command between the two
 * may change it (writes it, or names it and is not known to only read it). Only positive evidence: the same file, by the same
 * text or the same expansions (see fileSignature), found from the same folder.
 */
export function heredocConfig(training: Training | undefined, flags: readonly FlagWords[], log: CommandLog | undefined, unsure: ReadonlySet<unknown>, lineOf: (offset: number) => number): HeredocConfig | undefined {
  const order = training?.order;
  if (!training || order === undefined || !log?.writes.length) return undefined;
  let chosen: FlagWords | undefined;
  for (const f of flags) {
    const valued = f.eq >= 0 || f.values.length === 1;
    if ((CONFIG_FLAG.test(f.entry.key) || f.entry.key === '--deepspeed') && valued) chosen = f;
  }
  if (!chosen || unsure.has(chosen.entry)) return undefined;
  const word = chosen.eq >= 0 ? chosen.field : chosen.values[0];
  const sig = fileSignature(word, chosen.eq >= 0 ? chosen.eq + 1 : 0);
  if (!sig) return undefined;
  const write = [...log.writes].reverse().find((w) => w.order < order && fileSignature(w.file) === sig);
  if (!write) return undefined;
  // A relative name is found from the folder each command runs in: the same folder, by the same `cd`.
  if (!sig.startsWith('/') && write.pwd !== training.env.get('PWD')) return undefined;
  for (let i = write.order + 1; i < order; i++) if (log.commands[i] && mayChange(log.commands[i], sig)) return undefined;
  const ref = (chosen.eq >= 0 ? word.text.slice(chosen.eq + 1) : word.text).trim();
  const assumed = write.inBranch !== undefined ? `the here-document on line ${lineOf(write.span.start)} writes \`${ref}\` only in one arm of the branch on line ${write.inBranch}, which the script does not decide` : undefined;
  return { write, flag: chosen.entry.key, flagSpan: chosen.entry.keySpan, ref, ...(assumed ? { assumed } : {}) };
}
