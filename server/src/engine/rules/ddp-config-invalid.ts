/**
 * ddp-config-invalid: data-parallel gradient-buffer arguments that Megatron refuses when it wraps the
 * model for data parallelism (the DistributedDataParallelConfig it builds from the flags).
 *
 * - `--ddp-num-buckets` beside `--ddp-bucket-size`, or not above zero: asserted in
 *   megatron/training/training.py (get_model) from core_v0.12.0 (@core_v0.12.0:1004-1008) to core_v0.17.x
 *   (@core_v0.17.0:1451-1455); from core_v0.18.0 in DistributedDataParallelConfig.__post_init__
 *   (distributed_data_parallel_config.py@core_v0.18.0:260-262, @d98e8a6:275-277). From core_v0.13.0
 *   `--use-torch-fsdp2` builds a TorchFullyShardedDataParallelConfig instead, which never reads them
 *   (training.py@core_v0.13.0:1094-1097, @d98e8a6 get_megatron_ddp_config).
 * - `--ddp-param-name-patterns-for-fp32-local-accumulation` with gradients already reduced in fp32:
 *   DistributedDataParallelConfig.__post_init__ from core_v0.17.0 (@core_v0.17.0:213-217, @d98e8a6:269-273).
 *   validate_args turns `--accumulate-allreduce-grads-in-fp32` on for `--bf16` unless `--grad-reduce-in-bf16`
 *   is given or `--main-grads-dtype` is not fp32, and off with `--grad-reduce-in-bf16`
 *   (arguments.py@core_v0.17.0:988-1000, @d98e8a6:1203-1217).
 *
 * Made for Megatron-LM's formats, and for Megatron Bridge (whose DDP config runs Core's checks) the
 * bucket count not above zero from 0.18. The bucket checks are in the code that builds the model, which a
 * `--yaml-cfg` file reaches with its own values too; the pattern check rests on validate_args'
 * bf16 switch, which a `--yaml-cfg` file does not run, so it is left out there.
 */
