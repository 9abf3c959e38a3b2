/**
 * The layout planner: every Megatron-style layout of a model on a number of GPUs that Shardwise's
 * own rules accept (degrees that multiply to the world, TP within the NVLink domain and dividing
 * the heads and query groups, layers split over PP × VPP (evenly, with the embedding and the loss
 * counted as layers, or, where neither does, unevenly and priced by the heaviest chunk), a sequence CP can split, experts EP can
 * split, a global batch micro-batches and DP divide, an interleaved schedule Megatron can run),
 * with sequence parallelism, the distributed optimizer and recomputation as choices, those whose
 * estimated memory exceeds the usable HBM dropped, and the rest ranked by the analytic step time
 * (`steptime.ts`), those within the model's measured error of the fastest by the practitioners'
 * rules first (`preference.ts`). A layout is its degrees (TP, PP, CP, EP, expert TP; DP follows): each is shown
 * with the fastest settings found for it. Pure.
 */
import { degreeSets, pick, type Degrees, type PlanRequest, type PlanResult, type RankedLayout, type Sharding } from './degrees';
import { divisors } from './layout';
import { estimateMemory, type MemoryEstimate, type MemoryInput } from './memory';
import { orderTies, tieLimit } from './preference';
import { stageLoad, vppChoices } from './split';
import { whyEmpty } from './why';
import { estimateStep, recomputeShare, STEP_MODEL, tieBandOf, type Layout, type Workload } from './steptime';

export type { Pinned, PlanRequest, PlanResult, RankedLayout, Sharding } from './degrees';
export { layersPerRank, layoutLabel } from './degrees';

export const SHARDINGS: readonly Sharding[] = ['optimizer', 'none', 'optim_grads', 'optim_grads_params'];

/** The layout fields a sharding choice sets. */
function shardingFields(s: Sharding): Pick<Layout, 'distributedOptimizer' | 'fsdp'> {
  return s === 'none' ? { distributedOptimizer: false } : s === 'optimizer' ? { distributedOptimizer: true } : { distributedOptimizer: true, fsdp: s };
}

/** The sharding a layout runs. */
export function shardingOf(l: Pick<Layout, 'distributedOptimizer' | 'fsdp'>): Sharding {
  return l.fsdp ?? (l.distributedOptimizer ? 'optimizer' : 'none');
}

/** Micro-batch sizes tried. */
const MICRO_BATCHES = [1, 2, 4, 8, 16];
/** At most this many virtual stages per pipeline rank are tried. */
const MAX_VPP = 16;

/** The same degrees: what the planner ranks as one layout. */
function sameDegrees(a: Pick<Layout, 'tp' | 'pp' | 'cp' | 'ep' | 'etp'>, b: Pick<Layout, 'tp' | 'pp' | 'cp' | 'ep' | 'etp'>, moe: boolean): boolean {
  return a.tp === b.tp && a.pp === b.pp && a.cp === b.cp && (!moe || (a.ep === b.ep && a.etp === b.etp));
}

/** The overlap switches the planner turns on for a layout (the ones Shardwise's rules recommend). */
export function recommendedOverlap(l: Pick<Layout, 'tp' | 'sp' | 'vpp' | 'distributedOptimizer'>): Layout['overlap'] {
  return { tpComm: l.sp && l.tp > 1, gradReduce: true, paramGather: l.distributedOptimizer, p2p: l.vpp > 1, moeA2A: false };
}

/** The switches a layout runs with: the recommended ones, or the given ones where the layout allows them. */
function overlapFor(given: Layout['overlap'] | undefined, l: Pick<Layout, 'tp' | 'sp' | 'vpp' | 'distributedOptimizer'>): Layout['overlap'] {
  if (!given) return recommendedOverlap(l);
  return { ...given, tpComm: given.tpComm && l.sp && l.tp > 1, paramGather: given.paramGather && l.distributedOptimizer };
}

/** The memory estimate of a layout, as the rules compute it. */
export function layoutMemory(w: Workload, l: Layout, explain = true): MemoryEstimate {
  const input: MemoryInput = {
    model: w.model,
    tp: l.tp,
    pp: l.pp,
    vpp: l.vpp > 1 ? l.vpp : undefined,
    cp: l.cp,
    ep: l.ep,
    etp: l.etp,
    dp: l.dp,
    expertDp: w.gpus / (l.pp * l.ep * l.etp),
    sp: l.sp,
    microBatch: l.microBatch,
    seqLength: w.seqLength,
    numMicroBatches: w.globalBatch / (l.microBatch * l.dp),
    precision: w.precision,
    gradBytes16: w.gradReduce16,
    // Megatron's distributed optimizer and Megatron-FSDP shard over the data-parallel ranks of every CP slice (DP × CP).
    sharding: l.fsdp
      ? { kind: 'zero', stage: l.fsdp === 'optim_grads_params' ? 3 : 2, group: l.dp * l.cp }
      : l.distributedOptimizer
        ? { kind: 'distributed-optimizer', group: l.dp * l.cp }
        : { kind: 'none', group: l.dp },
    recompute: l.recompute,
    recomputeFraction: recomputeShare(w, l),
    ...(l.split ? { firstStageLayers: stageLoad(w.model.layers, l).first } : {}),
  };
  return estimateMemory(input, explain);
}

