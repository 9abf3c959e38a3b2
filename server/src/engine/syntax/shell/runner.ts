/**
 * What the evaluator does for simple commands beside following the training command: the builtins
 * that only change variables (`unset`, `read`), and the log of the commands run and the files they
 * write with here-documents (heredocs.ts).
 */
import { type ArrayLit, type Cmd, type ExpandedWord, type Seg, type Word } from './types';
import { WordExpander } from './expander';
import { Lexer } from './lexer';
import { CommandLog } from './heredocs';

export abstract class CommandRunner extends WordExpander {
  /** The commands run and the files written by here-documents, in order (the script's own only, not a `bash -c` string's or a sourced file's). */
  readonly log = new CommandLog();
  /** A nested script (`bash -c`, a sourced file): its text is not the file's. */
  protected abstract readonly sub: boolean;
  /** The line of the undecided branch the command being run is in, and whether it is in a loop. */
  protected abstract where(): { branch: number | undefined; loop: boolean };

  /** Notes a command the script runs (see CommandLog.note). */
  protected noteCommand(fields: readonly ExpandedWord[], cmd: Cmd): void {
    if (this.sub) return;
    const { branch, loop } = this.where();
    this.log.note(fields, cmd, {
      expand: (w) => this.expandWord(w, this.mkTok(w, 'assign'), 'assign')[0],
      expandPiece: (p, w) => {
        const out: (Seg | null)[] = [];
        this.expandPiece(p, w, this.mkTok(w, 'assign'), 'assign', out);
        return out.filter((x): x is Seg => x !== null);
      },
      bodyWord: (hd) => (hd.body ? new Lexer(this.src, hd.body.start, hd.body.end, () => undefined, true).readHeredoc(hd.quoted) : undefined),
      inBranch: branch,
      inLoop: loop,
      pwd: this.env.get('PWD'),
    });
  }

  /** The place of the command being run among the script's commands (undefined past the log's bound, or in a nested script). */
  protected order(): number | undefined {
    return this.sub || this.log.overflow ? undefined : this.log.commands.length - 1;
  }

  /** `unset NAME…`. */
  protected unset(args: readonly (Word | ArrayLit)[]): void {
    for (const w of args) {
      const n = w.kind === 'word' ? this.lit(w) : undefined;
      if (n && /^[A-Za-z_]\w*$/.test(n)) this.setVar(n, undefined);
    }
  }

  /** `read [-p prompt…] NAME…`: the names get values only the run knows. */
  protected read(args: readonly (Word | ArrayLit)[]): void {
    let skipNext = false;
    for (const w of args) {
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
  }
}
