/**
 * overlap-param-gather-requires-distributed-optimizer: parameter all-gather overlap without a
 * sharded optimizer to gather from.
 */
import { allKnown, fieldPath, knobEdit, knobName, turnOnTitle } from '../plan/layout';
import { derivedSwitch } from '../formats/megatron/derived';
import type { MegatronModel } from '../formats/megatron/model';
import { argumentChecks } from '../formats/megatron/runtime';
import { megatronArg } from './helpers';
import { defineRule, type RuleContext } from './rule';

export default defineRule({
  id: 'overlap-param-gather-requires-distributed-optimizer',
  severity: 'error',
  formats: 'all',
  // Megatron-LM's argument checks make the refusal; Megatron Bridge and NeMo never run them (NeMo reads
  // `model.optim.overlap_param_sync` only with a distributed optimizer, megatron_gpt_model.py@v2.4.0:596-611,
  // and refuses it only without `overlap_grad_sync`, which overlap-config-invalid reports).
  runtime: ['validate_args', 'validate_yaml'],
  fixes: {
    'turn-on-distributed-optimizer': { applicability: 'unsafe', changes: 'optimizer sharding' },
  },
  docs: {
    summary: '`--overlap-param-gather` without `--use-distributed-optimizer` (or Megatron FSDP; PyTorch FSDP2 does not count).',
    why: 'Only a sharded optimizer leaves the parameters split across DP ranks, so only then is there an all-gather to overlap. Megatron stops at startup ("--overlap-param-gather only supported with distributed optimizer, megatron fsdp, or dist_muon"); from Megatron Core 0.17.0 `--optimizer dist_muon` is allowed too. In Megatron-LM 0.12 and 0.13 `--data-parallel-sharding-strategy optim_grads_params` turns the overlap on by itself before the check, so that strategy without the distributed optimizer stops there too (Megatron-FSDP, `--use-custom-fsdp` there, needs the distributed optimizer too). A `--yaml-cfg` file meets the reader\'s own check, which accepts the distributed optimizer alone ("--overlap-param-gather only supported with distributed optimizer"). This is Megatron-LM\'s argument check: Megatron Bridge and NeMo do not make it, and their files are not judged by this rule (NeMo ignores `model.optim.overlap_param_sync` beside a non-distributed optimizer, and refuses it without `overlap_grad_sync`, which overlap-config-invalid reports).',
    bad: "# shardwise: format=megatron-yaml world_size=16\nMODEL_ARGS:\n  --tensor-model-parallel-size: 2\n  --sequence-parallel: true\n  --overlap-grad-reduce: true\n  --overlap-param-gather: true\n",
    good: "# shardwise: format=megatron-yaml world_size=16\nMODEL_ARGS:\n  --tensor-model-parallel-size: 2\n  --sequence-parallel: true\n  --use-distributed-optimizer: true\n  --overlap-grad-reduce: true\n  --overlap-param-gather: true\n",
    fix: 'Adds `--use-distributed-optimizer`.',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 2 --sequence-parallel --overlap-grad-reduce --overlap-param-gather --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 2 --sequence-parallel --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.15.3, `megatron/training/arguments.py`: `--overlap-param-gather` only with the distributed optimizer or Megatron-FSDP', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.15.3/megatron/training/arguments.py#L625-L627' },
      { label: 'Megatron-LM core_v0.15.3, `megatron/training/yaml_arguments.py`: a `--yaml-cfg` file\'s `overlap_param_gather` only with the distributed optimizer', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.15.3/megatron/training/yaml_arguments.py#L133-L135' },
    ],
  },
  check(ctx) {
    if (strategyTurnsItOn(ctx)) return;
    const p = ctx.plan;
    // The `--yaml-cfg` reader asserts the distributed optimizer alone, whatever the FSDP or the optimizer
    // (yaml_arguments.py@core_v0.6.0:138-140, @core_v0.15.3:133-135, @d98e8a6:156-158).
    const yaml = argumentChecks(ctx.format, ctx.model) === 'validate_yaml';
    // arguments.py: the distributed optimizer or Megatron-FSDP (any strategy) gather parameters;
    // PyTorch's FSDP2 (`--use-torch-fsdp2`) is neither, and Megatron stops. Where the file does not
    // say which FSDP, any FSDP passes.
    const s = p?.sharding.value;
    const fsdpGathers = !yaml && (s?.impl === 'megatron-fsdp' || (s?.kind === 'fsdp' && s.impl !== 'torch-fsdp2'));
    if (!p || !p.overlap.paramGather?.value || p.distributedOptimizer?.value || fsdpGathers || !allKnown(p.distributedOptimizer)) return;
    // arguments.py@core_v0.17.0: `--optimizer dist_muon` gathers parameters itself and is allowed;
    // Muon takes no distributed optimizer there, so turning it on is no fix for it.
    const optimizer = String(megatronArg(ctx.model, 'optimizer') ?? '');
    if (!yaml && optimizer === 'dist_muon' && ctx.atLeast('0.17.0')) return;
    const torchFsdp = !yaml && s?.impl === 'torch-fsdp2';
    // The assertion's words by release (arguments.py@core_v0.4.0:170-172, @core_v0.14.0:559-561,
    // @core_v0.17.0:856-859): read on their own, the release only words the message.
    const quote = yaml ? 'distributed optimizer' : ctx.separately(() => ctx.atLeast('0.17.0') ? 'distributed optimizer, megatron fsdp, or dist_muon' : ctx.atLeast('0.14.0') ? 'distributed optimizer or megatron fsdp' : 'distributed optimizer');
    const e = /muon/.test(optimizer) || torchFsdp ? undefined : knobEdit(p, 'distributedOptimizer', true);
    const name = knobName(p, 'distributedOptimizer', '--use-distributed-optimizer');
    ctx.report({
      at: fieldPath(p, p.overlap.paramGather, 'overlapParamGather'),
      message: torchFsdp
        ? `Parameter all-gather overlap needs the distributed optimizer or Megatron FSDP; PyTorch FSDP2 (\`--use-torch-fsdp2\`) is neither, and Megatron stops at startup ("--overlap-param-gather only supported with ${quote}"). Drop the overlap (FSDP2 prefetches its own all-gathers), or use Megatron FSDP.`
        : `Parameter all-gather overlap needs the distributed optimizer${yaml ? '' : ' (or Megatron FSDP)'}, which is off: ${yaml ? "Megatron-LM's `--yaml-cfg` reader" : 'Megatron'} stops at startup ("--overlap-param-gather only supported with ${quote}"). ${p.knobSettings?.distributedOptimizer ? 'Use' : 'Turn on'} \`${name}\` (it also shards the optimizer state over DP, saving memory), or drop the overlap.`,
      fixes: e ? [{ kind: 'turn-on-distributed-optimizer', title: turnOnTitle(p, 'distributedOptimizer', '--use-distributed-optimizer'), edits: [e], recommended: true }] : [],
    });
  },
});

