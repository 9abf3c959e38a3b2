/**
 * global-batch-not-divisible: the global batch is not a whole number of micro-batches per DP rank.
 */
import { fieldPath, knobEdit, layoutFits } from '../plan/layout';
import { megatronArg } from './helpers';
import { defineRule, type FixSpec } from './rule';

export default defineRule({
  id: 'global-batch-not-divisible',
  severity: 'error',
  formats: 'all',
  forks: true,
  fixes: {
    'set-global-batch': { applicability: 'unsafe', changes: 'the batch size' },
  },
  verifyFixes: true,
  docs: {
    summary: 'The global batch size is not divisible by micro-batch size × data-parallel size.',
    why: 'Each step runs GBS / (MBS × DP) micro-batches on every data-parallel rank, which must be a whole number; Megatron stops ("global batch size is not divisible by micro batch size times data parallel size"). DP is derived from the world and the model-parallel degrees, so changing TP, PP or the GPU count can break a batch size that used to work. With `--decrease-batch-size-if-needed` (Megatron-LM 0.9.0 on) Megatron lowers the batch to a multiple instead: a note.',
    bad: "# shardwise: format=megatron-yaml world_size=16\nMODEL_ARGS:\n  --tensor-model-parallel-size: 2\n  --micro-batch-size: 4\n  --global-batch-size: 60\n",
    good: "# shardwise: format=megatron-yaml world_size=16\nMODEL_ARGS:\n  --tensor-model-parallel-size: 2\n  --micro-batch-size: 4\n  --global-batch-size: 64\n",
    fix: 'Sets the global batch to the nearest multiple of MBS × DP.',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 2 --sequence-parallel \\\n    --micro-batch-size 1 --global-batch-size 6\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 2 --sequence-parallel \\\n    --micro-batch-size 1 --global-batch-size 8\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.15.3, `num_microbatches_calculator.py`: the global batch must be divisible by micro batch × DP', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.15.3/megatron/core/num_microbatches_calculator.py#L340-L345' },
    ],
  },
  check(ctx) {
    const p = ctx.plan;
    // A DeepSpeed JSON's batch identity (with its gradient accumulation) is batch-size-mismatch's.
    if (!p?.globalBatch || !p.microBatch || !p.dp || !layoutFits(p) || ctx.format === 'deepspeed') return;
    const unit = p.microBatch.value * p.dp.value;
    const gbs = p.globalBatch.value;
    if (gbs % unit === 0) return;
    // `--decrease-batch-size-if-needed` (Megatron-LM 0.9.0 on; Bridge `train.decrease_batch_size_if_needed`):
    // Megatron lowers the global batch to a multiple instead of stopping (num_microbatches_calculator.py).
    const decrease = megatronArg(ctx.model, 'decrease_batch_size_if_needed');
    if ((decrease === true || decrease === 'true') && ctx.atLeast('0.9.0')) {
      const lower = Math.floor(gbs / unit) * unit;
      ctx.report({
        at: fieldPath(p, p.globalBatch, 'globalBatch'),
        on: 'value',
        severity: 'information',
        message: `Global batch ${gbs} is not divisible by micro-batch ${p.microBatch.value} × DP ${p.dp.value} = ${unit}: with \`decrease_batch_size_if_needed\` set, Megatron lowers it to ${lower > 0 ? lower : 'a multiple of it'} at startup instead of stopping, so the run trains with that batch. Write the batch it runs with.`,
      });
      return;
    }
    const fixes: FixSpec[] = [];
    for (const n of [Math.ceil(gbs / unit) * unit, Math.floor(gbs / unit) * unit]) {
      const e = n > 0 ? knobEdit(p, 'globalBatch', n) : undefined;
      if (e && !fixes.some((f) => f.title.endsWith(` ${n}`))) fixes.push({ kind: 'set-global-batch', title: `Set the global batch to ${n}`, edits: [e] });
    }
    ctx.report({
      at: fieldPath(p, p.globalBatch, 'globalBatch'),
      on: 'value',
      message: `Global batch ${gbs} is not divisible by micro-batch ${p.microBatch.value} × DP ${p.dp.value} = ${unit} (${p.dp.from.kind === 'derived' ? p.dp.from.formula : 'DP'}): Megatron stops ("global batch size is not divisible by micro batch size times data parallel size"). Use a multiple of ${unit}.`,
      fixes,
    });
  },
});
