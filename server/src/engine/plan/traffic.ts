/**
 * Data each GPU sends per optimizer step for the collectives of one parallel group, with the
 * formula it rests on. Ring algorithms: an all-reduce of S bytes over n GPUs sends 2(n−1)/n·S per
 * GPU, a reduce-scatter or an all-gather (n−1)/n·S. Activations and their gradients are 16-bit.
 * Only what the Plan knows is computed; CP and EP traffic are not modelled yet.
 */
import { planMemory } from './layout';
import type { Plan } from './plan';

export interface Traffic {
  /** Bytes each GPU of the group sends per step. */
  bytes: number;
  collective: string;
  formula: string;
}

/** Micro-batches per step and per replica, when the Plan knows them. */
function microBatches(p: Plan): number | undefined {
  if (p.numMicroBatches) return p.numMicroBatches.value;
  const gbs = p.globalBatch?.value;
  const mbs = p.microBatch?.value;
  const dp = p.dp?.value;
  return gbs && mbs && dp && gbs % (mbs * dp) === 0 ? gbs / (mbs * dp) : undefined;
}

/** The traffic of the group along `dim` (tp, dp or pp), or undefined when the Plan does not say enough. */
export function groupTraffic(p: Plan, dim: 'tp' | 'dp' | 'pp'): Traffic | undefined {
  const model = p.model?.value;
  const s = p.seqLength?.value;
  const b = p.microBatch?.value;
  const m = microBatches(p);
  const cp = p.cp.value;
  if (dim === 'dp') {
    const d = p.dp?.value ?? 1;
    const mem = planMemory(p);
    if (d <= 1 || !mem) return undefined;
    const params = mem.paramsOnGpu;
    const gradBytes = p.gradReduce16 ? 2 : 4;
    if (p.sharding.value.kind === 'distributed-optimizer' || p.sharding.value.kind === 'zero' || p.sharding.value.kind === 'fsdp') {
      const bytes = ((d - 1) / d) * params * (gradBytes + 2);
      return { bytes, collective: 'reduce-scatter of gradients, all-gather of parameters', formula: `(d−1)/d × ${params.toExponential(2)} parameters × (${gradBytes} B gradient + 2 B parameter), d = ${d}` };
    }
    return { bytes: 2 * ((d - 1) / d) * params * gradBytes, collective: 'all-reduce of gradients', formula: `2(d−1)/d × ${params.toExponential(2)} parameters × ${gradBytes} B, d = ${d}` };
  }
  if (!model || !s || !b || !m) return undefined;
  const act = b * (s / cp) * model.hidden * 2;
  if (dim === 'tp') {
    const t = p.tp.value;
    if (t <= 1) return undefined;
    const layers = model.layers / p.pp.value;
    return { bytes: 4 * layers * m * act * 2 * ((t - 1) / t), collective: p.sp.value ? 'all-gather and reduce-scatter of activations' : 'all-reduce of activations', formula: `4 per layer × ${layers} layers × ${m} micro-batches × b·s/cp·h·2 B × 2(t−1)/t, t = ${t}` };
  }
  const pp = p.pp.value;
  if (pp <= 1) return undefined;
  const v = p.vpp?.value ?? 1;
  return { bytes: 2 * m * v * act, collective: 'send and receive of activations and their gradients', formula: `2 × ${m} micro-batches${v > 1 ? ` × ${v} virtual stages` : ''} × b·s/cp·h·2 B` };
}
