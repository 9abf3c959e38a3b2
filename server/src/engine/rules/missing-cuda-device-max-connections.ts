/**
 * missing-cuda-device-max-connections: TP/CP/SP without `CUDA_DEVICE_MAX_CONNECTIONS=1`, or FSDP with it.
 */
import { argOn, type MegatronModel } from '../formats/megatron/model';
import { defineRule } from './rule';

const BLACKWELL = ['b200', 'gb200-nvl72', 'gb300-nvl72'];

export default defineRule<MegatronModel>({
  id: 'missing-cuda-device-max-connections',
  severity: 'warning',
  formats: ['megatron-args', 'megatron-yaml', 'megatron-bridge'],
  docs: {
    summary: 'Tensor, context or sequence parallelism without `CUDA_DEVICE_MAX_CONNECTIONS=1` (before Blackwell), or FSDP with it.',
    why: 'Megatron overlaps TP/CP communication with computation by relying on the order in which kernels reach the GPU, which only holds with a single hardware work queue: `CUDA_DEVICE_MAX_CONNECTIONS=1` (needed on Hopper and earlier). FSDP needs the opposite: several queues, and Megatron stops when the variable is 1 ("FSDP always requires CUDA_DEVICE_MAX_CONNECTIONS value large than one"). In a shell script it must be exported to reach the training processes.',
    bad: '# shardwise: format=megatron-yaml world_size=8 hardware=h100-sxm\nENV_VARS:\n  NCCL_DEBUG: WARN\nMODEL_ARGS:\n  --tensor-model-parallel-size: 4\n  --sequence-parallel: true\n',
    good: '# shardwise: format=megatron-yaml world_size=8 hardware=h100-sxm\nENV_VARS:\n  CUDA_DEVICE_MAX_CONNECTIONS: 1\nMODEL_ARGS:\n  --tensor-model-parallel-size: 4\n  --sequence-parallel: true\n',
  },
  check(ctx) {
    const m = ctx.model;
    const p = ctx.plan;
    const env = m.args.env;
    // No environment in this file (a `--yaml-cfg` file, an override without `env_vars`): nothing to check.
    if (!p || !env) return;
    const cdmc = env.get('CUDA_DEVICE_MAX_CONNECTIONS');
    const fsdp = argOn(m, 'use_torch_fsdp2') || argOn(m, 'use_megatron_fsdp') || argOn(m, 'use_custom_fsdp');
    if (fsdp) {
      if (cdmc?.value === '1') {
        ctx.report({
          at: cdmc.span ?? cdmc.path,
          on: 'value',
          severity: 'error',
          message: 'FSDP needs several CUDA work queues, and `CUDA_DEVICE_MAX_CONNECTIONS` is 1: Megatron stops at startup ("FSDP requires CUDA_DEVICE_MAX_CONNECTIONS > 1 or unset"). Remove it or set it above 1 (e.g. 8).',
        });
      }
      return;
    }
    const needs = p.tp.value > 1 || p.cp.value > 1 || p.sp.value;
    if (!needs || BLACKWELL.includes(p.hardware.profile.id) || argOn(m, 'overlap_moe_expert_parallel_comm')) return;
    const what = [p.tp.value > 1 && `TP ${p.tp.value}`, p.cp.value > 1 && `CP ${p.cp.value}`, p.sp.value && 'sequence parallelism'].filter(Boolean).join(', ');
    if (!cdmc) {
      const script = ctx.doc.syntax === 'shell';
      ctx.report({
        at: p.tp.from.kind === 'written' ? p.tp.from.path : [],
        message: `${what} without \`CUDA_DEVICE_MAX_CONNECTIONS=1\`: on ${p.hardware.profile.id} Megatron's communication overlap depends on kernels running in the order they are issued, which needs a single CUDA work queue. ${script ? 'Add `export CUDA_DEVICE_MAX_CONNECTIONS=1` before the launch.' : 'Set `CUDA_DEVICE_MAX_CONNECTIONS: 1` in the environment of the run.'}`,
      });
    } else if (cdmc.value !== undefined && cdmc.value !== '1') {
      ctx.report({
        at: cdmc.span ?? cdmc.path,
        on: 'value',
        message: `${what} with \`CUDA_DEVICE_MAX_CONNECTIONS=${cdmc.value}\`: Megatron's TP/CP communication overlap needs it to be 1 on ${p.hardware.profile.id} (one CUDA work queue keeps kernels in issue order). Set it to 1.`,
      });
    } else if (!cdmc.exported) {
      ctx.report({
        at: cdmc.nameSpan ?? cdmc.span ?? cdmc.path,
        message: '`CUDA_DEVICE_MAX_CONNECTIONS=1` is set but not exported, so the training processes never see it. Write `export CUDA_DEVICE_MAX_CONNECTIONS=1`.',
      });
    }
  },
});