import { argAbsent, argGiven, argNum, argOff, argOn, argValue, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { runChecks, type ArgCheck } from '../formats/megatron/checks';
import type { RuleContext } from './rule';
import { defineRule } from './rule';

const STOPS = 'Megatron-LM stops when it wraps the model for data parallelism';

/**
 * The job builds Megatron's DistributedDataParallelConfig from the flags: a training run (a serving,
 * evaluation, export or conversion script builds its model with `wrap_with_ddp=False`,
 * tools/run_text_generation_server.py@core_v0.15.0:158), with anything but PyTorch FSDP2, which from 0.13
 * builds a config of its own (0.12 checks the buckets with FSDP2 too).
 */
const ddpConfig = (m: MegatronModel, ctx: RuleContext<MegatronModel>): boolean => !m.args.notTraining && (argOff(m, 'use_torch_fsdp2') || !ctx.atLeast('0.13.0'));

/**
 * Gradients reduced in fp32 as validate_args leaves them: with `--bf16`, on unless `--grad-reduce-in-bf16`
 * (which turns them off even when written) and on by default while `--main-grads-dtype` is fp32;
 * otherwise as `--accumulate-allreduce-grads-in-fp32` is written.
 */
function fp32Reduction(m: MegatronModel): boolean {
  if (!argOn(m, 'bf16')) return argOn(m, 'accumulate_allreduce_grads_in_fp32');
  if (!argOff(m, 'grad_reduce_in_bf16')) return false;
  if (argOn(m, 'accumulate_allreduce_grads_in_fp32')) return true;
  return argAbsent(m, 'main_grads_dtype') || argValue(m, 'main_grads_dtype') === 'fp32';
}

const CHECKS: ArgCheck[] = [
  {
    when: (m, _p, ctx) => (argGiven(m, 'ddp_num_buckets') && argGiven(m, 'ddp_bucket_size') && ddpConfig(m, ctx) ? 'ddp_num_buckets' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.12.0',
    yamlCfg: true,
    message: () => `\`--ddp-num-buckets\` with \`--ddp-bucket-size\`: both size the gradient buckets (the count divides the parameters into buckets), and ${STOPS} ("Cannot specify both --ddp-num-buckets and --ddp-bucket-size"; from Megatron Core 0.18 "Cannot specify both num_buckets and bucket_size"). Keep one of the two.`,
  },
  {
    when: (m, _p, ctx) => {
      const n = argNum(m, 'ddp_num_buckets');
      return n !== undefined && n <= 0 && ddpConfig(m, ctx) ? 'ddp_num_buckets' : undefined;
    },
    formats: MLM_FLAG_FORMATS,
    since: '0.12.0',
    yamlCfg: true,
    message: (m) => `\`--ddp-num-buckets ${String(argValue(m, 'ddp_num_buckets'))}\`: the parameters are divided into that many buckets, and ${STOPS} ("--ddp-num-buckets must be greater than 0"; from Megatron Core 0.18 "num_buckets must be greater than 0"). Give a count of at least 1, or leave it out.`,
  },
  {
    // Megatron Bridge's DistributedDataParallelConfig runs Megatron Core's checks when the config is
    // validated (training/config.py@v0.6.0:103-116, 1249): the bucket count is Core's from 0.18. Its
    // `comm_overlap` setup may replace `ddp.bucket_size` just before (comm_overlap.py@v0.6.0:570-577),
    // so only the count's own check is made there.
    when: (m) => {
      const n = argNum(m, 'ddp_num_buckets');
      return n !== undefined && n <= 0 ? 'ddp_num_buckets' : undefined;
    },
    formats: ['megatron-bridge'],
    since: '0.18.0',
    message: (m) => `\`ddp.num_buckets: ${String(argValue(m, 'ddp_num_buckets'))}\`: the parameters are divided into that many gradient buckets, and Megatron Bridge stops when it validates the config (Megatron Core's "num_buckets must be greater than 0"). Give a count of at least 1, or leave it out.`,
  },
  {
    when: (m, _p, ctx) => (argGiven(m, 'ddp_param_name_patterns_for_fp32_local_accumulation') && fp32Reduction(m) && ddpConfig(m, ctx) ? 'ddp_param_name_patterns_for_fp32_local_accumulation' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.17.0',
    message: (m) => `\`--ddp-param-name-patterns-for-fp32-local-accumulation\` while the gradients are already accumulated and reduced in fp32 (${argOn(m, 'accumulate_allreduce_grads_in_fp32') ? '`--accumulate-allreduce-grads-in-fp32`' : 'Megatron-LM turns `--accumulate-allreduce-grads-in-fp32` on for `--bf16`'}): the patterns only pick parameters to accumulate in fp32 when the rest are not, and ${STOPS} ("Only need to explicitly specify param_name patterns for FP32 local accumulation if .main_grads aren't already in FP32"). Add \`--grad-reduce-in-bf16\` to reduce the other gradients in bf16, or drop the patterns.`,
  },
];

export default defineRule<MegatronModel>({
  id: 'ddp-config-invalid',
  severity: 'error',
  formats: [...MLM_FLAG_FORMATS, 'megatron-bridge'],
  docs: {
    summary: 'Data-parallel gradient-buffer arguments that Megatron refuses when it wraps the model: `--ddp-num-buckets` beside `--ddp-bucket-size` or not above zero, and `--ddp-param-name-patterns-for-fp32-local-accumulation` while the gradients are already kept in fp32.',
    why: 'Megatron-LM builds the data-parallel wrapper\'s config from these flags after its argument checks, when it sets up the model, and stops there: from Megatron Core 0.12 when `--ddp-num-buckets` is given together with `--ddp-bucket-size` (two ways of sizing the same buckets) or is 0 or negative (also in a `--yaml-cfg` file); from 0.17 when `--ddp-param-name-patterns-for-fp32-local-accumulation` names parameters to accumulate in fp32 although all gradients already are, that is with `--accumulate-allreduce-grads-in-fp32`, which Megatron-LM turns on by itself for `--bf16` unless `--grad-reduce-in-bf16` is given (or `--main-grads-dtype` is not fp32). With `--use-torch-fsdp2` (from 0.13) none of these is read. Megatron Bridge runs Megatron Core\'s own checks of that config when it validates its configuration: from Megatron Core 0.18 a `ddp.num_buckets` of 0 or less stops it too. The job fails after the model is built, at the cost of the start-up time.',
    bad: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --ddp-num-buckets: 4\n  --ddp-bucket-size: 40000000\n',
    good: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --ddp-num-buckets: 4\n',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64 \\\n    --ddp-param-name-patterns-for-fp32-local-accumulation router\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 --grad-reduce-in-bf16 \\\n    --micro-batch-size 1 --global-batch-size 64 \\\n    --ddp-param-name-patterns-for-fp32-local-accumulation router\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.17.0, `get_model`: the bucket count beside a bucket size, or not above zero', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.17.0/megatron/training/training.py#L1451-L1455' },
      { label: 'Megatron Core core_v0.19.0, `DistributedDataParallelConfig.__post_init__`: fp32 local-accumulation patterns with fp32 gradients, bucket count and size', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.19.0/megatron/core/distributed/distributed_data_parallel_config.py#L263-L271' },
    ],
  },
  check(ctx) {
    runChecks(ctx, CHECKS);
  },
});
