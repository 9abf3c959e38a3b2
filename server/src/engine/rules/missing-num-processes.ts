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
    why: 'Only `distributed_type: NO` defaults `num_processes` (to 1). For every other type the value stays -1 and `accelerate launch` stops with "You need to manually pass in `--num_processes` using this config yaml." unless the command line passes it. Scripts often do (a SLURM launcher computes it from the allocation), and the command line is not in the file, so this is a note. Before accelerate 0.34 the key has no default at all: the file fails to load for every type, `NO` included, and that is an error.',
    bad: 'distributed_type: MULTI_GPU\nmixed_precision: bf16\n',
    good: 'distributed_type: MULTI_GPU\nmixed_precision: bf16\nnum_processes: 8\n',
  },
  check(ctx) {
    const m = ctx.model;
    // Without `distributed_type` at all, missing-distributed-type tells the first stop.
    if (m.sagemaker || !ctx.doc.node(['distributed_type']) || m.view.has(['num_processes'])) return;
    // `num_processes: null` is not the missing key: the config loads None, not the -1 that the
    // launcher's message is for, and it counts the devices only when no config file is given
    // (commands/launch.py@v1.14.0), so None goes on to the first computation with it.
    const written = ctx.doc.node(['num_processes']);
    if (written) {
      if (written.kind !== 'scalar' || written.value !== null) return;
      if (m.view.has(['distributed_type']) && !m.distributedType) return;
      if (m.distributedType === 'NO') return;
      const type = m.distributedType ? `\`distributed_type: ${m.distributedType}\`` : 'A `distributed_type` with no value';
      ctx.report({
        at: ['num_processes'],
        on: 'value',
        message: `${type} with \`num_processes: null\`: the config loads None, which \`accelerate launch\` neither refuses with its message for a missing count nor replaces by the number of devices (it counts them only when no config file is given), so the launch fails where it first computes with it, unless the command line gives \`--num_processes\`. Write the total number of processes over all machines.`,
      });
      return;
    }
    // commands/config/config_args.py up to 0.33.x: `num_processes` is a dataclass field without a
    // default, and the loader never fills it, so building the config fails for every type, `NO`
    // included, whatever the command line says. 0.34.0 gives it the default -1 (1 for `NO`).
    if (!ctx.atLeast('0.34.0')) {
      ctx.report({
        at: ['distributed_type'],
        severity: 'error',
        message: 'This Accelerate config has no `num_processes`: before accelerate 0.34 the key has no default and loading the file fails (a missing-argument error), whatever the type and the command line. Add `num_processes`, the total number of processes over all machines.',
      });
      return;
    }
    // A misspelled type is invalid-value's; a YAML boolean is yaml-boolean-trap's.
    if (m.view.has(['distributed_type']) && !m.distributedType) return;
    if (m.distributedType === 'NO') return;
    const type = m.distributedType ? `\`distributed_type: ${m.distributedType}\`` : 'A `distributed_type` with no value';
    ctx.report({
      at: ['distributed_type'],
      message: `${type} with no \`num_processes\`: \`accelerate launch\` stops ("You need to manually pass in \`--num_processes\`") unless the command line gives \`--num_processes\`. Add \`num_processes\`, the total number of processes over all machines.`,
    });
  },
});
