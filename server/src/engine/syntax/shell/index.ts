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
export { MAX_NESTING, type EntryPoint, type Launcher, type LauncherArg, type LauncherKind, type ShellVar } from './types';
export { parseShell, ShellDoc, type ShellOptions } from './document';
export type { OpenWord, SourcedFile } from './sourcing';
