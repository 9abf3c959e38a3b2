/**
 * The Plan of an Accelerate config, with accelerate's own semantics:
 * - `num_processes` is the world size (the total over all machines);
 * - the Megatron-LM plugin's degrees come from `megatron_lm_config` with the plugin's defaults
 *   (context parallel 2 when absent, since accelerate 1.13.0), and Megatron's DP = world / (TP·PP·CP);
 * - FSDP2 with `parallelism_config` builds a device mesh dp_replicate × dp_shard × cp × sp × tp whose
 *   product must equal the world size; FSDP without it shards over every rank (HYBRID_SHARD: within a node);
 * - DeepSpeed shards over every rank at the ZeRO stage of `deepspeed_config`.
 */
import type { EngineSettings } from '../../settings';
import { versionAtLeast } from '../../version';
import { planHardware, planModel } from '../../plan/context';
import { deriveMegatronGrid } from '../../plan/layout';
import type { Precision, Sharding } from '../../plan/memory';
import { byDefault, derived, written, type Field, type Knob, type Plan, type Provenance } from '../../plan/plan';
import type { Path } from '../../types';
import type { AccelerateModel } from './model';
import { offloadDevice } from '../deepspeed/plan';
import { fsdpStrategyName, parallelSizes, pcKey, src } from './helpers';

const MULTI = ['MULTI_GPU', 'MULTI_NPU', 'MULTI_MLU', 'MULTI_SDAA', 'MULTI_MUSA', 'MULTI_XPU', 'MULTI_HPU', 'MULTI_NEURON', 'MULTI_CPU'];

function num(m: AccelerateModel, path: Path, fallback: number, note: string): Field<number> {
  const v = m.view.num(path);
  return v !== undefined && Number.isInteger(v) && v >= 1 ? written(v, src(m, path)) : byDefault(fallback, note);
}

function bool(m: AccelerateModel, path: Path, fallback: boolean, note: string): Field<boolean> {
  const v = m.view.bool(path);
  return v !== undefined ? written(v, src(m, path)) : byDefault(fallback, note);
}

function precisionOf(m: AccelerateModel): Field<Precision> {
  // With a DeepSpeed JSON, its fp16/bf16 sections decide (accelerate refuses `mixed_precision` beside it).
  const json = m.deepspeedFile?.model;
  if (json) {
    const bf16 = (json.bool(['bf16', 'enabled']) ?? json.bool(['bfloat16', 'enabled'])) === true;
    const fp16 = json.bool(['fp16', 'enabled']) === true;
    if (bf16 !== fp16) return { value: bf16 ? 'bf16' : 'fp16', from: { kind: 'default', note: `the ${bf16 ? 'bf16' : 'fp16'} section of ${m.deepspeedFile!.ref}` } };
  }
  const mp = m.mixedPrecision;
  const map: Record<string, Precision> = { bf16: 'bf16', fp16: 'fp16', fp8: 'fp8', no: 'fp32' };
  if (mp && map[mp]) return written(map[mp], src(m, ['mixed_precision']));
  return byDefault('fp32', 'no `mixed_precision`: accelerate trains in full precision');
}

const one = (note: string): Field<number> => byDefault(1, note);

export function acceleratePlan(m: AccelerateModel, settings: EngineSettings): Plan | undefined {
  const dt = m.distributedType;
  if (m.sagemaker || !dt || dt === 'XLA') return undefined;
  const base = planBase(m, dt, settings);
  if (dt === 'MEGATRON_LM') return megatronLmPlan(m, base, settings.targetVersions?.accelerate);
  const mesh = meshOf(m);
  if (dt === 'FSDP') return fsdpPlan(m, base, mesh);
  if (dt === 'DEEPSPEED') return zeroPlan(m, base, mesh, settings.targetVersions?.deepspeed);
  return dataParallelPlan(dt, base, mesh);
}

