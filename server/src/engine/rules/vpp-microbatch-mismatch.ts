/**
 * vpp-microbatch-mismatch: interleaved pipelining with a micro-batch count it cannot schedule.
 */
import type { MegatronModel } from '../formats/megatron/model';
import { fieldPath, layoutFits } from '../plan/layout';
import { defineRule } from './rule';

export default defineRule({
  id: 'vpp-microbatch-mismatch',
  severity: 'error',
  formats: 'all',
  forks: true,
  docs: {
    summary: 'With virtual pipeline stages, the number of micro-batches per step is below PP or not a multiple of it.',
    why: 'The interleaved schedule runs micro-batches in groups of PP per virtual stage. Megatron rejects a step whose micro-batch count M = GBS / (MBS × DP) is outside [PP, M] or leaves a remainder smaller than PP ("The number of contiguous micro-batches in a virtual pipeline stage should range in [PP, M]"), on the first step, after the job has started.',
    bad: "# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --pipeline-model-parallel-size: 4\n  --num-virtual-stages-per-pipeline-rank: 2\n  --micro-batch-size: 1\n  --global-batch-size: 6\n",
    good: "# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --pipeline-model-parallel-size: 4\n  --num-virtual-stages-per-pipeline-rank: 2\n  --micro-batch-size: 1\n  --global-batch-size: 8\n",
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --pipeline-model-parallel-size 4 --num-virtual-stages-per-pipeline-rank 2 --bf16 \\\n    --micro-batch-size 1 --global-batch-size 6\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --pipeline-model-parallel-size 4 --num-virtual-stages-per-pipeline-rank 2 --bf16 \\\n    --micro-batch-size 1 --global-batch-size 8\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.15.3, `pipeline_parallel/schedules.py`: the micro-batches of the interleaved schedule', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.15.3/megatron/core/pipeline_parallel/schedules.py#L980' },
    ],
  },
  check(ctx) {
    const p = ctx.plan;
    if (!p?.vpp || p.vpp.value <= 1 || p.pp.value <= 1 || !layoutFits(p)) return;
    const pp = p.pp.value;
    const m = p.numMicroBatches?.value ?? (p.globalBatch && p.microBatch && p.dp ? p.globalBatch.value / (p.microBatch.value * p.dp.value) : undefined);
    if (m === undefined || !Number.isInteger(m)) return;
    // The group size N (`--microbatch-group-size-per-virtual-pipeline-stage`, PP by default) must lie
    // in [PP, M], and the last group (M mod N) must be empty or hold at least PP micro-batches
    // (megatron/core/pipeline_parallel/schedules.py, forward_backward_pipelining_with_interleaving).
    const group = (ctx.model as MegatronModel | undefined)?.args?.get?.('microbatch_group_size_per_vp_stage');
    if (group?.unknown !== undefined) return;
    const n = typeof group?.value === 'number' ? group.value : typeof group?.value === 'string' && /^\d+$/.test(group.value) ? Number(group.value) : pp;
    const rest = m % n;
    if (n >= pp && n <= m && (rest === 0 || rest >= pp)) return;
    const groups = n === pp ? `groups of ${pp} (PP)` : `groups of ${n} (\`--microbatch-group-size-per-virtual-pipeline-stage\`)`;
    const why = m < pp ? `are fewer than PP ${pp}` : n > m ? `are fewer than the group size ${n}` : n < pp ? `are grouped by ${n}, fewer than PP ${pp}` : `leave a last group of ${rest}, fewer than PP ${pp}`;
    // A group smaller than PP fails whatever the batch: the remedy is the group size, not the batch.
    const remedy = n < pp && m >= pp
      ? `Raise \`--microbatch-group-size-per-virtual-pipeline-stage\` to at least PP ${pp} (or remove it: it defaults to PP), with ${m} micro-batches a value that divides them or leaves at least ${pp} over.`
      : `Use a global batch that gives a multiple of ${n} micro-batches per DP rank (e.g. ${Math.max(n, Math.ceil(m / n) * n)}).`;
    ctx.report({
      at: fieldPath(p, p.globalBatch ?? p.numMicroBatches ?? p.vpp, p.globalBatch ? 'globalBatch' : 'numMicroBatches'),
      on: 'value',
      message: `With ${p.vpp.value} virtual stages, each step's ${m} micro-batches ${why}: the interleaved schedule runs them in ${groups} and Megatron fails on the first step. ${remedy}`,
    });
  },
});
