/**
 * script-not-analysed: a shell script that starts a Megatron-LM entry point through a command line
 * the straight-line evaluator could not follow, so nothing in it was checked.
 */
import { UPSTREAM_ENTRY_NAMES } from '../formats/megatron/source';
import { LAUNCHER_NAME } from '../syntax/shell/expansion';
import type { ShellDoc } from '../syntax/shell';
import { defineRule } from './rule';
import { programImportsMegatron } from '../formats/megatron/script';

/** Megatron-LM's own entry points, named on a line that is not a comment. */
// Megatron-LM's own entry points (one list: formats/megatron/source.ts), named on a line that is not a comment.
/** Beside the launchers the reader knows (LAUNCHER_NAME): wrappers and shell words a line that runs an entry point may start with. */
const NOT_A_LAUNCHER = /^(env|exec|nohup|time|numactl|nsys|bash|sh|eval|sudo|singularity|apptainer|docker|echo|for|do|then|else|if|while|cmd|CMD|run|RUN)$/;
const ENTRY_LINE = new RegExp(`^(?![ \\t]*#).*?\\b(pretrain_(?:${UPSTREAM_ENTRY_NAMES})\\.py)\\b`, 'm');

export default defineRule({
  id: 'script-not-analysed',
  severity: 'information',
  about: 'unknowns',
  formats: 'all',
  unclaimed: true,
  docs: {
    summary: 'A script that starts a Megatron-LM entry point through a command Shardwise could not follow, or only partly.',
    why: "Shardwise reads a launch script the way bash would, straight through: variables, arrays, `bash -c` and `eval` of one string. A command put together at run time in a way it does not follow (a loop or a function that appends to the command, `eval` of several words, flags read from a file) leaves it without the flags, so it checks nothing. Silence would look like a clean bill of health, so it says once that the script was not analysed and why. Writing the command out, or as a bash array, gets the checks back. When the command was read but some of its words are not in the file (`$EXTRA_ARGS`, `\"$@\"`, an array from a file that was not read), those words may be any flags: the checks that need a flag to be absent (so that Megatron's default applies) are not made, and this is said once, at the first such word.",
    bad: '#!/bin/bash\nfor f in tp pp; do OPTS="$OPTS --$f 2"; done\neval torchrun --nproc_per_node 8 pretrain_gpt.py $OPTS\n',
    good: '#!/bin/bash\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --tensor-model-parallel-size 2 \\\n    --pipeline-model-parallel-size 2\n',
  },
  check(ctx) {
    if (ctx.format === 'megatron-args' && ctx.doc.syntax === 'shell') return partlyRead(ctx.doc as ShellDoc, (at, message) => ctx.report({ at, message }));
    // Otherwise only a script no format claimed: a launch script that was read has its own findings.
    if (ctx.format || ctx.doc.syntax !== 'shell') return;
    const s = ctx.doc as ShellDoc;
    const m = ENTRY_LINE.exec(s.text.length > 1_000_000 ? s.text.slice(0, 1_000_000) : s.text);
    if (!m) return;
    // A name is not a program: one that can be read and imports nothing of Megatron (a PyTorch
    // Lightning `pretrain_bert.py`) is another framework's, and a command read whole whose flags did
    // not make it a Megatron-LM launch was followed, not lost.
    const program = s.entrypoint ? s.entryText() : undefined;
    if (program && !programImportsMegatron(s, program.text)) return;
    // A file sourced and not read may have given the command more flags (a `params.sh` array): not followed whole.
    if (s.entrypoint && s.entrypoint.path.split('/').pop() === m[1] && !s.open.length && !s.sourced.some((x) => x.why !== undefined)) return;
    const start = m.index + m[0].length - m[1].length;
    // The program the line starts, when it is a launcher this reader does not know (MindSpore's `msrun`).
    const command = s.text.slice(s.text.lastIndexOf('\n', m.index) + 1, start).split(/&&|\|\||[;|(`{]/).pop() ?? '';
    const head = /^\s*(?:\w+=\S*\s+)*([A-Za-z][\w.-]*)\s/.exec(command)?.[1];
    const unknownLauncher = head && !LAUNCHER_NAME.test(head) && !NOT_A_LAUNCHER.test(head) ? head : undefined;
    if (unknownLauncher) {
      ctx.report({
        at: { start, end: start + m[1].length },
        message: `This script starts \`${m[1]}\` through \`${unknownLauncher}\`, a launcher Shardwise does not read (it reads torchrun, python, deepspeed, srun, mpirun and accelerate), so its flags and parallel layout were not checked.`,
      });
      return;
    }
    const why = /(^|[;&|({\s])eval\s/m.test(s.text)
      ? 'it runs the command through `eval` of text put together at run time'
      : s.entrypoint
        ? 'the flags it passes come from variables, files or loops whose values the script does not show'
        : 'the command that starts it is put together at run time (in a function, a loop or a variable run as a command)';
    ctx.report({
      at: { start, end: start + m[1].length },
      message: `This script starts \`${m[1]}\`, but Shardwise could not follow its command line: ${why}. Its flags and parallel layout were not checked. Write the command out (directly or as a bash array) to have them checked.`,
    });
  },
});

/** A launch script read whole but for words that may be any flags: said once, at the first. */
function partlyRead(s: ShellDoc, report: (at: { start: number; end: number }, message: string) => void): void {
  const first = s.open[0];
  if (!first) return;
  const more = s.open.length > 1 ? ` (and ${s.open.length - 1} more such place${s.open.length > 2 ? 's' : ''})` : '';
  report(first.span, `Part of the training command is not in this file: ${first.reason}${more}. Those words may be any flags, so the checks that need a flag to be absent (for Megatron's default to apply) are not made. Write the flags out in the script to have them checked.`);
}
