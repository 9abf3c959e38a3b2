/**
 * The Plan of a DeepSpeed JSON: ZeRO sharding over the data-parallel ranks, offload, the batch
 * identity and precision. The world size is not in the file: it comes from a setting or from the
 * Accelerate configs that launch with it (their `num_processes`).
 */
import type { EngineSettings } from '../../settings';
import { planHardware, planModel } from '../../plan/context';
import type { Precision, Sharding } from '../../plan/memory';
import { byDefault, derived, written, type Field, type Plan } from '../../plan/plan';
import { lazySchema } from '../../schema/compiled';
import type { JsonSchema } from '../../schema/types';
import { defaultAt } from '../../schema/vocabulary';
import type { Path } from '../../types';
import { bf16Path, elasticBatch, referrerWorld, type DeepSpeedModel } from './model';

const one = (note: string): Field<number> => byDefault(1, note);

const SCHEMA = lazySchema(() => require('../../../../../schemas/deepspeed.schema.json') as JsonSchema);

/**
 * Where an offload section sends its data: the `device` written, else the release's default when the
 * section is written (`cpu` before DeepSpeed 0.5.7, `none` from 0.7.0; the newest when no release is
 * named), and `none` without the section. 0.5.7 to 0.6.7 default it to None and refuse the file
 * (zero-config-invalid): nothing is offloaded there.
 */
export function offloadDevice(m: DeepSpeedModel, section: 'offload_optimizer' | 'offload_param', release: string | undefined): string {
  const written = m.get(['zero_optimization', section, 'device']);
  if (written === null) return 'none';
  if (written !== undefined) return String(written);
  if (!m.has(['zero_optimization', section])) return 'none';
  const device = SCHEMA.properties?.zero_optimization?.properties?.[section]?.properties?.device;
  return String(defaultAt(device, release) ?? 'none');
}

/** A positive integer written in the file, or an unknown/default field saying why not. */
function sizeField(m: DeepSpeedModel, path: Path): Field<number> | undefined {
  const v = m.num(path);
  if (v !== undefined && Number.isInteger(v) && v >= 1) return written(v, m.where(path));
  if (m.isAuto(path)) return { value: 0, from: { kind: 'unknown', note: '`"auto"`: filled by Transformers or Accelerate when they start DeepSpeed' } };
  return undefined;
}

function precisionOf(m: DeepSpeedModel): Field<Precision> {
  if (m.bool(bf16Path(m, 'enabled'))) return written('bf16', m.where(bf16Path(m, 'enabled')));
  if (m.bool(['fp16', 'enabled'])) return written('fp16', ['fp16', 'enabled']);
  if (m.isAuto(['bf16', 'enabled']) || m.isAuto(['fp16', 'enabled'])) return { value: 'bf16', from: { kind: 'unknown', note: 'precision `"auto"`: Transformers or Accelerate decide' } };
  return byDefault('fp32', 'neither `fp16` nor `bf16` is enabled: DeepSpeed trains in fp32');
}

/**
 * `launched`: the world the file's user starts it with, when that user knows it (a Trainer recipe's
 * launcher); else the setting's, or that of the Accelerate configs that launch with the file.
 */
