/**
 * What changed between two Plans of the same file: the decisions a fix would change (degrees, the
 * number of GPUs, batch sizes, precision, sharding, switches), named as a user reads them. Used in
 * the titles of unsafe fixes ("changes the layout: TP 8 → 1, DP 3 → 24") and by the tests that check
 * that safe fixes change no decision.
 */
import type { Field, Plan } from './plan';

export interface PlanChange {
  /** A stable key (`tp`, `overlap.gradReduce`, `sharding.stage`). */
  key: string;
  /** How a user names it: `TP`, `global batch`, `overlapped grad reduce`. */
  label: string;
  before: unknown;
  after: unknown;
}

type Get = (p: Plan) => Field<unknown> | undefined;

const FIELDS: readonly [string, string, Get][] = [
  ['world', 'GPUs', (p) => p.world],
  ['nodes', 'nodes', (p) => p.nodes],
  ['tp', 'TP', (p) => p.tp],
  ['pp', 'PP', (p) => p.pp],
  ['vpp', 'VPP', (p) => p.vpp],
  ['cp', 'CP', (p) => p.cp],
  ['ep', 'EP', (p) => p.ep],
  ['etp', 'expert TP', (p) => p.etp],
  ['dpReplicate', 'dp_replicate', (p) => p.dpReplicate],
  ['dpShard', 'dp_shard', (p) => p.dpShard],
  ['spDegree', 'SP degree', (p) => p.spDegree],
  ['dp', 'DP', (p) => p.dp],
  ['sp', 'sequence parallelism', (p) => p.sp],
  ['microBatch', 'micro batch', (p) => p.microBatch],
  ['globalBatch', 'global batch', (p) => p.globalBatch],
  ['gradAccum', 'gradient accumulation', (p) => p.gradAccum],
  ['numMicroBatches', 'micro-batches per step', (p) => p.numMicroBatches],
  ['seqLength', 'sequence length', (p) => p.seqLength],
  ['precision', 'precision', (p) => p.precision],
  ['recompute', 'recompute', (p) => p.recompute],
  ['distributedOptimizer', 'distributed optimizer', (p) => p.distributedOptimizer],
  ['overlap.gradReduce', 'overlapped grad reduce', (p) => p.overlap.gradReduce],
  ['overlap.paramGather', 'overlapped param gather', (p) => p.overlap.paramGather],
  ['overlap.tpComm', 'TP comm overlap', (p) => p.overlap.tpComm],
  ['overlap.p2p', 'overlapped P2P', (p) => p.overlap.p2p],
  ['overlap.moeA2A', 'overlapped MoE all-to-all', (p) => p.overlap.moeA2A],
];

/** A field's value, or undefined when the file does not decide it (unknown). */
function known(f: Field<unknown> | undefined): unknown {
  return f && f.from.kind !== 'unknown' ? f.value : undefined;
}

/** Every decision that differs between the two Plans, in a fixed order. */
export function planChanges(before: Plan | undefined, after: Plan | undefined): PlanChange[] {
  if (!before || !after) return [];
  const out: PlanChange[] = [];
  // Without experts (EP 1 on both sides), expert TP only mirrors TP.
  const dense = before.ep.value === 1 && after.ep.value === 1;
  for (const [key, label, get] of FIELDS) {
    if (dense && key === 'etp') continue;
    const a = known(get(before));
    const b = known(get(after));
    if (a !== b) out.push({ key, label, before: a, after: b });
  }
  const sa = before.sharding.value;
  const sb = after.sharding.value;
  for (const k of ['kind', 'stage', 'fsdp', 'offloadOptimizer', 'offloadParams'] as const) {
    const a = (sa as unknown as Record<string, unknown>)[k];
    const b = (sb as unknown as Record<string, unknown>)[k];
    if (a !== b) out.push({ key: `sharding.${k}`, label: k === 'kind' ? 'sharding' : k === 'stage' ? 'ZeRO stage' : k === 'fsdp' ? 'FSDP strategy' : k === 'offloadOptimizer' ? 'optimizer offload' : 'parameter offload', before: a, after: b });
  }
  return out;
}

function show(v: unknown): string {
  if (v === undefined) return 'unset';
  if (typeof v === 'boolean') return v ? 'on' : 'off';
  return String(v);
}

/**
 * `TP 8 → 1, DP 3 → 24`, for a fix title; empty when nothing the Plan holds changed. A lone change
 * of the field the title already names (`subject`) is shown without its label: `off → on`.
 */
export function describeChanges(changes: readonly PlanChange[], subject?: string, max = 4): string {
  if (changes.length === 1 && changes[0].label === subject) return `${show(changes[0].before)} → ${show(changes[0].after)}`;
  // A field that had no valid value before (DP of a world the degrees do not divide) just gets one.
  const shown = changes.slice(0, max).map((c) => (c.before === undefined && c.after !== undefined ? `${c.label} ${show(c.after)}` : `${c.label} ${show(c.before)} → ${show(c.after)}`));
  return shown.join(', ') + (changes.length > max ? ', …' : '');
}
