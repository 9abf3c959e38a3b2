/**
 * missing-num-processes: a distributed config without `num_processes`.
 */
import type { AccelerateModel } from '../formats/accelerate/model';
import { defineRule } from './rule';

export default defineRule<AccelerateModel>({
  id: 'missing-num-processes',
  severity: 'information',
  formats: ['accelerate'],
  docs: {
    summary: 'A distributed config without `num_processes`.',
    why: 'Only `distributed_type: NO` defaults `num_processes` (to 1). For every other type the value stays -1 and `accelerate launch` stops with "You need to manually pass in `--num_processes` using this config yaml." unless the command line passes it. Scripts often do (a SLURM launcher computes it from the allocation), and the command line is not in the file, so this is a note.',
    bad: 'distributed_type: MULTI_GPU\nmixed_precision: bf16\n',
    good: 'distributed_type: MULTI_GPU\nmixed_precision: bf16\nnum_processes: 8\n',
  },
  check(ctx) {
    const m = ctx.model;
    if (m.sagemaker || !m.distributedType || m.distributedType === 'NO' || m.view.has(['num_processes'])) return;
    ctx.report({
      at: ['distributed_type'],
      message: `\`distributed_type: ${m.distributedType}\` with no \`num_processes\`: \`accelerate launch\` stops ("You need to manually pass in \`--num_processes\`") unless the command line gives \`--num_processes\`. Add \`num_processes\`, the total number of processes over all machines.`,
    });
  },
});
