/**
 * Arithmetic on a Plan: model-parallel sizes, which fabric each group's collectives cross, the
 * memory estimate, and the search for valid degrees that fixes propose.
 */
import { adapterStates } from './adapters';
import { estimateMemory, gib, type MemoryEstimate, type MemoryInput } from './memory';
import { derived, type Plan } from './plan';

/**
 * Megatron's generalized-TP factor at TP `tp` (Megatron Core 0.19.0 on): the weight shards over TP,
 * 1 without `--tensor-parallel-num-weight-shards`; undefined when the shards are fewer than TP or not
 * a multiple of it, which Megatron refuses (`resolve_tensor_parallel_weight_shards`). Its ranks hold
 * other shards of the same weights and read their own data: they count into the model-parallel size
 * the world must divide by, and into the data-parallel ranks the batch is split over.
 */
export function gtpFactor(p: Plan, tp?: number): number | undefined {
  // Without shards nothing else is read (a rule's reads are what its finding rests on).
  if (p.style !== 'megatron' || !p.weightShards) return 1;
  return shardFactor(p.weightShards.value, tp ?? p.tp.value);
}

/** The expert layers' factor: expert weight shards over expert TP (see `gtpFactor`). */
export function expertGtpFactor(p: Plan, etp?: number): number | undefined {
  if (p.style !== 'megatron' || !p.expertWeightShards) return 1;
  return shardFactor(p.expertWeightShards.value, etp ?? p.etp.value);
}

function shardFactor(shards: number, tp: number): number | undefined {
  return shards >= tp && shards % tp === 0 ? shards / tp : undefined;
}

/**
 * Ranks one model replica spans (Megatron: TP·PP·CP times the generalized-TP factor, plus a separate
 * encoder's ranks; a mesh: tp·cp·sp·pp), with `tp` for the plan's TP when given.
 */
export function modelSize(p: Plan, tp = p.tp.value): number {
  return p.style === 'megatron' ? tp * (gtpFactor(p, tp) ?? 1) * p.pp.value * p.cp.value + (p.encoder?.value ?? 0) : tp * p.cp.value * p.spDegree.value * p.pp.value;
}

/** The ranks of one expert-layer replica Megatron lays out: expert TP × EP × PP times the expert factor. */
export function expertGridSize(p: Plan, etp = p.etp.value): number {
  return etp * (expertGtpFactor(p, etp) ?? 1) * p.ep.value * p.pp.value;
}

/**
 * The model dimensions a degree must fit: the model's when the Plan knows it, else those the
 * arguments write (heads without a hidden size still bind TP). Query groups only where they are
 * split across TP (not with multi-head latent attention).
 */
export function shapeLimits(p: Plan): { heads?: number; groups?: number; layers?: number; experts?: number } {
  const m = p.model?.value;
  if (m) return { heads: m.heads, groups: m.mla ? undefined : m.queryGroups, layers: m.layers, experts: m.experts };
  const a = p.arch;
  return { heads: a?.heads?.value, groups: a?.queryGroups?.value, layers: a?.layers?.value, experts: a?.experts?.value };
}

/**
 * Whether Megatron takes TP `tp` for the heads and query groups known (TransformerConfig: the heads
 * a multiple of TP at every release, the groups a multiple of it; the groups dividing TP, which
 * 0.16.0 on also takes, is not offered): what a fix that changes TP must keep.
 */
export function tpFitsShape(p: Plan, tp: number): boolean {
  const s = shapeLimits(p);
  return (!s.heads || s.heads % tp === 0) && (!s.groups || s.groups % tp === 0);
}

/** Whether PP `pp` splits the known layers evenly (the embedding and the loss counted when the file says so). */
export function ppFitsShape(p: Plan, pp: number): boolean {
  const layers = shapeLimits(p).layers;
  if (!layers || p.pipelineSplit?.explicit) return true;
  const counted = layers + (p.pipelineSplit?.embedding ? 1 : 0) + (p.pipelineSplit?.loss ? 1 : 0);
  return counted % pp === 0;
}

/** Whether EP `ep` divides the known experts (Megatron gives each EP rank whole experts). */
export function epFitsShape(p: Plan, ep: number): boolean {
  const experts = shapeLimits(p).experts;
  return !experts || experts % ep === 0;
}

/** The product of a device mesh's dimensions (what must equal the world size). */
export function meshSize(p: Plan): number {
  return p.dpReplicate.value * p.dpShard.value * p.cp.value * p.spDegree.value * p.tp.value * p.pp.value;
}