/** What every accelerate layout shares: processes, machines, precision, hardware, and what settings add. */
function planBase(m: AccelerateModel, dt: string, settings: EngineSettings) {
  const hardware = planHardware(settings);
  const nodes = num(m, ['num_machines'], 1, '`num_machines` defaults to 1');
  let world: Field<number> | undefined;
  if (dt === 'NO') world = byDefault(1, "`distributed_type: 'NO'` runs one process");
  else {
    const n = m.view.num(['num_processes']);
    if (n !== undefined && Number.isInteger(n) && n >= 1) world = written(n, src(m, ['num_processes']));
  }
  const perNode = world && Number.isInteger(world.value / nodes.value) ? derived(world.value / nodes.value, `per node = num_processes ${world.value} / num_machines ${nodes.value}`) : undefined;
  return {
    nodes,
    world,
    perNode,
    precision: precisionOf(m),
    hardware,
    model: planModel(settings),
    seqLength: settings.seqLength ? { value: settings.seqLength, from: { kind: 'setting' as const, note: '`seq_length` setting (accelerate configs do not hold it)' } } : undefined,
    microBatch: settings.microBatch ? { value: settings.microBatch, from: { kind: 'setting' as const, note: '`micro_batch_size` setting (set by the training script\'s dataloader)' } } : undefined,
    notes: [] as string[],
    overlap: {},
    vpp: undefined,
  };
}

type PlanBase = ReturnType<typeof planBase>;

/** The `parallelism_config` mesh (when written) and the fields every layout outside the Megatron-LM plugin shares. */
function meshOf(m: AccelerateModel) {
  const sizes = parallelSizes(m);
  const meshKnobs: Partial<Record<Knob, Path>> = { world: src(m, ['num_processes']) };
  for (const [knob, dim] of [['tp', 'tp'], ['cp', 'cp'], ['dpReplicate', 'dp_replicate'], ['dpShard', 'dp_shard']] as const) meshKnobs[knob] = src(m, ['parallelism_config', pcKey(dim)]);
  const meshField = (dim: 'tp' | 'cp' | 'dp_replicate' | 'dp_shard' | 'sp'): Field<number> => num(m, ['parallelism_config', pcKey(dim)], 1, `\`${pcKey(dim)}\` defaults to 1`);
  const common = {
    pp: one('accelerate does not pipeline outside the Megatron-LM plugin'),
    ep: one('no expert parallelism'),
    etp: one('no expert parallelism'),
    sp: byDefault(false, 'Megatron-style sequence parallelism is a Megatron-LM plugin setting'),
  };
  return { sizes, meshKnobs, meshField, common };
}

type Mesh = ReturnType<typeof meshOf>;

