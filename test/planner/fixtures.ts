/**
 * Workloads and layouts the planner's unit tests build: a preset model on a hardware profile (its
 * NVLink domain and GPUs per node), and a layout with the defaults Megatron runs (VPP 1, CP 1, no
 * expert parallelism, sequence parallelism with TP, the distributed optimizer, no recompute) and
 * the overlap switches the planner recommends.
 */
import { hardwareById, modelPreset, recommendedOverlap, type Layout, type Workload } from '../../server/src/engine';

export function workload(model: string, gpus: number, hardware = 'h100-sxm', seqLength = 8192, globalBatch = 128, precision: Workload['precision'] = 'bf16'): Workload {
  const hw = hardwareById(hardware)!;
  return { model: modelPreset(model)!.shape, gpus, hardware: hw, nvlinkDomain: hw.nvlinkDomain, gpusPerNode: hw.gpusPerNode, seqLength, globalBatch, precision };
}

export function layout(l: Partial<Layout> & Pick<Layout, 'tp' | 'pp' | 'dp'>): Layout {
  const base = { vpp: 1, cp: 1, ep: 1, etp: l.tp, sp: l.tp > 1, microBatch: 1, distributedOptimizer: true, recompute: 'none' as const, ...l };
  return { ...base, overlap: l.overlap ?? recommendedOverlap(base) };
}
