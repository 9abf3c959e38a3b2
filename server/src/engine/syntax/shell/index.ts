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
 *   (bodies skipped as commands; a body `cat`/`tee` writes to a file is kept, expanded, with the
 *   commands run, so that the DeepSpeed config a training command names can be read: heredocs.ts),
 *   `unset`, `read`, `for` variables.
 * - unknowable values keep the text as written and say why (`unknown`): the environment, `$1`,
 *   `$@`, `$RANDOM`, `$(cmd)` and backticks, `${X/…}`-style transforms, `read`, loop variables.
 * - control flow is not run, with four cheap exceptions that cover launch scripts: a `case` on a known
 *   value and an `if`/`elif`/`&&`/`||` whose condition is a `[`/`[[`/`test` comparison of known values
 *   (`=`, `==` with globs, `!=`, `-eq`…, `-z`, `-n`, `!`, `&&`, `||`, `-a`, `-o`) take only the arm
 *   that runs. Otherwise every arm is read in text order, and when the arms disagree:
 *   - a scalar assigned differently on the possible paths (including "before the `if`" when there is
 *     no `else`) becomes unknown ("assigned differently in the branches of the `if` on line N"); a
 *     scalar assigned on one path only, with no other value before, keeps that value;
 *   - an array keeps the elements every path agrees on, then the arms' own (see certainty below).
 *   Loops run once, in text order; function bodies are read where they are defined.
 * - the training command: `torchrun`, `python -m torch.distributed.run|launch`, `python[3]`, `srun`,
 *   `deepspeed`, `mpirun`/`mpiexec`, chained (`srun … python …`), behind wrappers (`env`, `nsys`,
 *   `numactl`, `exec`, `VAR=1 cmd`), written directly or through variables
 *   (`$LAUNCHER "$MEGATRON/pretrain_gpt.py"`), and inside `bash -c "…"` / `sh -c` / `eval "…"`
 *   whose text is known (read again as a script, as the inner shell reads it, spans mapped back).
 *   The entry point is the first `.py` word after the launcher; everything after it is the argument
 *   list: `--flag value`, `--flag=value`, `--flag v1 v2 …` (nargs: a sequence node), bare boolean
 *   flags, negative numbers as values.
 * - `source FILE` / `. FILE`: a file the host reads (ShellOptions.read) runs in the script's shell, its
 *   values located where the script uses them; one it cannot read leaves what was set before it as an
 *   assumption and the arrays it could extend open (sourcing.ts). `$0`, `${BASH_SOURCE[0]}` (the host's
 *   path) and `$(dirname …)`, `$(cd … && pwd)`, `$(realpath …)`, `$(basename …)` over known words are
 *   worked out (substitution.ts).
 * - certainty: a `${X:-d}` fallback of a variable the script does not set is `assumed`; a word whose
 *   start is not known (or a flag whose name is not) may be flags, a value or nothing: it is a flag's
 *   value only right after a flag that still needs one, and otherwise opens the flag set
 *   (`ShellDoc.open`); an array the arms of an undecided branch set differently keeps each arm's
 *   words, so a flag no arm passes is still known to be absent.
 *
 * Deliberately not read: function calls (bodies are read once, in place, so `$1` inside is unknown),
 * loops more than once, `$(…)` output beyond the path commands above, brace expansion and globs,
 * `(( ))` commands beyond marking what they change as unknown, and entry points given as modules
 * (`python -m megatron…`), without `.py`, or held entirely in a variable from outside the script.
 * `sbatch <<EOF … EOF` (and `bash <<EOF`) is read as the script it submits. Edits refuse rather than
 * guess: values that are computed, unknown or assigned differently on different paths are not
 * changed, and new flags are only written into blocks of the script itself (not into `bash -c`
 * strings or `opts="…"` strings).
 *
 * Never throws; unterminated quotes, unclosed arrays, `$(`, `$((`, `${` and backticks are
 * `parse-error` problems on their opening token, and hostile input is bounded (nesting, array sizes,
 * value lengths, total expansion work).
 */
export { MAX_NESTING, type EntryPoint, type Launcher, type LauncherArg, type LauncherKind, type RecipeCommand, type ShellVar } from './types';
export { parseShell, ShellDoc, type ShellOptions } from './document';
export type { OpenWord, SourcedFile } from './sourcing';
