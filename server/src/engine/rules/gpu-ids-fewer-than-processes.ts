/**
 * gpu-ids-fewer-than-processes: `gpu_ids` makes fewer devices visible than processes per machine.
 */
import { MULTI_DEVICE } from '../formats/accelerate/format';
import type { AccelerateModel } from '../formats/accelerate/model';
import { src } from '../formats/accelerate/helpers';
import { defineRule } from './rule';

export default defineRule<AccelerateModel>({
  id: 'gpu-ids-fewer-than-processes',
  severity: 'warning',
  formats: ['accelerate'],
  docs: {
    summary: '`gpu_ids` lists fewer devices than the processes each machine starts.',
    why: '`gpu_ids` becomes `CUDA_VISIBLE_DEVICES` (or the vendor equivalent) and is never compared with the process count. (A multi-node DeepSpeed launch through DeepSpeed\'s own runner, `pdsh` or `nossh`, sets the visible devices per node itself.) Processes beyond the visible devices either crash on an invalid device ordinal or share a GPU, halving its memory and speed.',
    bad: 'distributed_type: MULTI_GPU\nnum_processes: 4\ngpu_ids: 0,1\n',
    good: 'distributed_type: MULTI_GPU\nnum_processes: 2\ngpu_ids: 0,1\n',
  },
  check(ctx) {
    const m = ctx.model;
    if (m.sagemaker || !m.distributedType || m.numProcesses === undefined || !(MULTI_DEVICE.includes(m.distributedType) || ['FSDP', 'DEEPSPEED', 'MEGATRON_LM'].includes(m.distributedType))) return;
    const gpuIds = m.view.str(['gpu_ids']);
    if (!gpuIds || gpuIds === 'all') return;
    const ids = gpuIds.split(',').filter((s) => s.trim() !== '');
    const perMachine = Math.floor(m.numProcesses / Math.max(1, m.numMachines));
    if (ids.length <= 1 && MULTI_DEVICE.includes(m.distributedType)) return; // multi-gpu-single-process reports it
    if (ids.length >= perMachine) return;
    // Multi-node DeepSpeed through DeepSpeed's own runner (pdsh, the default, or nossh): the runner is
    // given a hostfile and --num_gpus, and its per-node launch sets the visible devices to those
    // slots itself (deepspeed/launcher/launch.py), so `gpu_ids` does not limit the processes.
    const launcher = m.view.str(['deepspeed_config', 'deepspeed_multinode_launcher']) ?? 'pdsh';
    if (m.distributedType === 'DEEPSPEED' && m.numMachines > 1 && (launcher === 'pdsh' || launcher === 'nossh')) return;
    ctx.report({
      at: src(m, ['gpu_ids']),
      on: 'value',
      related: [{ at: src(m, ['num_processes']), on: 'entry', message: `num_processes is ${m.numProcesses} here` }],
      message: `\`gpu_ids: ${gpuIds}\` makes ${ids.length} device${ids.length === 1 ? '' : 's'} visible, but each machine starts ${perMachine} processes: the extra processes crash on a missing device or share one. List ${perMachine} ids, or lower \`num_processes\`.`,
    });
  },
});
