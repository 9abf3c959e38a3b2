/**
 * Why the planner found no layout, in the terms of the constraint that removed it: the degree that
 * does not divide the heads, the GPUs or the sequence, or split the layers as the request allows; the global batch no data-parallel
 * degree divides (with the nearest that one does); the memory (with the smallest GPU count that
 * fits). Each answer names what would satisfy the constraint. Pure.
 */
import { degreeSets, layersPerRank, layerSplit, layoutLabel, queryGroups, tpAllowed, type Pinned, type PlanRequest, type PlanResult } from './degrees';
import { divisors } from './layout';
import { unevenFits, vppChoices, type SplitChoice } from './split';
import type { Workload } from './steptime';

const list = (xs: readonly number[], max = 8) => (xs.length > max ? `${xs.slice(0, max).join(', ')}, …` : xs.length > 1 ? `${xs.slice(0, -1).join(', ')} or ${xs[xs.length - 1]}` : String(xs[0] ?? 'none'));

/** TP degrees the model and the GPUs allow: dividing the GPUs, the heads and query groups, within the NVLink domain. */
function tpChoices(w: Workload): number[] {
  return divisors(w.gpus).filter((t) => tpAllowed(w, t));
}

/** PP degrees that split the layers as the request allows (evenly, with the embedding and the loss counted as layers, or unevenly). */
function ppChoices(w: Workload, rest: number, allow: SplitChoice): number[] {
  return divisors(rest).filter((p) => layerSplit(w.model.layers, p, allow) !== null);
}

/** What splits the layers over `pp` stages when the request allows no uneven split. */
function ppLayersWhy(w: Workload, pp: number, rest: number, allow: SplitChoice): string {
  const L = w.model.layers;
  if (allow === 'any') return `PP ${pp} is more than the ${L} layers with the embedding and the loss: some pipeline stage would hold none of them (PP ${list(ppChoices(w, rest, allow))} would)`;
  const even = divisors(L);
  const counted = allow === 'even' ? [] : divisors(L + 2).filter((p) => p > 2 && !even.includes(p));
  const ok = ppChoices(w, rest, allow);
  const uneven = `; or a layout that gives the stages unequal numbers of layers, which the file would write itself (\`--pipeline-model-parallel-layout\`, from Megatron Core 0.13.0, or \`--decoder-first-pipeline-num-layers\` / \`--decoder-last-pipeline-num-layers\`, from 0.9.0)`;
  return `PP ${pp} does not split the ${L} layers: each pipeline stage needs the same number of layers, so PP must divide ${L} (PP ${list(even)})${counted.length ? ` or, with the embedding and the loss counted as layers, ${L + 2} (PP ${list(counted)})` : ''}; of those, PP ${list(ok)} also divide${ok.length === 1 ? 's' : ''} the ${rest} GPUs${uneven}`;
}

/** The first pinned degree that no layout can have, with what would satisfy it. */
function pinnedDegree(w: Workload, pin: Pinned): string | undefined {
  const m = w.model;
  const groups = queryGroups(m);
  const tp = pin.tp;
  if (tp !== undefined) {
    if (m.heads % tp !== 0 || groups % tp !== 0) {
      const what = m.heads % tp !== 0 ? `the ${m.heads} attention heads` : `the ${groups} query groups`;
      return `TP ${tp} does not divide ${what}${w.gpus % tp !== 0 ? ` (nor the ${w.gpus} GPUs)` : ''}: each TP rank needs whole heads and query groups (TP ${list(tpChoices(w))} would)`;
    }
    if (w.gpus % tp !== 0) return `TP ${tp} does not divide the ${w.gpus} GPUs: TP must divide the GPU count (TP ${list(tpChoices(w))} would)`;
    if (tp > w.nvlinkDomain || w.nvlinkDomain % tp !== 0) return `TP ${tp} does not fit in the NVLink domain of ${w.nvlinkDomain} GPUs: TP must divide it (TP ${list(tpChoices(w))} would)`;
  }
  const pp = pin.pp;
  const allow: SplitChoice = pin.split ?? 'any';
  if (pp !== undefined) {
    const rest = w.gpus / (tp ?? 1);
    if (rest % pp !== 0) return `PP ${pp} does not divide the ${rest} GPUs left after TP ${tp ?? 1}`;
    if (layerSplit(m.layers, pp, allow) === null) return ppLayersWhy(w, pp, rest, allow);
  }
  const vpp = pin.vpp;
  if (vpp !== undefined && vpp > 1 && pp !== undefined) {
    if (pp === 1) return `VPP ${vpp} needs pipeline parallelism: with PP 1 there is one stage (VPP 1)`;
    const split = layerSplit(m.layers, pp, allow) ?? undefined;
    if (split === 'uneven') {
      if (!unevenFits(m.layers, pp * vpp)) return `VPP ${vpp} gives ${pp * vpp} model chunks, more than the ${m.layers} layers with the embedding and the loss: some chunk would hold none of them (VPP ${list(vppChoices(m.layers, { pp, split }, Infinity, divisors, false))} would)`;
    } else {
      const perRank = layersPerRank(w, { pp, split });
      if (perRank % vpp !== 0) return `VPP ${vpp} does not split the ${perRank} layers of each pipeline stage (VPP ${list(divisors(perRank))} would)`;
    }
  }
  const cp = pin.cp;
  if (cp !== undefined && cp > 1 && w.seqLength % (2 * cp) !== 0) return `CP ${cp} does not split the sequence of ${w.seqLength} tokens into 2 × CP = ${2 * cp} equal chunks (a sequence length that is a multiple of ${2 * cp} would)`;
  const ep = pin.ep;
  if (ep !== undefined && ep > 1) {
    const E = m.experts ?? 0;
    if (E === 0) return `EP ${ep} needs a mixture-of-experts model; this one is dense (EP 1)`;
    if (E % ep !== 0) return `EP ${ep} does not divide the ${E} experts (EP ${list(divisors(E))} would)`;
  }
  return undefined;
}

