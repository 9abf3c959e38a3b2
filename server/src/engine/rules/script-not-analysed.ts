/**
 * script-not-analysed: a shell script that starts a Megatron-LM entry point through a command line
 * the straight-line evaluator could not follow, so nothing in it was checked.
 */
import type { ShellDoc } from '../syntax/shell';
import { defineRule } from './rule';

/** Megatron-LM's own entry points, named on a line that is not a comment. */
const ENTRY_LINE = /^(?![ \t]*#).*?\b(pretrain_(?:gpt|bert|t5|mamba|hybrid|retro|ict|vlm)\.py)\b/m;

export default defineRule({
  id: 'script-not-analysed',
  severity: 'information',
  about: 'unknowns',
  formats: 'all',
  unclaimed: true,
  docs: {
    summary: 'A script that starts a Megatron-LM entry point through a command Shardwise could not follow.',
    why: "Shardwise reads a launch script the way bash would, straight through: variables, arrays, `bash -c` and `eval` of one string. A command put together at run time in a way it does not follow (a loop or a function that appends to the command, `eval` of several words, flags read from a file) leaves it without the flags, so it checks nothing. Silence would look like a clean bill of health, so it says once that the script was not analysed and why. Writing the command out, or as a bash array, gets the checks back.",
    bad: '#!/bin/bash\nfor f in tp pp; do OPTS="$OPTS --$f 2"; done\neval torchrun --nproc_per_node 8 pretrain_gpt.py $OPTS\n',
    good: '#!/bin/bash\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --tensor-model-parallel-size 2 \\\n    --pipeline-model-parallel-size 2\n',
  },
  check(ctx) {
    // Only a script no format claimed: a launch script that was read has its own findings.
    if (ctx.format || ctx.doc.syntax !== 'shell') return;
    const s = ctx.doc as ShellDoc;
    const m = ENTRY_LINE.exec(s.text.length > 1_000_000 ? s.text.slice(0, 1_000_000) : s.text);
    if (!m) return;
    const start = m.index + m[0].length - m[1].length;
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
