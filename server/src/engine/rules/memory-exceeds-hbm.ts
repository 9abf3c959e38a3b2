/**
 * memory-exceeds-hbm: the estimated per-GPU memory is above the GPU's HBM.
 */
import { allKnown, fieldPath, fmtGiB, planMemory } from '../plan/layout';
import type { Plan } from '../plan/plan';
import { defineRule } from './rule';

export default defineRule({
  id: 'memory-exceeds-hbm',
  severity: 'warning',
  formats: 'all',
  docs: {
    summary: 'The estimated per-GPU training memory (weights, gradients, optimizer state, activations) exceeds the GPU\'s HBM.',
    why: 'An out-of-memory error comes after the job has waited in the queue, loaded the model and often run a first step. The estimate follows Megatron\'s own accounting (mixed-precision Adam, the sharding of the optimizer, gradients and parameters, activations per layer with sequence parallelism, context parallelism and recomputation); hover a degree to see the breakdown and its assumptions. It is an estimate, hence a warning: the real peak is higher (allocator fragmentation, communication buffers).',
    bad: '# shardwise: hardware=h100-sxm model=llama-3-70b\ndistributed_type: MEGATRON_LM\nnum_processes: 8\nmegatron_lm_config:\n  megatron_lm_tp_degree: 8\n  megatron_lm_context_parallel_size: 1\n  megatron_lm_sequence_parallelism: true\n',
    good: '# shardwise: hardware=h100-sxm model=llama-3-70b\ndistributed_type: MEGATRON_LM\nnum_processes: 64\nmegatron_lm_config:\n  megatron_lm_tp_degree: 8\n  megatron_lm_pp_degree: 4\n  megatron_lm_context_parallel_size: 1\n  megatron_lm_sequence_parallelism: true\n  megatron_lm_use_distributed_optimizer: true\n',
    shell: {
      bad: '#!/bin/bash\n# shardwise: hardware=h100-sxm\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 80 --hidden-size 8192 --ffn-hidden-size 28672 --num-attention-heads 64 --group-query-attention --num-query-groups 8 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 8 --sequence-parallel --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64\n',
      good: '#!/bin/bash\n# shardwise: hardware=h100-sxm\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nnodes 8 --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 80 --hidden-size 8192 --ffn-hidden-size 28672 --num-attention-heads 64 --group-query-attention --num-query-groups 8 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 8 --pipeline-model-parallel-size 4 --sequence-parallel --use-distributed-optimizer --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64\n',
    },
  },
  check(ctx) {
    const p = ctx.plan;
    // The estimate is of training (gradients, optimizer states, activations kept for backward).
    if (!p || p.notTraining || !allKnown(p.tp, p.pp, p.cp, p.sharding)) return;
    // Sharded states depend on DP, which needs the world size: without it the estimate would be a guess.
    if (!p.world && p.sharding.value.kind !== 'none') return;
    const mem = planMemory(p);
    if (!mem) return;
    const hbm = p.hardware.profile.hbmGiB * 2 ** 30;
    if (mem.bytes.total <= hbm) return;
    const b = mem.bytes;
    const parts = `weights ${fmtGiB(b.weights)} + gradients ${fmtGiB(b.gradients)} + optimizer ${fmtGiB(b.optimizer)} + activations ${fmtGiB(b.activations)} GiB`;
    const noAct = p.seqLength ? '' : ' (activations not counted: set `seq_length` and `micro_batch_size` to include them)';
    // Against hardware nobody named, the comparison is with a default profile's HBM: a note, not a warning.
    const assumedHardware = p.hardware.from.kind === 'assumed';
    const sharding = p.sharding.from.kind === 'assumed' ? ` (assuming ${p.sharding.from.note})` : '';
    ctx.report({
      at: fieldPath(p, p.tp, 'tp'),
      on: p.tp.from.kind === 'written' ? 'value' : 'key',
      severity: assumedHardware ? 'information' : undefined,
      message: `Estimated ${fmtGiB(b.total)} GiB per GPU (${parts})${noAct}${sharding} exceeds the ${Math.round(p.hardware.profile.hbmGiB)} GiB of ${p.hardware.profile.id}${assumedHardware ? ' (the default profile: no hardware is set)' : ''}: expect an out-of-memory error${assumedHardware ? ' on that hardware' : ''}. ${remedies(p)}.`,
    });
  },
});

/**
 * What lowers the estimate that the file does not do already: sharding the states it does not shard
 * (over a DP that has ranks to shard over), TP up to the NVLink domain, PP, and recomputation.
 */
function remedies(p: Plan): string {
  const out: string[] = [];
  // LoRA under the Trainer: no TP or PP to raise; what lowers it is the batch, recomputation and the base's bits.
  if (p.adapter) {
    const off = p.recompute.from.kind === 'written' ? p.recompute.from.path?.find((k) => String(k).replace(/^--/, '') === 'disable_gradient_checkpointing') : undefined;
    if (p.recompute.value !== 'full') out.push(off !== undefined ? `remove \`${String(off)}\` (LLaMA-Factory then checkpoints every layer)` : 'turn on `gradient_checkpointing`');
    out.push('lower the micro batch or the sequence length');
    if (p.adapter.value.frozenBits > 4) out.push('load the base in 4 bits (QLoRA)');
    return `${out.slice(0, -1).join(', ')}${out.length > 1 ? ' or ' : ''}${out[out.length - 1]}`.replace(/^./, (c) => c.toUpperCase());
  }
  const tp = p.tp.value;
  const domain = p.hardware.nvlinkDomain.value;
  if (tp < domain) out.push(`raise TP within the NVLink domain (up to ${domain})`);
  out.push(p.pp.value > 1 ? 'add pipeline stages' : 'add pipeline parallelism (PP)');
  const s = p.sharding.value;
  const megatron = p.style === 'megatron';
  if (p.dp?.value !== 1) {
    const none = s.kind === 'none' || (s.kind === 'zero' && !s.stage) || (s.kind === 'fsdp' && s.fsdp === 'no-shard');
    const full = (s.kind === 'zero' && s.stage === 3) || (s.kind === 'fsdp' && s.fsdp === 'full');
    if (none) out.push(megatron ? 'shard the optimizer state over DP (the distributed optimizer)' : 'shard the optimizer state over DP (ZeRO or FSDP)');
    else if (!full) out.push(megatron ? 'shard gradients and parameters over DP too (Megatron FSDP)' : 'shard gradients and parameters over DP too (ZeRO-3 or full FSDP)');
  }
  if (p.recompute.value !== 'full') out.push(p.recompute.value === 'selective' ? 'recompute whole layers (full recomputation)' : 'recompute activations');
  const text = out.length > 1 ? `${out.slice(0, -1).join(', ')} or ${out[out.length - 1]}` : out[0];
  return text.charAt(0).toUpperCase() + text.slice(1);
}