export function deepspeedPlan(m: DeepSpeedModel, settings: EngineSettings, launched?: Field<number>): Plan {
  const fromReferrers = referrerWorld(m);
  const world: Field<number> | undefined =
    launched ??
    (settings.worldSize
      ? { value: settings.worldSize, from: { kind: 'setting', note: '`world_size` setting' } }
      : fromReferrers
        ? derived(fromReferrers.value, `world = ${fromReferrers.from}`)
        : undefined);
  const nodes: Field<number> = settings.nodes ? { value: settings.nodes, from: { kind: 'setting', note: '`nodes` setting' } } : one('the node count is not in a DeepSpeed config');
  const sp = sizeField(m, ['sequence_parallel_size']) ?? one('no Ulysses sequence parallelism');
  const tpSize = m.num(['tensor_parallel', 'autotp_size']);
  const tp: Field<number> = tpSize !== undefined && Number.isInteger(tpSize) && tpSize >= 1 ? written(tpSize, ['tensor_parallel', 'autotp_size']) : one('no AutoTP tensor parallelism');
  const stage = m.stage;
  const stageFrom = m.stageWritten ? (stage === undefined ? { kind: 'unknown' as const, note: 'ZeRO stage `"auto"`: Accelerate fills it from its own config' } : { kind: 'written' as const, path: m.where(['zero_optimization', 'stage']) }) : { kind: 'default' as const, note: 'no `zero_optimization`: DeepSpeed runs without ZeRO (stage 0)' };
  const offOpt = offloadDevice(m, 'offload_optimizer', settings.targetVersions?.deepspeed);
  const offParam = offloadDevice(m, 'offload_param', settings.targetVersions?.deepspeed);
  const s = (stage ?? 0) as 0 | 1 | 2 | 3;
  const sharding: Field<Sharding> = {
    value: { kind: 'zero', stage: s, group: 1, offloadOptimizer: s >= 1 && offOpt !== 'none' && offOpt !== 'auto', offloadParams: s === 3 && offParam !== 'none' && offParam !== 'auto' },
    from: stageFrom,
  };
  const overlapWritten = m.bool(['zero_optimization', 'overlap_comm']);
  const overlap: Field<boolean> =
    overlapWritten !== undefined
      ? written(overlapWritten, m.where(['zero_optimization', 'overlap_comm']))
      : byDefault(s === 3, s === 3 ? 'DeepSpeed overlaps gradient reduction by default at ZeRO-3' : 'DeepSpeed overlaps gradient reduction by default only at ZeRO-3');
  // With elasticity on (DeepSpeed 0.3.9 on), DeepSpeed computes the batch keys itself and overwrites the file's.
  const elastic = elasticBatch(m) !== undefined;
  const micro = elastic ? undefined : sizeField(m, ['train_micro_batch_size_per_gpu']);
  const gas = elastic ? undefined : sizeField(m, ['gradient_accumulation_steps']);
  const train = elastic ? undefined : sizeField(m, ['train_batch_size']);
  const plan: Plan = {
    runtime: 'DeepSpeed',
    style: 'zero',
    world,
    nodes,
    tp,
    pp: one('pipeline parallelism is set up in code (PipelineModule)'),
    cp: one('no context parallelism'),
    ep: one('no expert parallelism'),
    etp: one('no expert parallelism'),
    dpReplicate: one('ZeRO shards over the data-parallel ranks'),
    dpShard: one('world size unknown'),
    spDegree: sp,
    sp: { value: false, from: { kind: 'default', note: 'DeepSpeed has no Megatron-style sequence parallelism' } },
    precision: precisionOf(m),
    sharding,
    recompute: byDefault('none', 'activation checkpointing is set in the training code'),
    overlap: { gradReduce: overlap },
    hardware: planHardware(settings),
    model: planModel(settings),
    seqLength: settings.seqLength ? { value: settings.seqLength, from: { kind: 'setting', note: '`seq_length` setting' } } : undefined,
    knobs: {},
    notes: [],
  };
  if (micro && micro.from.kind !== 'unknown') plan.microBatch = micro;
  if (gas && gas.from.kind !== 'unknown') plan.gradAccum = gas;
  if (train && train.from.kind !== 'unknown') plan.globalBatch = train;
  if (world) {
    const divisor = sp.value * tp.value;
    if (world.value % divisor === 0) {
      const dp = world.value / divisor;
      const parts = [tp.value > 1 && `AutoTP ${tp.value}`, sp.value > 1 && `SP ${sp.value}`].filter(Boolean);
      plan.dp = derived(dp, parts.length ? `DP = ${world.value} / (${parts.join(' × ')}) = ${dp}` : `DP = the ${world.value} ranks`, [world]);
      plan.dpShard = derived(dp, `ZeRO shards over the ${dp} data-parallel ranks`, [world]);
      plan.sharding = { value: { ...sharding.value, group: dp }, from: sharding.from };
    }
  }
  if (elastic) plan.notes.push('`elasticity.enabled`: DeepSpeed computes the micro batch, the gradient accumulation and the global batch itself from the elastic settings and the world size, so the file\'s batch keys do not set them.');
  if (!m.referrers.length && !world) plan.notes.push('The world size is not in a DeepSpeed config (and JSON has no comments for a directive): set `world_size: <n>` in .shardwise.yaml, or open the Accelerate config that launches with this file.');
  return plan;
}
