/**
 * tp-larger-than-needed: a smaller TP would fit in memory and give the ranks to data parallelism.
 */
import { allKnown, divisors, dpWithTp, fieldPath, fmtGiB, knobEdit, layoutFits, planMemory } from '../plan/layout';
import type { PathEdit } from '../syntax/sourcedoc';
import { defineRule } from './rule';

/** Keep this much of HBM free for the allocator, communication buffers and CUDA itself. */
const HEADROOM = 0.85;

export default defineRule({
  id: 'tp-larger-than-needed',
  severity: 'information',
  formats: 'all',
  fixes: {
    'set-tp': { applicability: 'unsafe', changes: 'the layout' },
  },
  verifyFixes: true,
  docs: {
    summary: 'A smaller tensor-parallel degree would still fit in memory.',
    why: 'TP costs communication on every layer (all-reduce, or all-gather plus reduce-scatter, in forward and backward) and smaller GEMMs; DP costs one gradient reduction per step, which overlaps with the backward pass where the framework is told to (Megatron\'s `--overlap-grad-reduce`, DeepSpeed\'s `overlap_comm`; FSDP does by default). When the model fits with a smaller TP, the ranks it frees are usually worth more as data parallelism. The estimate keeps 15% of HBM free.',
    bad: '# shardwise: hardware=h100-sxm model=llama-3-8b seq_length=4096 micro_batch_size=1\ndistributed_type: MEGATRON_LM\nnum_processes: 16\nmegatron_lm_config:\n  megatron_lm_tp_degree: 8\n  megatron_lm_context_parallel_size: 1\n  megatron_lm_sequence_parallelism: true\n  megatron_lm_use_distributed_optimizer: true\n',
    good: '# shardwise: hardware=h100-sxm model=llama-3-8b seq_length=4096 micro_batch_size=1\ndistributed_type: MEGATRON_LM\nnum_processes: 16\nmegatron_lm_config:\n  megatron_lm_tp_degree: 1\n  megatron_lm_context_parallel_size: 1\n  megatron_lm_use_distributed_optimizer: true\n',
    fix: 'Sets TP to the smallest value that fits; DP grows to match.',
    shell: {
      bad: '#!/bin/bash\n# shardwise: hardware=h100-sxm\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nnodes 2 --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 8 --sequence-parallel --use-distributed-optimizer --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64\n',
      good: '#!/bin/bash\n# shardwise: hardware=h100-sxm\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nnodes 2 --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 1 --use-distributed-optimizer --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64\n',
    },
  },
  check(ctx) {
    const p = ctx.plan;
    // DP comes from the world the layout fills: a layout that does not fill it is world-size-mismatch's.
    if (!p?.model || p.tp.value <= 1 || !p.knobs.tp || !p.world || !p.dp || !layoutFits(p) || !allKnown(p.tp, p.pp, p.cp, p.sharding)) return;
    // TP past the NVLink domain is tp-exceeds-nvlink-domain's finding, with its own fix.
    if (p.tp.value > p.hardware.nvlinkDomain.value) return;
    const heads = p.model.value.heads;
    const groups = p.model.value.queryGroups ?? heads;
    const hbm = p.hardware.profile.hbmGiB * 2 ** 30;
    const dp = p.dp.value;
    for (const d of divisors(p.tp.value).filter((x) => x < p.tp.value)) {
      if (heads % d !== 0 || !(groups % d === 0 || d % groups === 0)) continue;
      // One computation for the memory estimate, the edits and the message.
      const newDp = dpWithTp(p, d);
      if (newDp === undefined) continue;
      const mem = planMemory(p, { tp: d, dp: newDp, sp: d > 1 && p.sp.value });
      if (!mem || mem.bytes.total > HEADROOM * hbm) continue;
      const edits: PathEdit[] = [knobEdit(p, 'tp', d)!];
      if (p.style !== 'megatron') {
        const shard = knobEdit(p, 'dpShard', p.dpShard.value * (newDp / dp));
        if (!shard) continue;
        edits.push(shard);
      }
      if (d === 1 && p.sp.value && p.knobs.sp) edits.push(knobEdit(p, 'sp', false)!);
      const now = planMemory(p);
      ctx.report({
        at: fieldPath(p, p.tp, 'tp'),
        on: 'value',
        message: `TP ${p.tp.value} is more than this model needs on ${p.hardware.profile.id}: TP ${d} fits (~${fmtGiB(mem.bytes.total)} GiB per GPU of ${Math.round(p.hardware.profile.hbmGiB)}${now ? `, now ~${fmtGiB(now.bytes.total)}` : ''}) and would raise DP from ${dp} to ${newDp}, with fewer TP collectives per layer.`,
        fixes: [{ kind: 'set-tp', title: `Set TP to ${d}`, edits, recommended: true }],
      });
      return;
    }
  },
});
