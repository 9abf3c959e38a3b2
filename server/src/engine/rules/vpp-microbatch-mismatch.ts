/**
 * vpp-microbatch-mismatch: interleaved pipelining with a micro-batch count it cannot schedule.
 */
import { fieldPath } from '../plan/layout';
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
  },
  check(ctx) {
    const p = ctx.plan;
    if (!p?.vpp || p.vpp.value <= 1 || p.pp.value <= 1) return;
    const pp = p.pp.value;
    const m = p.numMicroBatches?.value ?? (p.globalBatch && p.microBatch && p.dp ? p.globalBatch.value / (p.microBatch.value * p.dp.value) : undefined);
    if (m === undefined || !Number.isInteger(m)) return;
    if (m >= pp && m % pp === 0) return;
    ctx.report({
      at: fieldPath(p, p.globalBatch ?? p.numMicroBatches ?? p.vpp, p.globalBatch ? 'globalBatch' : 'numMicroBatches'),
      on: 'value',
      message: `With ${p.vpp.value} virtual stages, each step's ${m} micro-batches ${m < pp ? `are fewer than PP ${pp}` : `are not a multiple of PP ${pp}`}: the interleaved schedule runs them in groups of ${pp} and Megatron fails on the first step. Use a global batch that gives a multiple of ${pp} micro-batches per DP rank (e.g. ${Math.max(pp, Math.ceil(m / pp) * pp)}).`,
    });
  },
});
