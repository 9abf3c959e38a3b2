/**
 * missing-overlap-grad-reduce: data parallelism whose gradient reduction waits for the backward pass.
 */
import { allKnown, fieldPath, knobEdit, knobName, layoutFits, turnOnTitle } from '../plan/layout';
import { fsdpAssertsGradOverlap, overlapsByItself, paramGatherRefused, switchAvailable } from '../formats/megatron/overlap';
import { defineRule } from './rule';

export default defineRule({
  id: 'missing-overlap-grad-reduce',
  severity: 'information',
  formats: 'all',
  fixes: {
    'turn-on': { applicability: 'unsafe', changes: 'a communication-overlap switch' },
    'turn-on-with-distributed-optimizer': { applicability: 'unsafe', changes: 'optimizer sharding and both overlap switches' },
  },
  docs: {
    summary: 'Data parallelism (DP > 1) with gradient reduction not overlapped with the backward pass.',
    why: 'Without `--overlap-grad-reduce` Megatron reduces all gradients after the backward pass finishes, so every step waits for a full DP all-reduce (or reduce-scatter) of the model\'s gradients. With it, buckets are reduced as soon as their gradients are ready, hidden behind the rest of the backward pass. The cost is a little memory for the buckets. Nothing is said where Megatron overlaps it by itself: the `optim_grads` or `optim_grads_params` sharding strategy in Megatron-LM 0.12–0.13, and with Megatron-FSDP from 0.14 (whose default strategy is `optim_grads_params` from 0.18), except `optim_grads` in 0.14 and 0.15, where Megatron-FSDP asserts the overlap without turning it on: there its absence is an error. In NeMo it is advised only with its distributed optimizers, the only ones that read `model.optim.overlap_grad_sync`. Nor is it advised with `--freeze-all-layers`, which freezes every parameter, so there are no gradients to reduce.',
    bad: "# shardwise: format=megatron-yaml world_size=16\nMODEL_ARGS:\n  --tensor-model-parallel-size: 2\n  --sequence-parallel: true\n  --use-distributed-optimizer: true\n",
    good: "# shardwise: format=megatron-yaml world_size=16\nMODEL_ARGS:\n  --tensor-model-parallel-size: 2\n  --sequence-parallel: true\n  --use-distributed-optimizer: true\n  --overlap-grad-reduce: true\n  --overlap-param-gather: true\n",
    fix: 'Adds the overlap flag; without the distributed optimizer, a second fix adds it together with both overlap flags (it also shards the optimizer state over DP).',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 2 --sequence-parallel --use-distributed-optimizer --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 2 --sequence-parallel --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64\n',
    },
  },
  check(ctx) {
    const p = ctx.plan;
    if (!p || p.style !== 'megatron' || !p.knobs.overlapGradReduce || p.overlap.gradReduce?.value || !allKnown(p.overlap.gradReduce)) return;
    // Advice only for a switch the Megatron-LM reading the file has.
    if (p.overlap.gradReduce?.from.kind !== 'written' && !switchAvailable(ctx, '--overlap-grad-reduce')) return;
    const e = knobEdit(p, 'overlapGradReduce', true);
    if (fsdpAssertsGradOverlap(ctx)) {
      ctx.report({
        at: fieldPath(p, p.overlap.gradReduce, 'overlapGradReduce'),
        severity: 'error',
        message: `Megatron-FSDP with the \`optim_grads\` sharding strategy needs \`--overlap-grad-reduce\` in ${ctx.versions} ${ctx.versionLabel ?? '0.14-0.15'}: the wrapper asserts it and the run stops when it wraps the model (0.13 and 0.16 turn it on by themselves). Add \`--overlap-grad-reduce\`.`,
        fixes: e ? [{ kind: 'turn-on', title: turnOnTitle(p, 'overlapGradReduce', '--overlap-grad-reduce'), edits: [e], recommended: true }] : [],
      });
      return;
    }
    if (!layoutFits(p) || (p.dp?.value ?? 1) <= 1) return;
    // Every layer frozen (`--freeze-all-layers`): no gradients, nothing to reduce. (Only a known
    // freeze carries `forwardOnly`; one not known weighs on the finding through this read.)
    if (p.frozen?.value.forwardOnly) return;
    // Megatron overlaps it by itself here (the data-parallel sharding strategy).
    // (overlapsByItself: the sharding strategy in Megatron-LM 0.12–0.13, Megatron-FSDP from 0.14, its default strategy from 0.18.)
    if (overlapsByItself(ctx, 'grad')) return;
    const gr = knobName(p, 'overlapGradReduce', '--overlap-grad-reduce');
    const fixes = e ? [{ kind: 'turn-on', title: turnOnTitle(p, 'overlapGradReduce', '--overlap-grad-reduce'), edits: [e], recommended: true }] : [];
    // The full set in one go: shard the optimizer over DP and overlap both of its collectives.
    const all = [knobEdit(p, 'distributedOptimizer', true), e, knobEdit(p, 'overlapParamGather', true)];
    // Not where the parameter all-gather overlap is refused (`--save-params-interval`, from 0.18.0).
    if (e && !p.distributedOptimizer?.value && allKnown(p.distributedOptimizer) && all.every((x) => x) && !paramGatherRefused(ctx)) {
      const flags = gr.startsWith('-');
      fixes.push({ kind: 'turn-on-with-distributed-optimizer', title: flags ? 'Add --use-distributed-optimizer, --overlap-grad-reduce and --overlap-param-gather' : `Turn on ${knobName(p, 'distributedOptimizer', '--use-distributed-optimizer')}, ${gr} and ${knobName(p, 'overlapParamGather', '--overlap-param-gather')}`, edits: all.map((x) => x!), recommended: false });
    }
    ctx.report({
      at: fieldPath(p, p.overlap.gradReduce, 'overlapGradReduce'),
      message: `DP ${p.dp!.value} without overlapped gradient reduction: each step waits for the whole gradient ${p.distributedOptimizer?.value ? 'reduce-scatter' : 'all-reduce'} after the backward pass. Turn on \`${gr}\` to reduce buckets while the backward pass runs.`,
      fixes,
    });
  },
});
