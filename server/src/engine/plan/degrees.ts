/**
 * What the planner is asked and answers, and the degrees Shardwise's rules accept before batch and
 * settings: TP within the NVLink domain and dividing the heads and query groups, PP splitting the
 * layers (evenly, with the embedding and the loss counted as layers, or, where neither does, unevenly:
 * `split.ts`), CP splitting the sequence,
 * EP and expert TP dividing the experts and a stage's ranks. The planner searches these; an empty
 * plan's explanation names the one that failed. Pure.
 */
import { divisors } from './layout';
import type { MemoryEstimate } from './memory';
import type { RankOrder } from './preference';
import { layerSplit, stageLoad, type SplitChoice } from './split';
import type { Layout, StepEstimate, Workload } from './steptime';

/** How the data-parallel ranks share the training state. */
export type Sharding = 'none' | 'optimizer' | 'optim_grads' | 'optim_grads_params';

/** Settings the caller fixes; the rest are searched. */
export type Pinned = Partial<Pick<Layout, 'tp' | 'pp' | 'vpp' | 'cp' | 'ep' | 'etp' | 'microBatch' | 'sp' | 'recompute' | 'recomputeLayers'>> & {
  /** EP all-to-all overlapped with the expert and attention GEMMs (`--overlap-moe-expert-parallel-comm`); default off. */
  moeOverlap?: boolean;
  /** How data parallelism shards: `none` (plain DDP), the distributed optimizer, or Megatron-FSDP. */
  sharding?: Sharding;
  /**
   * `even`: only pipelines whose stages take the same number of layers; `accounted`: also those
   * with the embedding and the loss counted as layers. Absent: also an uneven layout where neither
   * splits the layers (what `--pipeline-model-parallel-layout` writes).
   */
  split?: Exclude<SplitChoice, 'any'>;
};

export interface PlanRequest {
  workload: Workload;
  pinned?: Pinned;
  /** The overlap switches to assume (a file's own); by default the recommended ones. */
  overlap?: Layout['overlap'];
}

export interface RankedLayout {
  layout: Layout;
  step: StepEstimate;
  memory: MemoryEstimate;
  /** How its rank was decided: by time, or, within the model's error of the fastest, by a practitioners' rule. */
  order?: RankOrder;
}

export interface PlanResult {
  /** The fastest setting of every valid set of degrees that fits, fastest first (ties within the model's error by the practitioners' rules). */
  layouts: RankedLayout[];
  /** Combinations of degrees and settings the rules accept that were weighed, and those over the HBM. */
  counts: { considered: number; overHbm: number };
  /** Bytes of HBM a layout may use. */
  usableBytes: number;
  /** Why nothing was found, when nothing was. */
  empty?: string;
}

/** Degrees (TP, PP, CP, EP, expert TP) the rules accept, before batch and settings. */
export type Degrees = Pick<Layout, 'tp' | 'pp' | 'cp' | 'ep' | 'etp' | 'dp' | 'split'>;

/** A layout in one line, as the planner's answers name it: `TP 4 · PP 4 (VPP 5) · CP 2 · DP 2 · MBS 1` (EP and expert TP when there are experts to split). */
export function layoutLabel(l: Pick<Layout, 'tp' | 'pp' | 'vpp' | 'cp' | 'ep' | 'etp' | 'dp' | 'microBatch'>): string {
  return `TP ${l.tp} · PP ${l.pp}${l.vpp > 1 ? ` (VPP ${l.vpp})` : ''} · CP ${l.cp}${l.ep > 1 ? ` · EP ${l.ep} · ETP ${l.etp}` : ''} · DP ${l.dp} · MBS ${l.microBatch}`;
}

/** The pinned value when it is among the options, none when it is not, all of them when nothing is pinned. */
export function pick<T>(pinned: T | undefined, options: T[]): T[] {
  return pinned === undefined ? options : options.includes(pinned) ? [pinned] : [];
}

/**
 * Layers each pipeline rank is priced at (the embedding and the loss count as layers in an
 * embedding-and-loss split; an uneven one paces every rank as VPP chunks of its heaviest).
 */
export function layersPerRank(w: Workload, l: Pick<Layout, 'pp' | 'split'> & Partial<Pick<Layout, 'vpp' | 'chunks'>>): number {
  return stageLoad(w.model.layers, l).rank;
}

/** Query groups TP must divide (with multi-head latent attention, the heads). */
export function queryGroups(m: Workload['model']): number {
  return m.mla ? m.heads : (m.queryGroups ?? m.heads);
}

/** A TP degree inside the NVLink domain (dividing it) that divides the heads and query groups. */
export function tpAllowed(w: Workload, tp: number): boolean {
  return tp <= w.nvlinkDomain && w.nvlinkDomain % tp === 0 && w.model.heads % tp === 0 && queryGroups(w.model) % tp === 0;
}

export { layerSplit } from './split';

/** Every set of degrees the rules and the pins allow; with `batch`, only those whose DP divides the global batch. */
export function degreeSets(w: Workload, pinned: Pinned, batch = true): Degrees[] {
  const m = w.model;
  const experts = m.experts ?? 0;
  const out: Degrees[] = [];
  for (const tp of pick(pinned.tp, divisors(w.gpus))) {
    if (!tpAllowed(w, tp)) continue;
    for (const pp of pick(pinned.pp, divisors(w.gpus / tp))) {
      const split = layerSplit(m.layers, pp, pinned.split ?? 'any');
      if (split === null) continue;
      const at = split ? { split } : {};
      for (const cp of pick(pinned.cp, divisors(w.gpus / (tp * pp)))) {
        if (cp > 1 && w.seqLength % (2 * cp) !== 0) continue;
        const dp = w.gpus / (tp * pp * cp);
        if (batch && w.globalBatch % dp !== 0) continue;
        if (experts === 0) {
          if ((pinned.ep ?? 1) === 1) out.push({ tp, pp, cp, ep: 1, etp: tp, dp, ...at });
          continue;
        }
        for (const etp of pick(pinned.etp, [...new Set([1, tp])])) {
          for (const ep of pick(pinned.ep, divisors(experts))) {
            if ((w.gpus / pp) % (ep * etp) !== 0) continue;
            out.push({ tp, pp, cp, ep, etp, dp, ...at });
          }
        }
      }
    }
  }
  return out;
}
