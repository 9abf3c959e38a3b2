/**
 * fsdp-config-invalid: Megatron's FSDP modes combined with settings they do not support.
 */
import { argAbsent, argGiven, argNum, argOff, argOn, argValue, MEGATRON_FORMATS, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { runChecks, unsetArg, type ArgCheck } from '../formats/megatron/checks';
import { defineRule } from './rule';

const torchFsdp2 = (m: MegatronModel) => argOn(m, 'use_torch_fsdp2');

/**
 * Gradient accumulation fusion is known to be on: written on, or left out where Megatron-LM's
 * default applies (on: only `--no-gradient-accumulation-fusion` turns it off).
 */
const fusionOn = (m: MegatronModel) => argOn(m, 'gradient_accumulation_fusion') || argAbsent(m, 'gradient_accumulation_fusion');

const megatronFsdp = (m: MegatronModel) => argOn(m, 'use_megatron_fsdp');

/** The sharding strategy is written `optim_grads_params` (the default from 0.18, checked on its own). */
const fullSharding = (m: MegatronModel) => argValue(m, 'data_parallel_sharding_strategy') === 'optim_grads_params';

/**
 * Megatron-LM's validate_args under `--use-megatron-fsdp` (arguments.py@core_v0.14.0:619-638,
 * @core_v0.18.0:1107-1159, @d98e8a6:1118-1191): the checkpoint format, the optimizer, the weight-hash
 * check under full sharding, meta-device initialisation without sharding, single grouped MoE
 * parameters, and manual buffer registration.
 */
const MEGATRON_FSDP_CHECKS: ArgCheck[] = [
  {
    when: (m) => {
      if (!megatronFsdp(m)) return undefined;
      const format = argAbsent(m, 'ckpt_format') ? 'torch_dist' : argValue(m, 'ckpt_format');
      return typeof format === 'string' && format !== 'fsdp_dtensor' ? (argAbsent(m, 'ckpt_format') ? 'use_megatron_fsdp' : 'ckpt_format') : undefined;
    },
    formats: MLM_FLAG_FORMATS,
    since: '0.14.0',
    message: (m) => `Megatron-FSDP with ${argAbsent(m, 'ckpt_format') ? 'the default checkpoint format `torch_dist`' : `\`--ckpt-format ${argValue(m, 'ckpt_format')}\``}: it saves only DTensor checkpoints, and Megatron stops ("Megatron-FSDP requires the \`fsdp_dtensor\` checkpointing format."; before Megatron Core 0.18 "Megatron FSDP only supports fsdp_dtensor checkpoint format"). Add \`--ckpt-format fsdp_dtensor\`.`,
  },
  {
    when: (m) => (megatronFsdp(m) && typeof argValue(m, 'optimizer') === 'string' && !['adam', 'sgd'].includes(argValue(m, 'optimizer') as string) ? 'optimizer' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.18.0',
    message: (m) => `\`--optimizer ${argValue(m, 'optimizer')}\` with Megatron-FSDP: it shards only Adam and SGD, and Megatron stops ("Megatron-FSDP does not support the ${argValue(m, 'optimizer')} optimizer yet."). Use \`--optimizer adam\` or \`sgd\`, or the distributed optimizer without Megatron-FSDP.`,
  },
  {
    when: (m) => (megatronFsdp(m) && fullSharding(m) && argGiven(m, 'check_weight_hash_across_dp_replicas_interval') ? 'check_weight_hash_across_dp_replicas_interval' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.14.0',
    message: () => '`--check-weight-hash-across-dp-replicas-interval` with Megatron-FSDP\'s `optim_grads_params` sharding: each DP rank holds a different shard of the weights, so there is no replica to compare, and Megatron stops ("check_weight_hash_across_dp_replicas_interval is not supported with optim_grads_params"). Drop the interval.',
  },
  {
    when: (m) => (megatronFsdp(m) && argAbsent(m, 'data_parallel_sharding_strategy') && argGiven(m, 'check_weight_hash_across_dp_replicas_interval') ? 'check_weight_hash_across_dp_replicas_interval' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.18.0',
    message: () => '`--check-weight-hash-across-dp-replicas-interval` with Megatron-FSDP\'s default sharding (`optim_grads_params` from Megatron Core 0.18): each DP rank holds a different shard of the weights, so there is no replica to compare, and Megatron stops ("check_weight_hash_across_dp_replicas_interval is not supported with optim_grads_params"). Drop the interval.',
  },
  {
    when: (m) => (megatronFsdp(m) && argOn(m, 'init_model_with_meta_device') && argValue(m, 'data_parallel_sharding_strategy') === 'no_shard' ? 'init_model_with_meta_device' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.18.0',
    message: () => '`--init-model-with-meta-device` with Megatron-FSDP\'s `no_shard` strategy: every rank holds the whole model, so there is nothing to initialise lazily, and Megatron stops ("Meta device initialization (init_model_with_meta_device=True) is not supported or necessary for the \'no_shard\' / 0 sharding strategy."). Drop `--init-model-with-meta-device`, or shard (`--data-parallel-sharding-strategy optim_grads_params`).',
  },
  {
    when: (m) => (megatronFsdp(m) ? ['moe_single_grouped_weight', 'moe_single_grouped_bias'].find((d) => argOn(m, d)) : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.19.0',
    message: () => 'Single grouped MoE parameters (`--moe-single-grouped-weight`, `--moe-single-grouped-bias`) with Megatron-FSDP: it cannot remap their grouped storage yet, and Megatron stops ("Megatron-FSDP does not currently support moe_single_grouped_weight or moe_single_grouped_bias"). Drop them, or use the distributed optimizer without Megatron-FSDP.',
  },
  {
    when: (m) => (argOn(m, 'fsdp_manual_registration') && argOff(m, 'use_megatron_fsdp') ? 'fsdp_manual_registration' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.16.0',
    message: () => '`--fsdp-manual-registration` without `--use-megatron-fsdp`: it registers Megatron-FSDP\'s buffers, and Megatron stops ("FSDP manual registration is only supported with Megatron FSDP."). Drop it, or use Megatron-FSDP.',
  },
  {
    when: (m) => (argOn(m, 'fsdp_manual_registration') && argOff(m, 'nccl_ub') ? 'fsdp_manual_registration' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.16.0',
    message: () => '`--fsdp-manual-registration` without `--use-nccl-ub`: it registers the buffers with NCCL user buffers, and Megatron stops ("FSDP manual registration is only supported with --nccl-ub argument."; before Megatron Core 0.18 "… with nccl-ub option"). Add `--use-nccl-ub` (which, from 0.18, turns the registration on by itself under Megatron-FSDP), or drop the flag.',
  },
];

const CHECKS: ArgCheck[] = [
  {
    when: (m, p) => (torchFsdp2(m) && (p?.pp.value ?? 1) > 1 ? 'use_torch_fsdp2' : undefined),
    // Megatron-LM's validate_args (megatron/training/arguments.py): not run for Bridge or NeMo files.
    formats: MLM_FLAG_FORMATS,
    message: () => 'PyTorch FSDP2 in Megatron does not support pipeline parallelism: Megatron stops ("--use-torch-fsdp2 is not supported with pipeline parallelism"). Use `--use-megatron-fsdp`, or PP 1.',
  },
  {
    when: (m, p) => (torchFsdp2(m) && (p?.ep.value ?? 1) > 1 ? 'use_torch_fsdp2' : undefined),
    // Megatron-LM's validate_args (megatron/training/arguments.py): not run for Bridge or NeMo files.
    formats: MLM_FLAG_FORMATS,
    message: () => 'PyTorch FSDP2 in Megatron does not support expert parallelism: Megatron stops ("--use-torch-fsdp2 is not supported with expert parallelism"). Use `--use-megatron-fsdp` for MoE models.',
  },
  {
    when: (m) => (torchFsdp2(m) && argOn(m, 'use_distributed_optimizer') ? 'use_distributed_optimizer' : undefined),
    // Megatron-LM's validate_args (megatron/training/arguments.py): not run for Bridge or NeMo files.
    formats: MLM_FLAG_FORMATS,
    message: () => 'FSDP2 already shards the optimizer state: Megatron stops ("--use-torch-fsdp2 is not supported with MCore\'s distributed optimizer"). Remove `--use-distributed-optimizer`.',
    fix: (m) => unsetArg(m, 'distributed-optimizer-off', 'use_distributed_optimizer', 'Turn off the distributed optimizer'),
  },
  {
    // Tied embeddings are shared across the FSDP2 units: validate_args asserts untied ones
    // (arguments.py@core_v0.10.0:385 … @core_v0.19.0, the same at HEAD).
    when: (m) => (torchFsdp2(m) && !argOn(m, 'untie_embeddings_and_output_weights') ? 'use_torch_fsdp2' : undefined),
    formats: MLM_FLAG_FORMATS,
    message: () => 'PyTorch FSDP2 in Megatron needs untied embedding and output weights: Megatron stops ("--use-torch-fsdp2 requires --untie-embeddings-and-output-weights"). Add `--untie-embeddings-and-output-weights` (a model of its own: the output layer gets weights of its own), or use `--use-megatron-fsdp`.',
  },
  {
    // validate_args asserts it off under FSDP2 (arguments.py@core_v0.10.0:381-382 … @core_v0.19.0:1006-1007,
    // @d98e8a6:1040-1041); the fusion is on unless `--no-gradient-accumulation-fusion` is given.
    when: (m) => (torchFsdp2(m) && fusionOn(m) ? (argAbsent(m, 'gradient_accumulation_fusion') ? 'use_torch_fsdp2' : 'gradient_accumulation_fusion') : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.10.0',
    message: (m) => `PyTorch FSDP2 in Megatron does not support gradient accumulation fusion${argAbsent(m, 'gradient_accumulation_fusion') ? ' (on by default)' : ''}: Megatron stops ("--use-torch-fsdp2 is not supported with gradient accumulation fusion"). Add \`--no-gradient-accumulation-fusion\`.`,
  },
  {
    when: (m) => (torchFsdp2(m) && argOn(m, 'fp16') ? 'fp16' : undefined),
    // Megatron-LM's validate_args (megatron/training/arguments.py): not run for Bridge or NeMo files.
    formats: MLM_FLAG_FORMATS,
    message: () => 'PyTorch FSDP2 in Megatron does not support FP16 yet: Megatron stops. Use `--bf16`.',
  },
  {
    when: (m) => (argOn(m, 'use_megatron_fsdp') && argNum(m, 'megatron_fsdp_version') === 2 && argOn(m, 'use_distributed_optimizer') ? 'use_distributed_optimizer' : undefined),
    // Megatron-LM's validate_args (megatron/training/arguments.py): not run for Bridge or NeMo files.
    formats: MLM_FLAG_FORMATS,
    message: () => 'Megatron-FSDP version 2 shards the optimizer itself: Megatron stops ("--megatron-fsdp-version 2 is not compatible with --use-distributed-optimizer"). Remove `--use-distributed-optimizer`.',
    fix: (m) => unsetArg(m, 'distributed-optimizer-off', 'use_distributed_optimizer', 'Turn off the distributed optimizer'),
  },
  {
    // validate_args under FSDP2 (arguments.py@core_v0.10.0:383-384 `torch_dist` only; `torch_dcp` too
    // from core_v0.12.0, @d98e8a6:1042-1043); the default `torch_dist` passes.
    when: (m) => (torchFsdp2(m) && typeof argValue(m, 'ckpt_format') === 'string' && !['torch_dist', 'torch_dcp'].includes(argValue(m, 'ckpt_format') as string) ? 'ckpt_format' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.10.0',
    message: (m) => `\`--ckpt-format ${argValue(m, 'ckpt_format')}\` with PyTorch FSDP2: its sharded state is saved only as a distributed checkpoint, and Megatron stops ("--use-torch-fsdp2 requires --ckpt-format torch_dist or torch_dcp"). Use \`--ckpt-format torch_dist\` (the default).`,
  },
  ...MEGATRON_FSDP_CHECKS,
  {
    when: (m) => (argOn(m, 'use_megatron_fsdp') && argOn(m, 'use_torch_fsdp2') ? 'use_torch_fsdp2' : undefined),
    // Megatron Bridge's ConfigContainer.validate raises it; Megatron-LM's argument checks do not.
    formats: ['megatron-bridge'],
    message: () => 'Megatron-FSDP and PyTorch FSDP2 are exclusive: Megatron Bridge stops, in its config validation or when it wraps the model (the wording differs by release and by where the switches are written). Keep one.',
  },
];

export default defineRule<MegatronModel>({
  id: 'fsdp-config-invalid',
  severity: 'error',
  formats: MEGATRON_FORMATS,
  fixes: {
    'distributed-optimizer-off': { applicability: 'unsafe', changes: 'optimizer sharding' },
  },
  docs: {
    summary: "Megatron's FSDP modes (PyTorch FSDP2, Megatron-FSDP) with settings they do not support (parallelism, optimizer, checkpoint format, precision, MoE parameter layout, buffer registration).",
    why: "`--use-torch-fsdp2` supports neither pipeline nor expert parallelism, the distributed optimizer, tied embeddings, gradient accumulation fusion (on unless `--no-gradient-accumulation-fusion` is given) or FP16; Megatron-FSDP version 2 shards the optimizer itself. FSDP2 needs a distributed checkpoint format (from 0.10); Megatron-FSDP needs `--ckpt-format fsdp_dtensor` (from 0.14, where it appeared) and, from 0.18, Adam or SGD, and refuses meta-device initialisation without sharding and, under its (default from 0.18) `optim_grads_params` sharding, the weight-hash check; from 0.19 it refuses single grouped MoE parameters; `--fsdp-manual-registration` needs Megatron-FSDP and `--use-nccl-ub` (from 0.16). Megatron-LM's argument checks stop on these at startup, for launch scripts and Megatron-LM YAML (Megatron Bridge and NeMo do not run them). Megatron Bridge stops on both FSDP kinds at once.",
    bad: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --bf16: true\n  --use-torch-fsdp2: true\n  --untie-embeddings-and-output-weights: true\n  --use-distributed-optimizer: true\n',
    good: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --bf16: true\n  --use-torch-fsdp2: true\n  --untie-embeddings-and-output-weights: true\n  --no-gradient-accumulation-fusion: true\n',
    fix: 'Removes `--use-distributed-optimizer` where FSDP already shards the optimizer.',
    shell: {
      bad: '#!/bin/bash\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --bf16 --use-torch-fsdp2 --untie-embeddings-and-output-weights --use-distributed-optimizer \\\n    --micro-batch-size 1 --global-batch-size 64\n',
      good: '#!/bin/bash\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --bf16 --use-torch-fsdp2 --untie-embeddings-and-output-weights --no-gradient-accumulation-fusion \\\n    --micro-batch-size 1 --global-batch-size 64\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.19.0, `megatron/training/arguments.py`: Torch FSDP2 refuses gradient accumulation fusion (from core_v0.10.0)', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.19.0/megatron/training/arguments.py#L1006-L1007' },
      { label: 'Megatron-LM core_v0.15.3, `megatron/training/arguments.py`: Torch FSDP2 refuses pipeline and expert parallelism and the distributed optimizer', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.15.3/megatron/training/arguments.py#L633-L641' },
    ],
  },
  check(ctx) {
    runChecks(ctx, CHECKS);
  },
});
