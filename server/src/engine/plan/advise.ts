/**
 * The planner and the step-time model applied to a config's Plan: the workload it describes, its
 * current layout as the model reads it, the estimate shown on hover, and the path edits that write
 * another layout into the file. Only Megatron-style layouts (Megatron-LM, Bridge, NeMo, accelerate's
 * Megatron plugin) are modelled. Pure.
 */
import type { PathEdit } from '../syntax/sourcedoc';
import type { Plan } from './plan';
import { planLayouts, shardingOf, type PlanResult, type Pinned } from './planner';
import { firstLastChunks } from './split';
import { estimateStep, type Layout, type StepEstimate, type Workload } from './steptime';

/** The workload a Plan describes, or what it does not say. */
export function workloadOf(p: Plan): { workload: Workload } | { missing: string[] } {
  const missing: string[] = [];
  if (p.style !== 'megatron') missing.push('a Megatron-style layout (the step-time model reads TP, PP, CP and EP degrees)');
  if (p.notTraining) missing.push(`a training run (${p.notTraining})`);
  const model = p.model?.value;
  const gpus = p.world?.value;
  const seq = p.seqLength?.value;
  const gbs = p.globalBatch?.value;
  if (!model) missing.push('the model');
  if (!gpus) missing.push('the number of GPUs');
  if (!seq) missing.push('the sequence length');
  if (!gbs) missing.push('the global batch size');
  const unknown = [p.tp, p.pp, p.cp, p.ep, p.etp, p.microBatch, p.globalBatch, p.world].some((f) => f?.from.kind === 'unknown');
  if (unknown) missing.push('degrees and batch sizes the file decides (some come from the environment or a recipe)');
  if (missing.length || !model || !gpus || !seq || !gbs) return { missing };
  return {
    workload: {
      model,
      gpus,
      hardware: p.hardware.profile,
      nvlinkDomain: p.hardware.nvlinkDomain.value,
      gpusPerNode: p.hardware.gpusPerNode.value,
      seqLength: seq,
      globalBatch: gbs,
      precision: p.precision.value,
      gradReduce16: p.gradReduce16,
      rankOrder: p.rankOrder,
      // The run's own dispatcher: the all-to-all's copy per routed expert unless it writes the flex one.
      software: { dedupDispatch: p.dedupDispatch?.value === true },
    },
  };
}

/** The layout a Plan runs, with its own switches. */
export function layoutOf(p: Plan): Layout | undefined {
  const dp = p.dp?.value;
  if (!dp) return undefined;
  const on = (f: { value: boolean } | undefined) => f?.value === true;
  const tp = p.tp.value;
  // What runs, not what is written: Megatron turns sequence parallelism off at TP 1.
  const sp = p.sp.value && tp > 1;
  const pp = p.pp.value;
  const chunks = p.pipelineSplit?.layout;
  // A layout's chunk count sets the virtual stages (Megatron: its length over PP).
  const vpp = chunks && pp > 1 && chunks.length % pp === 0 ? chunks.length / pp : p.vpp && pp > 1 ? p.vpp.value : 1;
  return {
    tp,
    pp,
    vpp,
    ...splitOf(p, pp, vpp),
    cp: p.cp.value,
    ep: p.ep.value,
    etp: p.etp.value,
    dp,
    sp,
    microBatch: p.microBatch?.value ?? 1,
    distributedOptimizer: p.sharding.value.kind === 'distributed-optimizer' || p.sharding.value.kind === 'fsdp',
    ...(p.sharding.value.kind === 'fsdp' && p.sharding.value.fsdp !== 'no-shard' ? { fsdp: p.sharding.value.fsdp === 'grad-op' ? ('optim_grads' as const) : ('optim_grads_params' as const) } : {}),
    recompute: p.recompute.value,
    overlap: { tpComm: on(p.overlap.tpComm) && sp, gradReduce: on(p.overlap.gradReduce), paramGather: on(p.overlap.paramGather), p2p: p.overlap.p2p ? on(p.overlap.p2p) : true, moeA2A: on(p.overlap.moeA2A) },
  };
}

/**
 * The pipeline split a Plan runs: the chunks its layout or first/last stage sizes give, the
 * embedding and the loss counted as layers where both flags are on and they split the layers so,
 * else even (a split Megatron refuses is another rule's finding).
 */
function splitOf(p: Plan, pp: number, vpp: number): Pick<Layout, 'split' | 'chunks'> {
  const s = p.pipelineSplit;
  const layers = p.model?.value.layers;
  if (!s || !layers || pp < 2) return {};
  const chunks = s.layout ? (s.layout.length === pp * vpp ? s.layout : undefined) : s.first !== undefined || s.last !== undefined ? firstLastChunks(layers, pp, vpp, s.first, s.last) : undefined;
  if (chunks && chunks.reduce((a, b) => a + b, 0) === layers) return { split: 'uneven', chunks };
  if (!s.explicit && s.embedding && s.loss && pp > 2 && layers % pp !== 0 && (layers + 2) % pp === 0) return { split: 'embedding-loss' };
  return {};
}

/** The estimated step of the Plan's own layout, when the Plan says enough. */
export function planStep(p: Plan): StepEstimate | undefined {
  const w = workloadOf(p);
  const l = layoutOf(p);
  if ('missing' in w || !l) return undefined;
  if (w.workload.globalBatch % (l.microBatch * l.dp) !== 0) return undefined;
  try {
    return estimateStep(w.workload, l);
  } catch {
    return undefined;
  }
}

export function fmtStep(seconds: number): string {
  return seconds >= 1 ? `${seconds.toFixed(2)} s` : `${(seconds * 1000).toFixed(0)} ms`;
}