/** accelerate's Megatron-LM plugin: its own degrees and defaults (context parallelism 2 when unset from 1.13.0). */
function megatronLmPlan(m: AccelerateModel, base: PlanBase, version: string | undefined): Plan {
  const { world } = base;
  const sec = 'megatron_lm_config';
  const tp = num(m, [sec, 'megatron_lm_tp_degree'], 1, 'the Megatron-LM plugin uses TP 1');
  const pp = num(m, [sec, 'megatron_lm_pp_degree'], 1, 'the Megatron-LM plugin uses PP 1');
  const cpDefault = !version || versionAtLeast(version, '1.13.0') ? 2 : 1;
  const cpWritten = num(m, [sec, 'megatron_lm_context_parallel_size'], cpDefault, cpDefault === 2 ? "the Megatron-LM plugin's context-parallel size is 2 when unset (accelerate ≥ 1.13.0)" : `accelerate ${version} has no context parallelism`);
  // The default of 2 came with accelerate 1.13.0 (before it, no context parallelism): with no release
  // named, that it applies is an assumption, which the findings resting on it name.
  const cp: Field<number> =
    cpWritten.from.kind === 'default' && !version
      ? { value: 2, from: { kind: 'assumed', note: "the Megatron-LM plugin's context-parallel size is 2 when unset from accelerate 1.13.0 (1 before it), and no release is named (say which with `# shardwise: accelerate=<version>` or `--target accelerate=<version>`)" } }
      : cpWritten;
  const ep = num(m, [sec, 'megatron_lm_expert_model_parallel_size'], 1, 'the Megatron-LM plugin uses EP 1');
  const etp = num(m, [sec, 'megatron_lm_expert_tensor_parallel_size'], 1, "the Megatron-LM plugin sets expert TP to 1 (Megatron's own default would be TP)");
  const sp = bool(m, [sec, 'megatron_lm_sequence_parallelism'], false, 'the Megatron-LM plugin leaves sequence parallelism off');
  const dist = bool(m, [sec, 'megatron_lm_use_distributed_optimizer'], false, 'the Megatron-LM plugin leaves the distributed optimizer off');
  const nmb = num(m, [sec, 'megatron_lm_num_micro_batches'], 1, 'the Megatron-LM plugin uses 1 micro-batch');
  const granularity = m.view.str([sec, 'megatron_lm_recompute_granularity']);
  const recompute: Plan['recompute'] =
    granularity === 'selective' || granularity === 'full' ? written(granularity, src(m, [sec, 'megatron_lm_recompute_granularity'])) : byDefault('full', 'the Megatron-LM plugin recomputes full layers by default (accelerate ≥ 1.13.0)');
  const knobs: Partial<Record<Knob, Path>> = {
    world: src(m, ['num_processes']),
    tp: src(m, [sec, 'megatron_lm_tp_degree']),
    pp: src(m, [sec, 'megatron_lm_pp_degree']),
    cp: src(m, [sec, 'megatron_lm_context_parallel_size']),
    ep: src(m, [sec, 'megatron_lm_expert_model_parallel_size']),
    etp: src(m, [sec, 'megatron_lm_expert_tensor_parallel_size']),
    sp: src(m, [sec, 'megatron_lm_sequence_parallelism']),
    numMicroBatches: src(m, [sec, 'megatron_lm_num_micro_batches']),
    distributedOptimizer: src(m, [sec, 'megatron_lm_use_distributed_optimizer']),
  };
  const plan: Plan = {
    ...base,
    runtime: "accelerate's Megatron-LM plugin",
    style: 'megatron',
    tp,
    pp,
    cp,
    ep,
    etp,
    dpReplicate: one('Megatron replicates over DP'),
    dpShard: one('no FSDP'),
    spDegree: one('no Ulysses SP'),
    sp,
    numMicroBatches: nmb,
    distributedOptimizer: dist,
    sharding: dist.value ? { value: { kind: 'distributed-optimizer', group: 1 }, from: dist.from } : { value: { kind: 'none', group: 1 }, from: dist.from },
    recompute,
    knobs,
  };
  const dp = deriveMegatronGrid(plan);
  if (world && dp !== undefined && cp.value > 1) {
    const accDp = Math.floor(world.value / (tp.value * pp.value));
    plan.notes.push(
      `accelerate computes its own data-parallel size as num_processes / (TP × PP) = ${accDp}, ignoring CP ${cp.value}; it sets the global batch to ${accDp} × micro-batch × ${nmb.value} micro-batches, so Megatron (DP ${dp}) runs ${nmb.value * cp.value} micro-batches per step, not ${nmb.value}.`,
    );
  }
  return plan;
}

