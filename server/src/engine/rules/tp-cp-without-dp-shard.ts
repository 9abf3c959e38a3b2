/**
 * tp-cp-without-dp-shard: TP or CP combined with pure replicated data parallelism.
 */
import type { AccelerateModel } from '../formats/accelerate/model';
import { parallelismPassedOn, parallelSizes, pcKey, src } from '../formats/accelerate/helpers';
import { defineRule } from './rule';

export default defineRule<AccelerateModel>({
  id: 'tp-cp-without-dp-shard',
  severity: 'error',
  formats: ['accelerate'],
  fixes: {
    'shard-instead': { applicability: 'unsafe', changes: 'the layout' },
  },
  docs: {
    summary: 'Tensor or context parallelism with `dp_replicate_size > 1` and `dp_shard_size == 1`.',
    why: 'Accelerate composes TP/CP with FSDP (2-D) or HSDP (3-D) but not with pure replication, and stops ("Tensor/Context parallelism (tp/cp_size > 1) cannot be used with pure data parallelism"). Sharding the data-parallel dimension also saves the memory replication would waste.',
    bad: 'distributed_type: MULTI_GPU\nnum_processes: 8\nparallelism_config:\n  parallelism_config_dp_replicate_size: 4\n  parallelism_config_tp_size: 2\n',
    good: 'distributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n  fsdp_version: 2\nparallelism_config:\n  parallelism_config_dp_shard_size: 4\n  parallelism_config_tp_size: 2\n',
    fix: 'Moves the replicated ranks to `dp_shard` (same world size).',
    upstream: [
      { label: 'Accelerate v1.14.0, `parallelism_config.py`: TP or CP with pure data parallelism', url: 'https://github.com/huggingface/accelerate/blob/v1.14.0/src/accelerate/parallelism_config.py#L338' },
    ],
  },
  check(ctx) {
    const m = ctx.model;
    const sizes = parallelSizes(m);
    if (!sizes || !(sizes.tp > 1 || sizes.cp > 1) || sizes.dp_replicate <= 1 || sizes.dp_shard !== 1) return;
    // Under FSDP2 no-shard-dimension says the same and more.
    if (m.distributedType === 'FSDP' && m.fsdpVersion === 2 && sizes.cp === 1) return;
    // The refusal is ParallelismConfig's, built only where the launch passes the section on.
    if (!parallelismPassedOn(ctx)) return;
    ctx.report({
      at: src(m, ['parallelism_config', pcKey('dp_replicate')]),
      message: `${sizes.tp > 1 ? `TP ${sizes.tp}` : `CP ${sizes.cp}`} with pure replication (dp_replicate ${sizes.dp_replicate}, dp_shard 1): accelerate stops when it builds the parallelism config ("Tensor/Context parallelism (tp/cp_size > 1) cannot be used with pure data parallelism"). Shard the data-parallel dimension instead: \`dp_shard_size: ${sizes.dp_replicate}\` and \`dp_replicate_size: 1\` (FSDP2 + TP/CP), or keep both above 1 for HSDP.`,
      fixes: [
        {
          kind: 'shard-instead', title: `Shard instead: \`dp_shard_size: ${sizes.dp_replicate}\`, \`dp_replicate_size: 1\``,
          edits: [
            { op: 'set', path: src(m, ['parallelism_config', pcKey('dp_shard')]), value: sizes.dp_replicate },
            { op: 'set', path: src(m, ['parallelism_config', pcKey('dp_replicate')]), value: 1 },
          ],
          recommended: true,
        },
      ],
    });
  },
});