function fits(w: Workload, layout: Layout, usable: number): { layout: Layout; memory: MemoryEstimate } | undefined {
  const memory = layoutMemory(w, layout, false);
  return memory.bytes.total > usable ? undefined : { layout, memory };
}

/**
 * Full recompute of as few layers of each model chunk as the HBM needs (Megatron's block method):
 * the memory falls about linearly with the layers recomputed, so the count is read off the line
 * between none and all, then raised until it fits. Every layer when only all fit.
 */
function fewestRecomputed(w: Workload, base: Layout, usable: number): { layout: Layout; memory: MemoryEstimate } | undefined {
  const noneMemory = layoutMemory(w, { ...base, recompute: 'none' }, false);
  const none = noneMemory.bytes.total;
  if (none <= usable) return { layout: { ...base, recompute: 'none' }, memory: noneMemory };
  const all = fits(w, { ...base, recompute: 'full' }, usable);
  if (!all) return undefined;
  const chunk = stageLoad(w.model.layers, base).chunk;
  if (!Number.isInteger(chunk) || chunk <= 1) return all;
  const slope = (none - all.memory.bytes.total) / chunk;
  if (!(slope > 0)) return all;
  // The line is read at its start and a few layers past it (the memory is not quite linear in them).
  const start = Math.max(1, Math.ceil((none - usable) / slope));
  for (let n = start; n < Math.min(chunk, start + 4); n++) {
    const partial = fits(w, { ...all.layout, recomputeLayers: n }, usable);
    if (partial) return partial;
  }
  return all;
}

/**
 * Every layout of the request the rules accept and the HBM holds, ranked by estimated step time
 * (ties with the fastest, within the model's error, by the practitioners' rules);
 * when there is none, why (the constraint that removed the pinned layout, the batch or the memory).
 */
export function planLayouts(req: PlanRequest): PlanResult {
  const r = rankLayouts(req);
  if (r.layouts.length) return r;
  return { ...r, empty: whyEmpty(req, r, rankLayouts, fitsSome) };
}

/** Bytes of HBM a layout may use. */
function usableBytesOf(w: Workload): number {
  return w.hardware.hbmGiB * 2 ** 30 * STEP_MODEL.usableHbm.value;
}

/** Every setting of one set of degrees the search weighs (recompute as pinned, or none until the memory says otherwise). */
function* settingsOf(req: PlanRequest, d: Degrees, moe: boolean): Generator<Layout> {
  const w = req.workload;
  const pinned = req.pinned ?? {};
  const perReplica = w.globalBatch / d.dp;
  for (const microBatch of pinned.microBatch !== undefined ? [pinned.microBatch] : MICRO_BATCHES) {
    if (perReplica % microBatch !== 0) continue;
    const m = perReplica / microBatch;
    // More than MAX_VPP virtual stages only when asked for: they rarely win and double the search.
    const vpps = d.pp > 1 && m % d.pp === 0 ? (pinned.vpp !== undefined ? vppChoices(w.model.layers, d, pinned.vpp, divisors, false) : vppChoices(w.model.layers, d, MAX_VPP, divisors)) : [1];
    for (const vpp of pick(pinned.vpp, vpps)) {
      // Sequence parallelism off and plain DDP are never faster in the model (the same collectives,
      // more memory), so they are tried only when asked for. Megatron requires SP with MoE and TP.
      const sps = pinned.sp !== undefined ? (d.tp > 1 && moe && !pinned.sp ? [] : [pinned.sp && d.tp > 1]) : [d.tp > 1];
      for (const sp of sps) {
        // With one data-parallel rank (DP × CP = 1) there is nothing to shard: one choice stands for all.
        const unsharded = d.dp * d.cp === 1 && !moe;
        const shardings = pinned.sharding ? [pinned.sharding] : unsharded ? (['optimizer'] as const) : SHARDINGS.filter((x) => x !== 'none');
        for (const sharding of shardings) {
          const { distributedOptimizer, fsdp } = shardingFields(sharding);
          const overlap = overlapFor(req.overlap, { tp: d.tp, sp, vpp, distributedOptimizer });
          if (pinned.moeOverlap !== undefined) overlap.moeA2A = pinned.moeOverlap && moe && d.ep > 1;
          const base: Layout = { ...d, vpp, microBatch, sp, distributedOptimizer, ...(fsdp ? { fsdp } : {}), recompute: pinned.recompute ?? 'none', overlap };
          if (base.recompute === 'full' && pinned.recomputeLayers !== undefined) base.recomputeLayers = pinned.recomputeLayers;
          yield base;
        }
      }
    }
  }
}

