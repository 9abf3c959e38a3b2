/**
 * missing-overlap-param-gather: the distributed optimizer's parameter all-gather not overlapped.
 */
import { allKnown, fieldPath, knobEdit, knobName, layoutFits, turnOnTitle } from '../plan/layout';
import type { PathEdit } from '../syntax/sourcedoc';
import { overlapsByItself, paramGatherRefused, switchAvailable } from '../formats/megatron/overlap';
import { defineRule } from './rule';

export default defineRule({
  id: 'missing-overlap-param-gather',
  severity: 'information',
  formats: 'all',
  fixes: {
    'turn-on': { applicability: 'unsafe', changes: 'a communication-overlap switch' },
  },
  docs: {
    summary: 'The distributed optimizer with DP > 1 but its parameter all-gather not overlapped with the forward pass.',
    why: 'The distributed optimizer (ZeRO-1) updates a shard of the parameters on each DP rank and all-gathers them before the next forward pass. Without `--overlap-param-gather` that all-gather runs up front and the forward pass waits for it; with it each bucket is gathered just ahead of the layers that need it. Megatron requires `--overlap-grad-reduce` alongside (from Megatron Core 0.5.0). Nothing is said where Megatron overlaps it by itself (the `optim_grads_params` sharding strategy: any run in Megatron-LM 0.12–0.13, Megatron-FSDP from 0.14, its default strategy from 0.18) or where it refuses the overlap (`--save-params-interval` with `--save`, from 0.18) or turns it off (`--freeze-all-layers`, which also turns the distributed optimizer off).',
    bad: "# shardwise: format=megatron-yaml world_size=16\nMODEL_ARGS:\n  --tensor-model-parallel-size: 2\n  --sequence-parallel: true\n  --use-distributed-optimizer: true\n  --overlap-grad-reduce: true\n",
    good: "# shardwise: format=megatron-yaml world_size=16\nMODEL_ARGS:\n  --tensor-model-parallel-size: 2\n  --sequence-parallel: true\n  --use-distributed-optimizer: true\n  --overlap-grad-reduce: true\n  --overlap-param-gather: true\n",
    fix: 'Adds `--overlap-param-gather` (and `--overlap-grad-reduce`, which Megatron requires with it from Megatron Core 0.5.0).',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 2 --sequence-parallel --use-distributed-optimizer --overlap-grad-reduce --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 2 --sequence-parallel --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64\n',
    },
  },
  check(ctx) {
    const p = ctx.plan;
    if (!p || p.style !== 'megatron' || !layoutFits(p) || !p.knobs.overlapParamGather || !p.distributedOptimizer?.value || (p.dp?.value ?? 1) <= 1 || p.overlap.paramGather?.value || !allKnown(p.overlap.paramGather)) return;
    // Advice only for a switch the Megatron-LM reading the file has.
    if (p.overlap.paramGather?.from.kind !== 'written' && !switchAvailable(ctx, '--overlap-param-gather')) return;
    // Megatron overlaps it by itself here; or, from 0.18.0, it refuses the overlap when parameters are saved apart.
    // (overlapsByItself: the sharding strategy in Megatron-LM 0.12–0.13, Megatron-FSDP from 0.14, its default strategy from 0.18.)
    if (overlapsByItself(ctx, 'param') || paramGatherRefused(ctx)) return;
    const edits: PathEdit[] = [];
    const add = knobEdit(p, 'overlapParamGather', true);
    if (add) edits.push(add);
    // megatron/arguments.py@core_v0.5.0: the overlap needs --overlap-grad-reduce (0.4.0 did not ask).
    const paired = !p.overlap.gradReduce?.value && ctx.atLeast('0.5.0') && !overlapsByItself(ctx, 'grad');
    if (paired) {
      const grad = knobEdit(p, 'overlapGradReduce', true);
      if (grad) edits.push(grad);
    }
    const pg = knobName(p, 'overlapParamGather', '--overlap-param-gather');
    const gr = knobName(p, 'overlapGradReduce', '--overlap-grad-reduce');
    ctx.report({
      at: fieldPath(p, p.distributedOptimizer, 'distributedOptimizer'),
      message: `The distributed optimizer with DP ${p.dp!.value} gathers the updated parameters before each forward pass, and the forward pass waits for it. Turn on \`${pg}\`${paired ? ` with \`${gr}\`` : ''} to gather each bucket just ahead of its layers.`,
      fixes: edits.length ? [{ kind: 'turn-on', title: `${turnOnTitle(p, 'overlapParamGather', '--overlap-param-gather')}${edits.length > 1 ? ` and ${gr}` : ''}`, edits, recommended: true }] : [],
    });
  },
});