/** FSDP1 or FSDP2 (with an N-D mesh), HYBRID_SHARD within nodes, NO_SHARD replicating. */
function fsdpPlan(m: AccelerateModel, base: PlanBase, { sizes, meshKnobs, meshField, common }: Mesh): Plan {
  const { world, nodes, perNode } = base;
  const v2 = m.fsdpVersion === 2;
  const shardingField = fsdpSharding(m, v2);
  const recompute: Plan['recompute'] = bool(m, ['fsdp_config', 'fsdp_activation_checkpointing'], false, 'activation checkpointing is off').value
    ? written('full', src(m, ['fsdp_config', 'fsdp_activation_checkpointing']))
    : byDefault('none', '`fsdp_activation_checkpointing` is off');
  const plan: Plan = {
    ...base,
    ...common,
    runtime: v2 ? (sizes ? 'FSDP2 with an N-D device mesh' : 'FSDP2') : 'FSDP1',
    style: 'mesh',
    tp: one('no tensor parallelism'),
    cp: one('no context parallelism'),
    dpReplicate: one('no replication'),
    dpShard: world ? derived(world.value, `FSDP shards over all ${world.value} ranks`) : one('world size unknown'),
    spDegree: one('no Ulysses SP'),
    sharding: shardingField,
    recompute,
    knobs: meshKnobs,
  };
  if (sizes && v2) {
    plan.tp = meshField('tp');
    plan.cp = meshField('cp');
    plan.dpReplicate = meshField('dp_replicate');
    plan.dpShard = meshField('dp_shard');
    plan.spDegree = meshField('sp');
  } else if (shardingField.value.fsdp === 'full' && /HYBRID/.test(String(m.view.get(['fsdp_config', 'fsdp_sharding_strategy']) ?? '')) && perNode) {
    plan.dpShard = derived(perNode.value, `HYBRID_SHARD shards within a node: ${perNode.value} ranks`);
    plan.dpReplicate = derived(nodes.value, `HYBRID_SHARD replicates across the ${nodes.value} nodes`);
  } else if (shardingField.value.fsdp === 'no-shard' && world) {
    plan.dpShard = one('NO_SHARD keeps a full copy on every rank');
    plan.dpReplicate = derived(world.value, `NO_SHARD replicates over all ${world.value} ranks`);
  }
  finishMesh(plan);
  return plan;
}

/** DeepSpeed ZeRO, with the stage and offload from the linked JSON when the host read it. */
function zeroPlan(m: AccelerateModel, base: PlanBase, { sizes, meshKnobs, meshField, common }: Mesh, deepspeedRelease?: string): Plan {
  const { world } = base;
  const fileDecides = m.view.has(['deepspeed_config', 'deepspeed_config_file']);
  // With a DeepSpeed JSON the ZeRO settings are read from it (when the host could read it).
  const ds = m.deepspeedFile?.model;
  const stage = m.view.num(['deepspeed_config', 'zero_stage']);
  const stageField: Field<number> = fileDecides
    ? ds && ds.stage !== undefined
      ? { value: ds.stage, from: { kind: 'default', note: `${ds.stageWritten ? 'set' : 'defaulted'} in ${m.deepspeedFile!.ref} (\`zero_optimization.stage\`)` } }
      : { value: 0, from: { kind: 'unknown', note: 'the ZeRO stage is in the DeepSpeed JSON file' } }
    : stage !== undefined
      ? written(stage, src(m, ['deepspeed_config', 'zero_stage']))
      : byDefault(2, 'accelerate uses ZeRO stage 2 when `zero_stage` is absent');
  const offOpt = ds ? offloadDevice(ds, 'offload_optimizer', deepspeedRelease) : m.view.str(['deepspeed_config', 'offload_optimizer_device']);
  const offParam = ds ? offloadDevice(ds, 'offload_param', deepspeedRelease) : m.view.str(['deepspeed_config', 'offload_param_device']);
  const ga = m.view.get(['deepspeed_config', 'gradient_accumulation_steps']);
  const plan: Plan = {
    ...base,
    ...common,
    runtime: 'DeepSpeed ZeRO',
    style: 'zero',
    tp: one('no tensor parallelism'),
    cp: one('no context parallelism'),
    dpReplicate: one('ZeRO shards over all ranks'),
    dpShard: world ? derived(world.value, `ZeRO shards over all ${world.value} ranks`) : one('world size unknown'),
    spDegree: sizes ? meshField('sp') : one('no Ulysses SP'),
    sharding: {
      value: { kind: 'zero', stage: stageField.value as 0 | 1 | 2 | 3, group: world?.value ?? 1, offloadOptimizer: offOpt === 'cpu' || offOpt === 'nvme', offloadParams: offParam === 'cpu' || offParam === 'nvme' },
      from: stageField.from,
    },
    recompute: byDefault('none', 'activation checkpointing is set in the training script'),
    knobs: meshKnobs,
  };
  if (typeof ga === 'number') plan.gradAccum = written(ga, src(m, ['deepspeed_config', 'gradient_accumulation_steps']));
  if (plan.spDegree.value > 1 && world) plan.dpShard = derived(world.value / plan.spDegree.value, `ZeRO shards over ${world.value} / SP ${plan.spDegree.value} ranks`);
  finishMesh(plan);
  return plan;
}