/**
 * Whether the layout fills its world: the model-parallel degrees (and Megatron's expert grid)
 * divide the world size, and a device mesh written out multiplies to it. A layout that does not is
 * world-size-mismatch's (or expert-grid-mismatch's) finding, and the tool stops on it: DP, the
 * memory per GPU and the groups that span the world are numbers of GPUs that do not exist, so
 * nothing else reasons from them. Without a world size there is nothing to fill (and no DP).
 */
export function layoutFits(p: Plan): boolean {
  const world = p.world?.value;
  if (world === undefined) return true;
  if (p.dp === undefined) return false;
  if (p.style === 'megatron') return gtpFactor(p) !== undefined && expertGtpFactor(p) !== undefined && world % modelSize(p) === 0 && (p.ep.value <= 1 || world % expertGridSize(p) === 0);
  if (p.style === 'mesh' || p.style === 'data-parallel') {
    const written = [p.tp, p.cp, p.dpReplicate, p.dpShard, p.spDegree].some((f) => f.from.kind === 'written');
    const mesh = meshSize(p);
    return !written || mesh === 1 || mesh === world;
  }
  return true;
}

/**
 * DP once TP is `tp` at the same world (the ranks TP frees or takes go to DP; a mesh gives them to
 * dp_shard): the one computation behind a TP fix's edits, its message and its memory estimate.
 * Undefined when the layout does not fill its world, or the new TP does not divide what it must.
 */
export function dpWithTp(p: Plan, tp: number): number | undefined {
  if (!layoutFits(p) || !p.dp || tp < 1) return undefined;
  const world = p.world?.value;
  if (p.style === 'megatron' && world !== undefined) {
    // The weight shards stay as written: the factor is theirs over the new TP, which they must allow.
    const factor = gtpFactor(p, tp);
    const size = modelSize(p, tp);
    return factor !== undefined && world % size === 0 ? (world / size) * factor : undefined;
  }
  const dp = (p.dp.value * p.tp.value) / tp;
  return Number.isInteger(dp) ? dp : undefined;
}

/** The divisors of a positive integer up to 2³², ascending (none for anything else); O(√n). */
export function divisors(n: number): number[] {
  if (!Number.isSafeInteger(n) || n < 1 || n > 2 ** 32) return [];
  const low: number[] = [];
  const high: number[] = [];
  for (let d = 1; d * d <= n; d++) {
    if (n % d !== 0) continue;
    low.push(d);
    if (d * d !== n) high.push(n / d);
  }
  return low.concat(high.reverse());
}

export interface GroupFabric {
  name: 'TP' | 'CP' | 'EP' | 'DP' | 'PP';
  size: number;
  /** Consecutive ranks the group spans (Megatron's order tp-cp-ep-dp-pp; a mesh's tp innermost). */
  span: number;
  insideDomain: boolean;
  fabric: string;
}

/** The fabric each group's collectives use, from the rank order and the NVLink domain. */
export function groupFabrics(p: Plan): GroupFabric[] {
  const domain = p.hardware.nvlinkDomain.value;
  const { scaleUp, scaleOut } = p.hardware.profile;
  const tp = p.tp.value;
  const cp = p.cp.value * (p.style === 'megatron' ? 1 : p.spDegree.value);
  const dp = p.dp?.value ?? 1;
  const groups: GroupFabric[] = [];
  const add = (name: GroupFabric['name'], size: number, span: number): void => {
    if (size <= 1) return;
    const inside = span <= domain && domain % span === 0;
    groups.push({ name, size, span, insideDomain: inside, fabric: inside ? scaleUp : `${scaleOut} (spans ${span} ranks, the NVLink domain is ${domain})` });
  };
  // Megatron puts the generalized-TP ranks right after TP (tp-gtp_remat-cp-…), and the data and
  // expert groups around them are not modelled here: past TP nothing is said of such a layout.
  add('TP', tp, tp);
  if (gtpFactor(p) !== 1 || expertGtpFactor(p) !== 1) return groups;
  add('CP', cp, tp * cp);
  if (p.ep.value > 1) add('EP', p.ep.value, p.etp.value * p.ep.value);
  // DP and PP groups span the world: of a layout that does not fill it, they are not known.
  if (!layoutFits(p)) return groups;
  add('DP', dp, tp * cp * dp);
  add('PP', p.pp.value, (p.world?.value ?? tp * cp * dp * p.pp.value));
  return groups;
}

