/**
 * multi-gpu-single-process: a multi-device distributed type that will run on one device.
 */
import { MULTI_DEVICE } from '../formats/accelerate/format';
import type { AccelerateModel } from '../formats/accelerate/model';
import { src } from '../formats/accelerate/helpers';
import { defineRule } from './rule';

export default defineRule<AccelerateModel>({
  id: 'multi-gpu-single-process',
  severity: 'warning',
  formats: ['accelerate'],
  fixes: {
    'no-distribution': { applicability: 'unsafe', changes: 'the distributed backend' },
  },
  docs: {
    summary: 'A `MULTI_*` distributed type with a single process or a single GPU id on one machine.',
    why: 'With one process on one machine, `MULTI_GPU` only adds a process group and, before Accelerate 1.10, DDP wrapping around a single device (the `accelerate config` questionnaire refuses it and asks for "No distributed training"); from 1.10 a single process is not wrapped, so it is a note. With a single id in `gpu_ids` on one machine, `accelerate launch` stops: "Less than two GPU ids were configured and tried to run on on multiple GPUs." (0.17.x stops on any machine count, with a TypeError, unless the launch passes `--num_machines`.)',
    bad: 'distributed_type: MULTI_GPU\nnum_processes: 1\n',
    good: "distributed_type: 'NO'\nnum_processes: 1\n",
    fix: "Changes `distributed_type` to `'NO'`.",
    upstream: [
      { label: 'Accelerate v1.14.0, `commands/launch.py`: multi-GPU with fewer than two GPU ids', url: 'https://github.com/huggingface/accelerate/blob/v1.14.0/src/accelerate/commands/launch.py#L1254' },
    ],
  },
  check(ctx) {
    const m = ctx.model;
    if (m.sagemaker || !m.distributedType || !MULTI_DEVICE.includes(m.distributedType)) return;
    const gpuIds = m.view.str(['gpu_ids']);
    // 0.17.x compares the command line's `--num_machines` (None unless the launch passes it) with 1
    // before the config's value is merged (commands/launch.py@v0.17.0:796-804, fixed in 0.18.0).
    const typeError = ctx.atLeast('0.17.0') && !ctx.atLeast('0.18.0');
    if (m.numMachines > 1 && !typeError) return;
    // Counted as the launcher counts them: `len(gpu_ids.split(","))`, so `0,` is two items.
    const ids = gpuIds && gpuIds !== 'all' ? gpuIds.split(',') : undefined;
    const toNo = { kind: 'no-distribution', title: "Change to `distributed_type: 'NO'`", edits: [{ op: 'set' as const, path: ['distributed_type'], value: 'NO' }] };
    // commands/launch.py@v0.17.0: the check first appears (gpu_ids came in 0.13.0); before, one process runs.
    // The check reads the launcher's multi-device flag, which is MULTI_GPU alone up to 0.20.x (MULTI_XPU,
    // a type from 0.20.0, joins it in 0.21.0; commands/launch.py@v0.21.0).
    const checked = m.distributedType !== 'MULTI_XPU' || ctx.atLeast('0.21.0');
    if (ids && ids.length === 1 && ctx.atLeast('0.17.0') && checked) {
      ctx.report({
        at: src(m, ['gpu_ids']),
        on: 'value',
        severity: 'error',
        message: `\`${m.distributedType}\` with the single GPU id \`${gpuIds}\`: \`accelerate launch\` stops (${typeError ? 'a TypeError: 0.17.x compares `--num_machines`, unset unless the launch passes it, with 1' : '"Less than two GPU ids were configured"'}). List at least two ids (\`gpu_ids: 0,1\`), use \`all\`, or train on one device with \`distributed_type: 'NO'\`.`,
        fixes: [toNo],
      });
      return;
    }
    if (m.numProcesses === 1 && m.numMachines <= 1) {
      // From 1.10 a single process is not wrapped in DDP (`multi_device` needs more than one process, accelerator.py@v1.10.0:1802, state.py@v1.10.0:346).
      const unwrapped = ctx.atLeast('1.10.0');
      ctx.report({
        at: src(m, ['num_processes']),
        on: 'value',
        severity: unwrapped ? 'information' : undefined,
        message: `\`${m.distributedType}\` with \`num_processes: 1\` on one machine is not distributed: ${unwrapped ? 'it sets up a one-rank process group for nothing (from Accelerate 1.10 a single process gets no DDP wrapper)' : 'it pays for a process group and DDP wrapping around a single device'}. Set \`num_processes\` to the number of devices, or use \`distributed_type: 'NO'\`.`,
        fixes: [{ ...toNo, recommended: true }],
      });
    }
  },
});