/**
 * The setting as it fits the HBM, if it does. Recomputing is only worth its time when the layout
 * does not fit without it: then as few layers as fit. With fused attention, selective recompute
 * keeps what no recompute keeps, so it is tried only when asked for.
 */
function fitOf(req: PlanRequest, base: Layout, usable: number): { layout: Layout; memory: MemoryEstimate } | undefined {
  return req.pinned?.recompute === undefined ? fewestRecomputed(req.workload, base, usable) : fits(req.workload, base, usable);
}

function rankLayouts(req: PlanRequest): PlanResult {
  const w = req.workload;
  const usableBytes = usableBytesOf(w);
  const moe = (w.model.experts ?? 0) > 0;
  const counts = { considered: 0, overHbm: 0 };
  const best: RankedLayout[] = [];
  for (const d of degreeSets(w, req.pinned ?? {})) {
    let top: RankedLayout | undefined;
    // The fastest setting without Megatron-FSDP: it stands for the degrees when it is within the model's error of the fastest.
    let plain: RankedLayout | undefined;
    for (const base of settingsOf(req, d, moe)) {
      counts.considered++;
      const fit = fitOf(req, base, usableBytes);
      if (!fit) {
        counts.overHbm++;
        continue;
      }
      for (const layout of withA2AOverlap(req, fit.layout, moe)) {
        const step = estimateStep(w, layout);
        if (!top || step.seconds < top.step.seconds) top = { layout, step, memory: fit.memory };
        if (!layout.fsdp && (!plain || step.seconds < plain.step.seconds)) plain = { layout, step, memory: fit.memory };
      }
    }
    if (top && plain && plain.step.seconds <= tieLimit(top.step.seconds, tieBandOf(w.model).value)) top = plain;
    if (top) best.push({ ...top, memory: layoutMemory(w, top.layout) });
  }
  best.sort((a, b) => a.step.seconds - b.step.seconds || a.memory.bytes.total - b.memory.bytes.total);
  return { layouts: orderTies(w, best), counts, usableBytes };
}

/**
 * The layout, and, where Megatron-Core allows it and nothing pins it, the same with the expert-parallel
 * all-to-all overlapped with another micro-batch's compute (`--overlap-moe-expert-parallel-comm`, the
 * 1F1B overlap): transformer_config.py @ core_v0.14.0 on requires EP > 1, virtual pipeline stages when
 * PP > 1, no full recomputation and a 16-bit model. Megatron Bridge's performance recipes for
 * DeepSeek, Qwen3 and GPT-OSS switch it on (src/megatron/bridge/perf_recipes/{deepseek,qwen,gpt_oss}/common.py).
 */
function withA2AOverlap(req: PlanRequest, l: Layout, moe: boolean): Layout[] {
  const allowed = moe && req.pinned?.moeOverlap === undefined && req.workload.software?.moeA2AOverlap !== false && !l.overlap.moeA2A && l.ep > 1 && (l.pp === 1 || l.vpp > 1) && l.recompute !== 'full' && req.workload.precision !== 'fp32';
  return allowed ? [l, { ...l, overlap: { ...l.overlap, moeA2A: true } }] : [l];
}

/** Whether any layout of the request fits the HBM: the search of `rankLayouts`, stopped at the first fit, with no step priced. */
function fitsSome(req: PlanRequest): boolean {
  const usable = usableBytesOf(req.workload);
  const moe = (req.workload.model.experts ?? 0) > 0;
  for (const d of degreeSets(req.workload, req.pinned ?? {})) for (const base of settingsOf(req, d, moe)) if (fitOf(req, base, usable)) return true;
  return false;
}

/** The rank (1-based) of a layout's degrees among the planner's layouts, or undefined when absent. */
export function rankOf(result: PlanResult, degrees: Pick<Layout, 'tp' | 'pp' | 'cp' | 'ep' | 'etp'>, moe: boolean): number | undefined {
  const i = result.layouts.findIndex((r) => sameDegrees(r.layout, degrees, moe));
  return i < 0 ? undefined : i + 1;
}
