/**
 * Which rank holds which coordinate of the layout, in each runtime's own order, and where each rank
 * runs: launchers give a node consecutive ranks (local rank = rank mod GPUs per node), and an NVLink
 * domain is that many consecutive GPUs.
 *   - Megatron (parallel_state's RankGenerator): rank = Σ index_d × Π size of the dimensions before d,
 *     over `tp-cp-ep-dp-pp` (or `tp-cp-ep-pp-dp`); the dense grid leaves EP out (tp, cp, dp, pp), the
 *     expert grid replaces TP by expert TP and DP by expert DP and leaves CP out (etp, ep, edp, pp).
 *   - A device mesh (accelerate's ParallelismConfig: dp_replicate, dp_shard, cp, sp, tp) is
 *     row-major: the last dimension varies fastest.
 *   - DDP and ZeRO: one data-parallel dimension.
 */
import type { Plan } from './plan';
import { expertGtpFactor, gtpFactor } from './layout';

export interface GridDim {
  name: 'tp' | 'cp' | 'dp' | 'pp' | 'etp' | 'ep' | 'edp' | 'sp' | 'dp_shard' | 'dp_replicate';
  size: number;
}

export interface RankGrid {
  /** Fastest-varying first. */
  dims: GridDim[];
  /** The order in words, and where it comes from. */
  order: string;
}

export interface RankMap {
  world: number;
  /** The grid of the dense layers (and of everything for non-MoE runs). */
  dense: RankGrid;
  /** The grid of the MoE layers, when there is expert parallelism. */
  expert?: RankGrid;
  gpusPerNode: number;
  nvlinkDomain: number;
}

/** The coordinates of a rank in a grid (fastest-varying dimension first). */
export function coordinates(grid: RankGrid, rank: number): Record<string, number> {
  const out: Record<string, number> = {};
  let rest = rank;
  for (const d of grid.dims) {
    out[d.name] = rest % d.size;
    rest = Math.floor(rest / d.size);
  }
  return out;
}

/** The rank at given coordinates (missing ones are 0). */
export function rankAt(grid: RankGrid, at: Partial<Record<GridDim['name'], number>>): number {
  let rank = 0;
  let stride = 1;
  for (const d of grid.dims) {
    rank += (at[d.name] ?? 0) * stride;
    stride *= d.size;
  }
  return rank;
}

const product = (dims: GridDim[]) => dims.reduce((n, d) => n * d.size, 1);

/** The rank grids of a layout, when its degrees multiply to its world size; undefined otherwise. */
export function rankMap(p: Plan): RankMap | undefined {
  const world = p.world?.value;
  if (!world || world < 1) return undefined;
  const base = { world, gpusPerNode: p.hardware.gpusPerNode.value, nvlinkDomain: p.hardware.nvlinkDomain.value };
  if (p.style === 'megatron') {
    // The generalized-TP ranks Megatron inserts after TP (and after EP for experts) are not drawn.
    if (gtpFactor(p) !== 1 || expertGtpFactor(p) !== 1) return undefined;
    const tp = p.tp.value;
    const cp = p.cp.value;
    const pp = p.pp.value;
    const inner = tp * cp * pp;
    if (world % inner !== 0) return undefined;
    const dp = world / inner;
    const ppLast = p.rankOrder !== 'tp-cp-ep-pp-dp';
    const order = ppLast ? 'tp-cp-ep-dp-pp' : 'tp-cp-ep-pp-dp';
    const dense: GridDim[] = ppLast ? [{ name: 'tp', size: tp }, { name: 'cp', size: cp }, { name: 'dp', size: dp }, { name: 'pp', size: pp }] : [{ name: 'tp', size: tp }, { name: 'cp', size: cp }, { name: 'pp', size: pp }, { name: 'dp', size: dp }];
    const source = `Megatron's rank order ${order}${ppLast ? '' : ' (--use-tp-pp-dp-mapping)'}, fastest first`;
    const map: RankMap = { ...base, dense: { dims: dense, order: source } };
    const ep = p.ep.value;
    if (ep > 1) {
      const etp = p.etp.value;
      if (world % (etp * ep * pp) !== 0) return undefined;
      const edp = world / (etp * ep * pp);
      const expert: GridDim[] = ppLast ? [{ name: 'etp', size: etp }, { name: 'ep', size: ep }, { name: 'edp', size: edp }, { name: 'pp', size: pp }] : [{ name: 'etp', size: etp }, { name: 'ep', size: ep }, { name: 'pp', size: pp }, { name: 'edp', size: edp }];
      map.expert = { dims: expert, order: `the expert layers' grid: ${ppLast ? 'etp-ep-edp-pp' : 'etp-ep-pp-edp'}, fastest first` };
    }
    return map;
  }
  if (p.style === 'mesh') {
    // Row-major over (dp_replicate, dp_shard, cp, sp, tp): tp varies fastest.
    const dims: GridDim[] = [
      { name: 'tp', size: p.tp.value },
      { name: 'sp', size: p.spDegree.value },
      { name: 'cp', size: p.cp.value },
      { name: 'dp_shard', size: p.dpShard.value },
      { name: 'dp_replicate', size: p.dpReplicate.value },
    ];
    if (product(dims) !== world) return undefined;
    return { ...base, dense: { dims, order: 'the device mesh (dp_replicate, dp_shard, cp, sp, tp), row-major: tp fastest' } };
  }
  const sp = p.spDegree.value;
  if (world % sp !== 0) return undefined;
  const dims: GridDim[] = sp > 1 ? [{ name: 'sp', size: sp }, { name: 'dp', size: world / sp }] : [{ name: 'dp', size: world }];
  return { ...base, dense: { dims, order: sp > 1 ? 'sequence-parallel groups of consecutive ranks, then data parallel' : 'one data-parallel dimension' } };
}

/** Where a rank runs: its node, its local rank on it, and its NVLink domain. */
export function placement(m: RankMap, rank: number): { node: number; local: number; domain: number } {
  return { node: Math.floor(rank / m.gpusPerNode), local: rank % m.gpusPerNode, domain: Math.floor(rank / m.nvlinkDomain) };
}