/** One line for the hover on a degree or a batch size. */
export function estimateLine(p: Plan): string | undefined {
  const e = planStep(p);
  if (!e) return undefined;
  const mfu = e.mfu !== undefined ? `, MFU ~${(e.mfu * 100).toFixed(0)} % of the dense ${p.precision.value.toUpperCase()} peak` : '';
  const x = e.expected;
  const expected = `expected ~${fmtStep(x.seconds)}, ~${x.tflopsPerGpu.toFixed(0)} TFLOP/s per GPU${x.mfu !== undefined ? `, MFU ~${(x.mfu * 100).toFixed(0)} %` : ''} (the priced step × ${x.factor}, the median gap to measured runs of its kind)`;
  return `Estimated step: ~${fmtStep(e.seconds)} (${e.microBatches} micro-batches), ~${e.tflopsPerGpu.toFixed(0)} TFLOP/s per GPU${mfu} at best (the priced lower bound); ${expected}; an analytic model, not a measurement (\`shardwise plan\` ranks other layouts, \`shardwise mfu\` measures).`;
}

/**
 * The layouts to offer in the editor for the Plan's workload: its batch, sequence, precision, GPUs,
 * recompute and overlap switches stay as written; the degrees, VPP, micro-batch, sequence
 * parallelism and the distributed optimizer are searched where the file can write them.
 */
export function planAlternatives(p: Plan): PlanResult | { missing: string[] } {
  const w = workloadOf(p);
  const current = layoutOf(p);
  if ('missing' in w) return w;
  if (!current) return { missing: ['a world size the degrees divide'] };
  const pinned: Pinned = { recompute: current.recompute };
  const writable = (k: keyof Plan['knobs'], v: number | boolean, into: keyof Pinned) => {
    if (!p.knobs[k]) (pinned as Record<string, unknown>)[into] = v;
  };
  writable('tp', current.tp, 'tp');
  writable('pp', current.pp, 'pp');
  writable('cp', current.cp, 'cp');
  writable('ep', current.ep, 'ep');
  writable('microBatch', current.microBatch, 'microBatch');
  writable('sp', current.sp, 'sp');
  // The file writes the distributed optimizer's switch, not Megatron-FSDP's: an FSDP file keeps its
  // sharding, another gets the distributed optimizer where it can write it.
  pinned.sharding = current.fsdp || !p.knobs.distributedOptimizer ? shardingOf(current) : 'optimizer';
  // The embedding-and-loss split needs two flags the layout edits do not write: only where the file
  // has them. An uneven layout is written per chunk, which no edit rewrites: a file with its own
  // keeps its pipeline degrees, one without is offered none.
  const own = current.split === 'uneven' || p.pipelineSplit?.explicit;
  if (own) {
    pinned.pp = current.pp;
    pinned.vpp = current.vpp;
  } else pinned.split = p.pipelineSplit?.embedding && p.pipelineSplit.loss ? 'accounted' : 'even';
  if (!vppPath(p)) pinned.vpp = current.vpp;
  if ((w.workload.model.experts ?? 0) > 0 && !p.knobs.etp) pinned.etp = current.etp;
  // TP communication overlap needs sequence parallelism: with it on, only layouts that keep SP.
  if (current.overlap.tpComm) pinned.sp = true;
  return planLayouts({ workload: w.workload, pinned, overlap: current.overlap });
}

/** Where the file writes (or would write) the virtual pipeline degree. */
function vppPath(p: Plan): { path: readonly (string | number)[]; perStage?: boolean } | undefined {
  if (p.layersPerVirtualStage?.from.kind === 'written') return { path: p.layersPerVirtualStage.from.path, perStage: true };
  if (p.vpp?.from.kind === 'written') return { path: p.vpp.from.path };
  const knob = p.knobs.vpp;
  return knob ? { path: knob } : undefined;
}

/** The edits that make the file run `l` instead of its current layout (only what changes). */
export function layoutEdits(p: Plan, l: Layout): PathEdit[] | undefined {
  const cur = layoutOf(p);
  if (!cur) return undefined;
  const edits: PathEdit[] = [];
  const set = (k: keyof Plan['knobs'], now: number | boolean, next: number | boolean): boolean => {
    if (now === next) return true;
    const path = p.knobs[k];
    if (!path) return false;
    edits.push({ op: 'set', path, value: next });
    return true;
  };
  const moe = (p.model?.value.experts ?? 0) > 0;
  const ok =
    set('tp', cur.tp, l.tp) &&
    set('pp', cur.pp, l.pp) &&
    set('cp', cur.cp, l.cp) &&
    (!moe || (set('ep', cur.ep, l.ep) && set('etp', cur.etp, l.etp))) &&
    set('microBatch', cur.microBatch, l.microBatch) &&
    // Against what is written: at TP 1 a written --sequence-parallel is off in effect, and stays wrong.
    set('sp', p.sp.value, l.sp) &&
    set('distributedOptimizer', cur.distributedOptimizer, l.distributedOptimizer);
  if (!ok) return undefined;
  if (cur.vpp !== l.vpp) {
    const at = vppPath(p);
    if (!at) return undefined;
    const layers = p.model?.value.layers;
    if (l.vpp === 1) {
      if (p.vpp?.from.kind === 'written' || p.layersPerVirtualStage?.from.kind === 'written') edits.push({ op: 'remove', path: at.path });
    } else if (at.perStage) {
      if (!layers) return undefined;
      edits.push({ op: 'set', path: at.path, value: layers / (l.pp * l.vpp) });
    } else edits.push({ op: 'set', path: at.path, value: l.vpp });
  }
  return edits;
}