/**
 * The nearest global batch (other than `batch`) that one of the data-parallel degrees divides, as
 * micro-batch × DP must: the closest multiple of any DP, the larger on a tie.
 */
export function nearestBatch(batch: number, dps: readonly number[]): { batch: number; dp: number } | undefined {
  let best: { batch: number; dp: number } | undefined;
  for (const dp of new Set(dps)) {
    for (const b of [Math.floor(batch / dp) * dp, Math.ceil(batch / dp) * dp]) {
      if (b < dp) continue;
      const d = Math.abs(b - batch);
      const bd = best ? Math.abs(best.batch - batch) : Infinity;
      if (d < bd || (d === bd && best && b > best.batch)) best = { batch: b, dp };
    }
  }
  return best;
}

/** The DP degrees of every set of degrees the other constraints allow (before the batch). */
function dataParallelDegrees(w: Workload, pin: Pinned): number[] {
  return degreeSets(w, pin, false).map((d) => d.dp);
}

/**
 * Why `result` is empty: the pinned degree that no layout can have, the global batch, or the
 * memory. For the memory case, `fitsSome` says whether any layout of another GPU count fits (the
 * planner's search stopped at the first fit) and `plan` runs the planner once for the count found.
 */
export function whyEmpty(req: PlanRequest, result: PlanResult, plan: (req: PlanRequest) => PlanResult, fitsSome: (req: PlanRequest) => boolean): string {
  const w = req.workload;
  const pin = req.pinned ?? {};
  const degree = pinnedDegree(w, pin);
  if (degree) return degree;
  if (result.counts.considered === 0) {
    const dps = dataParallelDegrees(w, pin);
    if (dps.length && dps.every((dp) => w.globalBatch % (dp * (pin.microBatch ?? 1)) !== 0)) {
      const near = nearestBatch(w.globalBatch, dps.map((d) => d * (pin.microBatch ?? 1)));
      const dpsText = list([...new Set(dps)].sort((a, b) => a - b));
      return `no data-parallel degree divides the global batch of ${w.globalBatch} sequences (micro-batch × DP must divide it; DP can be ${dpsText} here)${near ? `: a global batch of ${near.batch} would (DP ${near.dp / (pin.microBatch ?? 1)})` : ''}`;
    }
    return 'no combination of degrees divides the GPUs, the heads, the layers, the sequence and the global batch as the rules require';
  }
  const limit = `${(result.usableBytes / 2 ** 30).toFixed(0)} GiB`;
  const fits = smallestFit(req, plan, fitsSome);
  return `every valid layout needs more than ${limit} per GPU${fits ? `: the smallest GPU count that fits is ${fits.gpus} (${fits.layout})` : `: no GPU count up to ${MAX_GROWTH} times this one (${MAX_GROWTH * w.gpus}) fits with this batch and sequence; GPUs with more memory would need fewer`}`;
}

/** How far past the GPUs asked for the search for a count that fits goes. */
const MAX_GROWTH = 64;

/**
 * The smallest GPU count, in whole NVLink domains, at which some layout fits: doubling until one
 * does, then halving the interval (more GPUs shard the model further, so fitting is taken as
 * monotone in the count). Each probe keeps the pins and the global batch; the planner ranks the
 * layouts of the count found only.
 */
function smallestFit(req: PlanRequest, plan: (req: PlanRequest) => PlanResult, fitsSome: (req: PlanRequest) => boolean): { gpus: number; layout: string } | undefined {
  const w = req.workload;
  const unit = Math.max(1, Math.min(w.nvlinkDomain, w.gpusPerNode));
  const at = (gpus: number) => ({ ...req, workload: { ...w, gpus } });
  let lo = Math.ceil(w.gpus / unit);
  let hi = lo * 2;
  while (hi <= lo * MAX_GROWTH && !fitsSome(at(hi * unit))) hi *= 2;
  if (hi > lo * MAX_GROWTH) return undefined;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (fitsSome(at(mid * unit))) hi = mid;
    else lo = mid;
  }
  const l = plan(at(hi * unit)).layouts[0]?.layout;
  return l && { gpus: hi * unit, layout: layoutLabel(l) };
}