/** Per-GPU memory when the Plan knows the model; undefined otherwise. */
export function planMemory(p: Plan, overrides: Partial<MemoryInput> = {}): MemoryEstimate | undefined {
  // Memory per GPU of a layout that does not fill its world is that of GPUs that do not exist.
  if (!p.model || p.notTraining || !layoutFits(p)) return undefined;
  // Weights split over the generalized-TP ranks as well (and gathered back per layer): not modelled.
  if (gtpFactor(p) !== 1 || expertGtpFactor(p) !== 1) return undefined;
  // Whether the model trains at all is not known: neither are its gradients and optimizer state.
  if (p.frozen?.from.kind === 'unknown') return undefined;
  // States sharded over a data-parallel group of unknown size take an unknown share of each GPU.
  const s = p.sharding.value;
  const sharded = s.kind === 'distributed-optimizer' || (s.kind === 'zero' && (s.stage ?? 0) > 0) || (s.kind === 'fsdp' && s.fsdp !== 'no-shard');
  if (!p.world && sharded && overrides.dp === undefined && overrides.sharding === undefined) return undefined;
  const dp = p.dp?.value ?? 1;
  const input: MemoryInput = {
    model: p.model.value,
    tp: p.tp.value,
    pp: p.pp.value,
    vpp: p.vpp?.value,
    cp: p.cp.value * p.spDegree.value,
    ep: p.ep.value,
    etp: p.etp.value,
    dp,
    expertDp: p.expertDp?.value ?? dp,
    sp: p.sp.value,
    microBatch: p.microBatch?.value ?? 1,
    seqLength: p.seqLength?.value ?? 0,
    numMicroBatches: p.numMicroBatches?.value,
    precision: p.precision.value,
    sharding: p.sharding.value,
    recompute: p.recompute.value,
    gradBytes16: p.gradReduce16,
    ...(p.frozen ? { frozen: p.frozen.value } : {}),
    ...scaledWithDp(p, dp, overrides.dp),
    ...overrides,
  };
  if (p.adapter && !overrides.states) input.states = adapterStates(input.model, p.adapter.value, input.sharding, input.tp);
  try {
    return estimateMemory(input);
  } catch {
    return undefined;
  }
}

/**
 * What follows from a different DP at the same world and global batch: the states sharded over DP
 * are sharded over the new DP, and each replica runs proportionally fewer micro-batches. Without
 * this, "TP 2 fits" (asked of a TP 4 plan) and "TP 2 fits" (asked of the TP 2 plan) would disagree.
 */
function scaledWithDp(p: Plan, dp: number, next: number | undefined): Partial<MemoryInput> {
  if (next === undefined || next === dp || dp <= 0) return {};
  const sharding = p.sharding.value;
  const out: Partial<MemoryInput> = {};
  if (sharding.group === dp) out.sharding = { ...sharding, group: next };
  if (p.expertDp) out.expertDp = Math.max(1, Math.round((p.expertDp.value * next) / dp));
  const n = p.numMicroBatches?.value;
  if (n !== undefined && Number.isInteger((n * dp) / next)) out.numMicroBatches = (n * dp) / next;
  return out;
}

export function fmtGiB(bytes: number): string {
  const g = gib(bytes);
  return g >= 100 ? g.toFixed(0) : g >= 10 ? g.toFixed(1) : g.toFixed(2);
}

/** `64 GPUs = TP 8 × PP 2 × CP 1 × DP 4 · ~52 GiB/GPU of 80 · h100-sxm`; with experts, their grid follows in parentheses. */
export function layoutSummary(p: Plan): string {
  const parts: string[] = [];
  const deg = (name: string, v: number) => `${name} ${v}`;
  if (p.style === 'megatron') {
    parts.push(deg('TP', p.tp.value), deg('PP', p.pp.value), deg('CP', p.cp.value));
    parts.push(p.dp ? deg('DP', p.dp.value) : 'DP ?');
  } else {
    if (p.tp.value > 1) parts.push(deg('TP', p.tp.value));
    if (p.cp.value > 1) parts.push(deg('CP', p.cp.value));
    if (p.spDegree.value > 1) parts.push(deg('SP', p.spDegree.value));
    if (p.dpReplicate.value > 1 && p.dpShard.value > 1) parts.push(`HSDP ${p.dpReplicate.value}×${p.dpShard.value}`);
    else if (p.dpShard.value > 1) parts.push(`${p.sharding.value.kind === 'zero' ? `ZeRO-${p.sharding.value.stage}` : 'FSDP'} ${p.dpShard.value}`);
    else if (p.sharding.value.kind === 'zero' && !p.world) parts.push(`ZeRO-${p.sharding.value.stage} × DP ?`);
    else parts.push(p.world ? deg('DP', p.dpReplicate.value) : 'DP ?');
  }
  // The expert grid is another factoring of the same GPUs (expert TP × EP × expert DP × PP), not a factor of it.
  const experts = p.style === 'megatron' && p.ep.value > 1 ? ` (experts: ETP ${p.etp.value} × EP ${p.ep.value} × EDP ${p.expertDp?.value ?? '?'} × PP ${p.pp.value})` : '';
  const head = `${p.world ? `${p.world.value} GPU${p.world.value === 1 ? '' : 's'}` : '? GPUs'} = ${parts.join(' × ')}${experts}`;
  const mem = planMemory(p);
  const memText = mem ? ` · ~${fmtGiB(mem.bytes.total)} GiB/GPU of ${Math.round(p.hardware.profile.hbmGiB)}` : '';
  return `${head}${memText} · ${p.hardware.profile.id}${p.allocation ? ` · ${p.allocation}` : ''}`;
}