/**
 * Megatron-LM 0.12 and 0.13 turn `--overlap-param-gather` on themselves for the
 * `optim_grads_params` sharding strategy (training/arguments.py@core_v0.12.0:495-497,
 * @core_v0.13.0:587-589; derived.ts) and then assert the distributed optimizer (@core_v0.12.0:502-504,
 * @core_v0.13.0:594-596), Megatron-FSDP or not (`--use-custom-fsdp` needs it too there). Reports that
 * case on the strategy; true when it did (the plan's own check then says nothing more).
 */
function strategyTurnsItOn(ctx: RuleContext): boolean {
  const p = ctx.plan;
  if (!p || p.style !== 'megatron' || p.overlap.paramGather?.value || p.distributedOptimizer?.value || !allKnown(p.distributedOptimizer)) return false;
  const m = ctx.model as MegatronModel;
  const d = derivedSwitch(ctx, m, 'overlap_param_gather', true);
  if (!d) return false;
  const e = knobEdit(p, 'distributedOptimizer', true);
  ctx.report({
    at: m.args.get('data_parallel_sharding_strategy')?.path ?? [],
    message: `${d.why}, and parameter all-gather overlap needs the distributed optimizer, which is off: Megatron-LM stops at startup ("--overlap-param-gather only supported with distributed optimizer"). Turn on \`--use-distributed-optimizer\`, or leave the strategy at \`no_shard\`.`,
    fixes: e ? [{ kind: 'turn-on-distributed-optimizer', title: turnOnTitle(p, 'distributedOptimizer', '--use-distributed-optimizer'), edits: [e], recommended: true }] : [],
  });
  return true;
}
