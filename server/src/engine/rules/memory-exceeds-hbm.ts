/**
 * memory-exceeds-hbm: the estimated per-GPU memory is above the GPU's HBM.
 */
import { allKnown, fieldPath, fmtGiB, planMemory } from '../plan/layout';
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
  },
  check(ctx) {
    const p = ctx.plan;
    if (!p || !allKnown(p.tp, p.pp, p.cp, p.sharding)) return;
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
    ctx.report({
      at: fieldPath(p, p.tp, 'tp'),
      on: p.tp.from.kind === 'written' ? 'value' : 'key',
      severity: assumedHardware ? 'information' : undefined,
      message: `Estimated ${fmtGiB(b.total)} GiB per GPU (${parts})${noAct} exceeds the ${Math.round(p.hardware.profile.hbmGiB)} GiB of ${p.hardware.profile.id}${assumedHardware ? ' (the default profile: no hardware is set)' : ''}: expect an out-of-memory error${assumedHardware ? ' on that hardware' : ''}. Shard more (distributed optimizer, ZeRO/FSDP), add PP or TP within the NVLink domain, or recompute activations.`,
    });
  },
});