/** The path-edit that writes a knob, if the format has it. */
export function knobEdit(p: Plan, knob: keyof Plan['knobs'], value: unknown): { op: 'set'; path: readonly (string | number)[]; value: unknown } | undefined {
  const path = p.knobs[knob];
  return path ? { op: 'set', path, value } : undefined;
}

/**
 * How this file spells a knob, for messages: the flag (`--tp-comm-overlap`) in scripts and
 * `MODEL_ARGS`, the key path (`comm_overlap.tp_comm_overlap`, `model.ub_tp_comm_overlap`) elsewhere.
 */
export function knobName(p: Plan, knob: keyof Plan['knobs'], flag: string): string {
  const setting = p.knobSettings?.[knob];
  if (setting) return setting;
  const path = p.knobs[knob];
  if (!path || !path.length) return flag;
  const last = String(path[path.length - 1]);
  return last.startsWith('-') ? last : path.filter((s) => typeof s === 'string' && s !== 'MODEL_ARGS').join('.');
}

/** "Add --x" for a flag, "Set x: true" for a key. */
export function turnOnTitle(p: Plan, knob: keyof Plan['knobs'], flag: string): string {
  const name = knobName(p, knob, flag);
  return name.startsWith('-') ? `Add ${name}` : `Set ${name}: true`;
}

/** Where to report a finding about a Plan field: where it is written, else where its knob is, else the top. */
export function fieldPath(p: Plan, field: { from: { kind: string; path?: readonly (string | number)[] } } | undefined, knob?: keyof Plan['knobs']): readonly (string | number)[] {
  if (field?.from.kind === 'written' && field.from.path) return field.from.path;
  if (knob && p.knobs[knob]) return p.knobs[knob]!;
  return [];
}

/**
 * Megatron's grid: DP = world / (TP·PP·CP) and expert DP = world / (ETP·EP·PP), when the world
 * divides by the model-parallel size (`modelSize`: with the generalized-TP factor from Megatron
 * Core 0.19.0, whose ranks read their own data, so DP counts them: Megatron's replicas times the
 * factor, the size its micro-batch calculator is given); the distributed optimizer shards over the
 * data-parallel group including the CP ranks. Returns DP.
 */
export function deriveMegatronGrid(p: Plan): number | undefined {
  const world = p.world?.value;
  if (!world) return undefined;
  const { tp, pp, cp, ep, etp } = { tp: p.tp.value, pp: p.pp.value, cp: p.cp.value, ep: p.ep.value, etp: p.etp.value };
  let dp: number | undefined;
  const encoder = p.encoder?.value ?? 0;
  const gtp = gtpFactor(p);
  if (allKnown(p.encoder, p.weightShards) && gtp !== undefined && world % modelSize(p) === 0) {
    dp = (world / modelSize(p)) * gtp;
    const shards = gtp > 1 ? ` (${world / modelSize(p)} replicas × ${gtp} weight-shard groups: ${p.weightShards!.value} weight shards / TP ${tp})` : '';
    p.dp = derived(dp, `DP = ${world} / (TP ${tp} × PP ${pp} × CP ${cp}${encoder ? ` + encoder ${encoder}` : ''}) = ${dp}${shards}`, [p.world, p.tp, p.pp, p.cp, ...(p.encoder ? [p.encoder] : []), ...(p.weightShards ? [p.weightShards] : [])]);
    p.sharding = { value: { ...p.sharding.value, group: dp * cp }, from: p.sharding.from };
  }
  const egtp = expertGtpFactor(p);
  if (egtp !== undefined && world % expertGridSize(p) === 0) p.expertDp = derived(world / (etp * ep * pp), `expert DP = ${world} / (ETP ${etp} × EP ${ep} × PP ${pp}) = ${world / (etp * ep * pp)}`, [p.world, p.etp, p.ep, p.pp, ...(p.expertWeightShards ? [p.expertWeightShards] : [])]);
  return dp;
}

/** True when no field came from somewhere the file does not show (a recipe, the environment). */
export function allKnown(...fields: ({ from: { kind: string } } | undefined)[]): boolean {
  return fields.every((f) => !f || f.from.kind !== 'unknown');
}
