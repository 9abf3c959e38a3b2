/**
 * no-shard-dimension: an FSDP2 device mesh with nothing for FSDP to shard across.
 */
import type { AccelerateModel } from '../formats/accelerate/model';
import { isFsdp, parallelismPassedOn, parallelSizes, pcKey, src, total } from '../formats/accelerate/helpers';
import type { PathEdit } from '../syntax/sourcedoc';
import { defineRule, type FixSpec } from './rule';

export default defineRule<AccelerateModel>({
  id: 'no-shard-dimension',
  severity: 'error',
  formats: ['accelerate'],
  fixes: {
    'shard-instead': { applicability: 'unsafe', changes: 'the layout' },
    'multi-gpu': { applicability: 'unsafe', changes: 'the distributed backend' },
  },
  docs: {
    summary: 'FSDP2 with a `parallelism_config` whose `dp_shard_size` and `cp_size` are both 1.',
    why: 'FSDP2 shards across the `dp_shard` (and `cp`) dimensions of the mesh. With both at 1 (all ranks given to TP, or to pure replication) there is no dimension to shard on: with tensor parallelism over replicated ranks accelerate refuses the layout outright ("Tensor/Context parallelism ... cannot be used with pure data parallelism"), otherwise preparing the model fails on the missing mesh dimension (`KeyError: Invalid mesh_dim_names (\'dp_shard_cp\',)`). From Accelerate 1.13.0 a mesh with DeepSpeed sequence parallelism (`sp_size > 1`) is not built at all, so that failure cannot happen there. For TP alone use `MULTI_GPU`; for replication plus sharding, move the ranks to `dp_shard`.',
    bad: 'distributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n  fsdp_version: 2\nparallelism_config:\n  parallelism_config_dp_replicate_size: 4\n  parallelism_config_tp_size: 2\n',
    good: 'distributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n  fsdp_version: 2\nparallelism_config:\n  parallelism_config_dp_shard_size: 4\n  parallelism_config_tp_size: 2\n',
    fix: 'Moves the replicated ranks to `dp_shard` (same world size), or switches a TP-only mesh to `MULTI_GPU`.',
  },
  check(ctx) {
    const m = ctx.model;
    const written = parallelSizes(m);
    if (!written || !isFsdp(m, 2, (v) => ctx.atLeast(v)) || written.dp_shard > 1 || written.cp > 1) return;
    // Before 1.12.0 the mesh has no SP dimension and sp_size is not read (parallelism_config.py@v1.11.0).
    const sizes = written.sp > 1 && !ctx.atLeast('1.12.0') ? { ...written, sp: 1 } : written;
    if (total(sizes) <= 1) return;
    if (!parallelismPassedOn(ctx)) return;
    // ParallelismConfig refuses TP over pure replication before any mesh is built (parallelism_config.py@v1.10.0).
    const pureDp = sizes.dp_replicate > 1 && sizes.tp > 1;
    // Otherwise the launch first checks the mesh against num_processes (parallelism_config.py,
    // _validate_accelerator): a mesh that does not match stops there, which world-size-mismatch reports.
    const world = ctx.plan?.world?.value;
    if (!pureDp && world !== undefined && total(sizes) !== world && !(sizes.sp > 1 && ctx.atLeast('1.13.0'))) return;
    // From 1.13.0 no mesh is built with DeepSpeed sequence parallelism (parallelism_config.py@v1.13.0,
    // build_device_mesh), and FSDP2 is prepared without one: no lookup of the missing dimension.
    if (!pureDp && sizes.sp > 1 && ctx.atLeast('1.13.0')) return;
    const fixes: FixSpec[] = [];
    if (sizes.dp_replicate > 1) {
      const edits: PathEdit[] = [
        { op: 'set', path: src(m, ['parallelism_config', pcKey('dp_shard')]), value: sizes.dp_replicate },
        { op: 'set', path: src(m, ['parallelism_config', pcKey('dp_replicate')]), value: 1 },
      ];
      fixes.push({ kind: 'shard-instead', title: `Shard instead of replicate: \`dp_shard_size: ${sizes.dp_replicate}\`, \`dp_replicate_size: 1\``, edits, recommended: true });
    } else if (sizes.tp > 1 && sizes.sp === 1) {
      fixes.push({ kind: 'multi-gpu', title: 'Use `distributed_type: MULTI_GPU` (TP without FSDP)', edits: [{ op: 'set', path: ['distributed_type'], value: 'MULTI_GPU' }] });
    }
    ctx.report({
      at: src(m, ['parallelism_config']),
      message: `FSDP2 has nothing to shard: \`dp_shard_size\` and \`cp_size\` are both 1 in this ${total(sizes)}-rank mesh (dp_replicate ${sizes.dp_replicate} × tp ${sizes.tp}${sizes.sp > 1 ? ` × sp ${sizes.sp}` : ''})${pureDp ? ', and tensor parallelism over replicated ranks is refused: accelerate stops ("Tensor/Context parallelism (tp/cp_size > 1) cannot be used with pure data parallelism")' : ': preparing the model fails on the missing `dp_shard_cp` mesh dimension'}. ${sizes.dp_replicate > 1 ? 'Give the replicated ranks to `parallelism_config_dp_shard_size`' : 'For tensor parallelism alone use `distributed_type: MULTI_GPU`'}.`,
      fixes,
    });
  },
});