/** NO and the MULTI_* types: DDP, optionally with a parallelism_config mesh (TP / CP with FSDP2). */
function dataParallelPlan(dt: string, base: PlanBase, { sizes, meshKnobs, meshField, common }: Mesh): Plan {
  const { world } = base;
  const plan: Plan = {
    ...base,
    ...common,
    runtime: dt === 'NO' ? 'a single process' : MULTI.includes(dt) ? (sizes ? 'DDP with an N-D device mesh' : 'DDP (DistributedDataParallel)') : dt,
    style: 'data-parallel',
    tp: sizes ? meshField('tp') : one('no tensor parallelism'),
    cp: sizes ? meshField('cp') : one('no context parallelism'),
    dpReplicate: sizes ? meshField('dp_replicate') : world ? derived(world.value, `DDP replicates over all ${world.value} ranks`) : one('world size unknown'),
    dpShard: sizes ? meshField('dp_shard') : one('DDP does not shard'),
    spDegree: sizes ? meshField('sp') : one('no Ulysses SP'),
    sharding: byDefault({ kind: 'none', group: 1 }, 'DDP keeps full weights, gradients and optimizer state on every rank'),
    recompute: byDefault('none', 'activation checkpointing is set in the training script'),
    knobs: meshKnobs,
  };
  if (!sizes && world) plan.dpReplicate = derived(world.value, `DDP replicates over all ${world.value} ranks`);
  finishMesh(plan);
  return plan;
}

function fsdpSharding(m: AccelerateModel, v2: boolean): Field<Sharding> {
  const offload = m.view.bool(['fsdp_config', 'fsdp_offload_params']) === true;
  if (v2) {
    const r = m.view.get(['fsdp_config', 'fsdp_reshard_after_forward']);
    const full = r === undefined || r === true || String(r).toLowerCase() === 'true';
    const from: Provenance = r === undefined ? { kind: 'default', note: 'FSDP2 reshards after forward by default' } : { kind: 'written', path: src(m, ['fsdp_config', 'fsdp_reshard_after_forward']) };
    return { value: { kind: 'fsdp', fsdp: full ? 'full' : 'grad-op', group: 1, offloadParams: offload, offloadOptimizer: offload }, from };
  }
  const s = m.view.get(['fsdp_config', 'fsdp_sharding_strategy']);
  const name = fsdpStrategyName(s);
  const kind = name === 'SHARD_GRAD_OP' || name === 'HYBRID_SHARD_ZERO2' ? 'grad-op' : name === 'NO_SHARD' ? 'no-shard' : 'full';
  const from: Provenance = name ? { kind: 'written', path: src(m, ['fsdp_config', 'fsdp_sharding_strategy']) } : { kind: 'default', note: 'the FSDP launcher exports FULL_SHARD' };
  return { value: { kind: 'fsdp', fsdp: kind, group: 1, offloadParams: offload, offloadOptimizer: offload }, from };
}

/** Derives DP for a device mesh and sets the shard group of the sharding. */
function finishMesh(plan: Plan): void {
  const dp = plan.dpReplicate.value * plan.dpShard.value;
  const parts = [`dp_replicate ${plan.dpReplicate.value}`, `dp_shard ${plan.dpShard.value}`];
  plan.dp = derived(dp, `DP = ${parts.join(' × ')} = ${dp}`);
  plan.sharding = { value: { ...plan.sharding.value, group: plan.sharding.value.kind === 'none' ? 1 : plan.dpShard.value }, from: plan.sharding.from };
}
