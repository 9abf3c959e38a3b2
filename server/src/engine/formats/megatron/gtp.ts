/**
 * Generalized tensor parallelism (GTP, Megatron Core 0.19 on): each weight is cut into
 * `--tensor-parallel-num-weight-shards` shards over TP and an extra rematerialization factor
 * (shards / TP; the same for the expert layers over expert TP). Megatron-LM's argument checks refuse
 * several settings when either factor is above 1 (validate_args, training/arguments.py@core_v0.19.0:1476-1547,
 * the same at d98e8a6:1516-1587). Checks that depend on the GPU architecture, the installed
 * libraries or the environment's CUDA-graph priority are not made here.
 */
import { argAbsent, argNum, argOff, argOn, argValue, expertTpSize, MLM_FLAG_FORMATS, parallelSize, type MegatronModel } from './model';
import type { ArgCheck } from './checks';

/** shards / size when the shards are written and a multiple of a known size (a size they do not divide is refused on its own). */
function factor(m: MegatronModel, shardsDest: string, size: number | undefined): number | undefined {
  const shards = argNum(m, shardsDest);
  return shards !== undefined && size !== undefined && size > 0 && shards % size === 0 ? shards / size : undefined;
}

/** Some rematerialization factor is above 1 as written: of the dense layers over TP, or of the expert layers over expert TP (TP when unset). */
export function gtpOn(m: MegatronModel): boolean {
  return (factor(m, 'tensor_parallel_num_weight_shards', parallelSize(m, 'tensor_model_parallel_size')) ?? 1) > 1 || (factor(m, 'expert_tensor_parallel_num_weight_shards', expertTpSize(m)) ?? 1) > 1;
}

const GTP = 'generalized tensor parallelism (`--tensor-parallel-num-weight-shards` or `--expert-tensor-parallel-num-weight-shards` above the TP size)';
const check = (c: Omit<ArgCheck, 'formats' | 'since'>): ArgCheck => ({ ...c, formats: MLM_FLAG_FORMATS, since: '0.19.0' });

export const GTP_CHECKS: ArgCheck[] = [
  check({
    when: (m) => (argValue(m, 'fp4') && argOff(m, 'fp4_param_gather') && gtpOn(m) ? 'fp4' : undefined),
    message: () => `\`--fp4-format\` with ${GTP} and without \`--fp4-param-gather\`: the weight shards are all-gathered as NVFP4, and Megatron-LM stops at startup ("GTP (--tensor-parallel-num-weight-shards / --expert-tensor-parallel-num-weight-shards > 1) with --fp4-format requires --fp4-param-gather"). Add \`--fp4-param-gather\`.`,
  }),
  check({
    when: (m) => (argOn(m, 'ddp_average_in_collective') && gtpOn(m) ? 'ddp_average_in_collective' : undefined),
    message: () => `\`--ddp-average-in-collective\` with ${GTP}: Megatron-LM stops at startup ("GTP requires --ddp-average-in-collective off (the default)"). Drop \`--ddp-average-in-collective\`.`,
  }),
  check({
    when: (m) => {
      const format = argAbsent(m, 'ckpt_format') ? 'torch_dist' : argValue(m, 'ckpt_format');
      return typeof format === 'string' && format !== 'torch' && format !== 'torch_dist' && gtpOn(m) ? 'ckpt_format' : undefined;
    },
    message: (m) => `\`--ckpt-format ${String(argValue(m, 'ckpt_format'))}\` with ${GTP}: Megatron-LM stops at startup ("GTP supports only --ckpt-format 'torch' (legacy) or 'torch_dist'"). Use \`--ckpt-format torch_dist\` (the default).`,
  }),
  check({
    when: (m) => (argOn(m, 'dist_ckpt_optim_fully_reshardable') && argOn(m, 'distrib_optim_fully_reshardable_mem_efficient') && gtpOn(m) ? 'distrib_optim_fully_reshardable_mem_efficient' : undefined),
    message: () => `\`--distrib-optim-fully-reshardable-mem-efficient\` with \`--dist-ckpt-optim-fully-reshardable\` and ${GTP}: Megatron-LM stops at startup ("GTP does not support the distributed-optimizer fully-reshardable + mem-efficient checkpoint mode"). Drop one of the two.`,
  }),
  check({
    // The mxfp8 recipe (given; the default is `delayed`) keeps no bf16 weight under GTP.
    when: (m) => (argValue(m, 'fp8_recipe') === 'mxfp8' && argOff(m, 'fp8_param_gather') && gtpOn(m) ? 'fp8_recipe' : undefined),
    message: () => `\`--fp8-recipe mxfp8\` with ${GTP} and without \`--fp8-param-gather\`: the optimizer must keep the FP8 weight shard, and Megatron-LM stops at startup ("GTP + mxfp8 requires --fp8-param-gather"). Add \`--fp8-param-gather\` and \`--reuse-grad-buf-for-mxfp8-param-ag\`.`,
  }),
  check({
    when: (m) => (argValue(m, 'fp8_recipe') === 'mxfp8' && argOn(m, 'fp8_param_gather') && argOff(m, 'reuse_grad_buf_for_mxfp8_param_ag') && gtpOn(m) ? 'fp8_param_gather' : undefined),
    message: () => `\`--fp8-param-gather\` with \`--fp8-recipe mxfp8\` and ${GTP}, without \`--reuse-grad-buf-for-mxfp8-param-ag\`: MXFP8 parameters cannot be placed in the parameter buffer, so their all-gather must reuse the gradient buffer, and Megatron-LM stops at startup ("GTP + mxfp8 + --fp8-param-gather requires --reuse-grad-buf-for-mxfp8-param-ag"). Add \`--reuse-grad-buf-for-mxfp8-param-ag\`.`,
  }),
  {
    // New in 0.20 (arguments.py@d98e8a6:1590-1595): the NVLS rematerialization pools are registered as symmetric windows.
    ...check({
      when: (m) => {
        const remat = argOn(m, 'gtp_remat_nccl_ub') ? 'gtp_remat_nccl_ub' : argOn(m, 'gtp_expert_remat_nccl_ub') ? 'gtp_expert_remat_nccl_ub' : undefined;
        return remat && argOn(m, 'disable_symmetric_registration') && gtpOn(m) ? 'disable_symmetric_registration' : undefined;
      },
      message: (m) => `\`--disable-symmetric-registration\` with \`${argOn(m, 'gtp_remat_nccl_ub') ? '--gtp-remat-nccl-ub' : '--gtp-expert-remat-nccl-ub'}\` and ${GTP}: the rematerialization buffers are registered as symmetric NCCL windows, and Megatron-LM stops at startup ("--gtp-remat-nccl-ub/--gtp-expert-remat-nccl-ub require symmetric window registration and cannot be combined with --disable-symmetric-registration"). Drop \`--disable-symmetric-registration\`, or the NCCL user-buffer flag.`,
    }),
    since: '0.20.0',
  },
];
