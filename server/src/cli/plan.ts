/**
 * `shardwise plan --model <preset | file> --gpus N --hardware ID [--seq-length L] [--global-batch B]
 * [--precision bf16|fp8] [--top K]`: the best layouts of a model on given hardware, ranked by the
 * analytic step-time model. A file is a Hugging Face `config.json` or any config Shardwise reads
 * that describes the model (a launch script, Megatron YAML, a NeMo config), whose GPUs, sequence,
 * batch, precision and hardware are then the defaults.
 */
import { readOptions } from './options';
import { CALIBRATION, CALIBRATION_MOE, tieBandOf, decidingRule, preferenceKey, fmtStep, layoutLabel, shardingOf, HARDWARE, hardwareById, hardwareSuggestion, MODEL_PRESETS, modelFromHfConfig, modelPreset, STEP_MODEL, stepAssumptions, type FileAnalysis, type ModelShape, type Pinned, type PlanResult, type Sharding, type Software, type StepEstimate, type Workload } from '../engine';

export interface PlanOptions {
  model: string;
  gpus?: number;
  seqLength?: number;
  globalBatch?: number;
  precision?: 'bf16' | 'fp8';
  gradReduce16?: boolean;
  /** Scale-out bandwidth per GPU and direction, GB/s (`--network-gbps`). */
  networkGBps?: number;
  /** Vocabulary size (`--vocab`), for a model file that does not give it. */
  vocab?: number;
  /** What the training software can do, where it is not today's Megatron-Core (`--fp8-dispatch`, `--unfused-attention`, `--grouped-gemm`). */
  software?: Software;
  /** Explain where the first layout's time goes and what the second would need (`--explain`). */
  explain?: boolean;
  top: number;
  pinned: Pinned;
  /** Everything else, read as `check`'s options (--hardware, --output-format, --nvlink-domain, …). */
  rest: string[];
}

const RECOMPUTE = ['none', 'selective', 'full'] as const;
const SHARDING_CHOICES: readonly Sharding[] = ['none', 'optimizer', 'optim_grads', 'optim_grads_params'];

/** Reads plan's own options; throws `usage` errors with what is wrong. */
export function parsePlanArgs(args: string[], usage: (message: string) => Error): PlanOptions {
  const o: Partial<PlanOptions> & { rest: string[]; pinned: Pinned; top: number } = { rest: [], pinned: {}, top: 5 };
  const pin = o.pinned;
  o.rest = readOptions(args, usage, (r) => {
    switch (r.flag) {
      case '--model':
        o.model = r.value();
        break;
      case '--gpus':
        o.gpus = r.positive(1 << 20);
        break;
      case '--seq-length':
        o.seqLength = r.positive(1 << 22);
        break;
      case '--global-batch':
        o.globalBatch = r.positive(1 << 24);
        break;
      case '--top':
        o.top = r.positive(1000);
        break;
      case '--precision':
        o.precision = r.choice(['bf16', 'fp8'] as const);
        break;
      case '--tp':
      case '--pp':
      case '--vpp':
      case '--cp':
      case '--ep':
      case '--etp':
        pin[r.flag.slice(2) as 'tp'] = r.positive();
        break;
      case '--micro-batch':
        pin.microBatch = r.positive();
        break;
      case '--sequence-parallel':
        pin.sp = r.choice(['on', 'off'] as const) === 'on';
        break;
      case '--recompute':
        pin.recompute = r.choice(RECOMPUTE);
        break;
      case '--sharding':
        pin.sharding = r.choice(SHARDING_CHOICES);
        break;
      case '--grad-reduce-in-bf16':
        o.gradReduce16 = true;
        break;
      case '--recompute-layers':
        pin.recomputeLayers = r.positive(1 << 16);
        break;
      case '--moe-a2a-overlap':
        pin.moeOverlap = r.choice(['on', 'off'] as const) === 'on';
        break;
      case '--network-gbps':
        o.networkGBps = r.positive(1 << 20);
        break;
      case '--vocab':
        o.vocab = r.positive(1 << 24);
        break;
      case '--explain':
        o.explain = true;
        break;
      case '--fp8-dispatch':
        o.software = { ...o.software, fp8Dispatch: true };
        break;
      case '--dispatcher':
        o.software = { ...o.software, dedupDispatch: r.choice(['flex', 'alltoall'] as const) === 'flex' };
        break;
      case '--dedup-dispatch':
        o.software = { ...o.software, dedupDispatch: true };
        break;
      case '--unfused-attention':
        o.software = { ...o.software, fusedAttention: false };
        break;
      case '--grouped-gemm':
        o.software = { ...o.software, groupedGemmKernel: true };
        break;
      default:
        return false;
    }
    return true;
  });
  if (pin.recomputeLayers !== undefined && pin.recompute !== undefined && pin.recompute !== 'full') throw usage(`--recompute-layers recomputes whole layers: it goes with --recompute full, not --recompute ${pin.recompute}`);
  if (pin.recomputeLayers !== undefined) pin.recompute = 'full';
  if (!o.model) throw usage(`plan needs --model: a preset (${MODEL_PRESETS.map((p) => p.id).join(', ')}), a Hugging Face config.json or a config that describes the model`);
  return o as PlanOptions;
}

/** What a model file gives: the shape, and the defaults a training config adds. */
export interface ModelSource {
  title: string;
  shape: ModelShape;
  notes: string[];
  /** The note that the model gives no vocabulary size, kept apart from `notes` since --vocab answers it. */
  noVocab?: string;
  defaults: { gpus?: number; seqLength?: number; globalBatch?: number; precision?: 'bf16' | 'fp8'; hardware?: string; nvlinkDomain?: number; gpusPerNode?: number };
}

/** The model named by --model: a preset, a Hugging Face config, or the model of a config's layout. */
export function modelSource(name: string, read: (file: string) => { text: string } | { problem: string }, analyse: (file: string, text: string) => FileAnalysis): ModelSource | { problem: string } {
  const preset = modelPreset(name);
  if (preset) return { title: `${preset.title} (${preset.id})`, shape: preset.shape, notes: [`model: ${preset.source}`], defaults: {} };
  const text = read(name);
  if ('problem' in text) return { problem: `--model ${name} is no preset (${MODEL_PRESETS.map((p) => p.id).join(', ')}) and ${text.problem}` };
  let json: unknown;
  try {
    json = JSON.parse(text.text);
  } catch {
    json = undefined;
  }
  const hf = json === undefined ? undefined : modelFromHfConfig(json);
  if (hf && 'shape' in hf) return { title: name, shape: hf.shape, notes: hf.notes.map((n) => `model: ${n}`), defaults: {} };
  const analysis = analyse(name, text.text);
  const plan = analysis.docs.find((d) => d.plan?.model)?.plan;
  if (!plan?.model) return { problem: `${name} does not describe a model Shardwise can read${hf && 'problem' in hf ? ` (as a Hugging Face config: ${hf.problem})` : ''}` };
  const fromFile = (f: { value: number; from: { kind: string } } | undefined) => (f && f.from.kind !== 'unknown' && f.from.kind !== 'default' ? f.value : undefined);
  const precision = plan.precision.value === 'fp8' ? 'fp8' : plan.precision.value === 'bf16' ? 'bf16' : undefined;
  return {
    title: name,
    shape: plan.model.value,
    notes: [],
    ...(plan.model.value.vocab ? {} : { noVocab: `model: ${name} does not give the vocabulary size (a tokenizer named by path is not read), so the embedding, the output layer and the logits are left out of memory and time; --vocab N adds them` }),
    defaults: {
      gpus: fromFile(plan.world),
      seqLength: fromFile(plan.seqLength),
      globalBatch: fromFile(plan.globalBatch),
      precision,
      hardware: plan.hardware.from.kind === 'assumed' ? undefined : plan.hardware.profile.id,
      nvlinkDomain: plan.hardware.nvlinkDomain.from.kind === 'setting' ? plan.hardware.nvlinkDomain.value : undefined,
      gpusPerNode: plan.hardware.gpusPerNode.from.kind === 'setting' ? plan.hardware.gpusPerNode.value : undefined,
    },
  };
}

/** About four million tokens per step, in whole sequences: a common pre-training batch. */
function defaultBatch(seq: number): number {
  return 2 ** Math.max(0, Math.round(Math.log2((4 * 2 ** 20) / seq)));
}

/** The workload the options and the model file describe, with a note for every default taken. */
export function workloadFor(o: PlanOptions, src: ModelSource, settings: { hardware?: string; nvlinkDomain?: number; gpusPerNode?: number }): { workload: Workload; notes: string[] } | { problem: string } {
  const notes = [...src.notes, ...(o.vocab !== undefined ? [`vocabulary ${o.vocab} (--vocab)`] : src.noVocab ? [src.noVocab] : [])];
  const shape = o.vocab !== undefined ? { ...src.shape, vocab: o.vocab } : src.shape;
  const gpus = o.gpus ?? src.defaults.gpus;
  if (!gpus) return { problem: `plan needs --gpus N: ${src.title} does not say how many GPUs it runs on` };
  if (!o.gpus) notes.push(`GPUs: ${gpus}, from ${src.title}`);
  const hwId = settings.hardware ?? src.defaults.hardware;
  const hardware = hardwareById(hwId ?? 'h100-sxm');
  if (!hardware) return { problem: `unknown hardware ${JSON.stringify(hwId)}${hardwareSuggestion(hwId)}` };
  if (!settings.hardware) notes.push(hwId ? `hardware: ${hardware.id}, from ${src.title}` : `hardware: ${hardware.id}, assumed (--hardware ${HARDWARE.map((h) => h.id).join('|')})`);
  const seqLength = o.seqLength ?? src.defaults.seqLength ?? 4096;
  if (!o.seqLength) notes.push(src.defaults.seqLength ? `sequence length ${seqLength}, from ${src.title}` : `sequence length ${seqLength}, assumed (--seq-length)`);
  const globalBatch = o.globalBatch ?? src.defaults.globalBatch ?? defaultBatch(seqLength);
  if (!o.globalBatch) notes.push(src.defaults.globalBatch ? `global batch ${globalBatch}, from ${src.title}` : `global batch ${globalBatch} sequences (about 4M tokens), assumed (--global-batch)`);
  const precision = o.precision ?? src.defaults.precision ?? 'bf16';
  if (precision === 'fp8' && !hardware.fp8Tflops) return { problem: `${hardware.id} has no FP8 tensor cores: plan it with --precision bf16` };
  return {
    workload: {
      model: shape,
      gpus,
      hardware,
      nvlinkDomain: settings.nvlinkDomain ?? src.defaults.nvlinkDomain ?? hardware.nvlinkDomain,
      gpusPerNode: settings.gpusPerNode ?? src.defaults.gpusPerNode ?? hardware.gpusPerNode,
      seqLength,
      globalBatch,
      precision,
      gradReduce16: o.gradReduce16,
      ...(o.networkGBps !== undefined ? { networkGBps: o.networkGBps } : {}),
      ...(o.software ? { software: o.software } : {}),
    },
    notes: [
      ...notes,
      ...(o.networkGBps !== undefined ? [`network: ${o.networkGBps} GB/s per GPU and direction (--network-gbps), instead of the profile's ${hardware.scaleOutGBps}`] : []),
      ...(o.software?.fp8Dispatch ? [precision === 'fp8' ? 'tokens dispatched to the experts in FP8 (--fp8-dispatch)' : '--fp8-dispatch has no effect: the GEMMs run in BF16, so the tokens are dispatched in BF16'] : []),
      ...((shape.experts ?? 0) > 0
        ? [
            o.software?.dedupDispatch === false
              ? 'MoE tokens dispatched by the all-to-all dispatcher: one network copy per routed expert (--dispatcher alltoall)'
              : 'MoE tokens dispatched by the flex dispatcher (--moe-token-dispatcher-type flex with DeepEP or HybridEP, Megatron Core 0.12 on), as Megatron Bridge’s MoE recipes set it: a token crosses the network once per remote NVLink domain it is routed to, then NVLink fans it out (--dispatcher alltoall prices the all-to-all dispatcher)',
            o.software?.groupedGemmKernel
              ? 'local experts as one grouped GEMM that reads the tokens per expert on the GPU (--grouped-gemm): no host loop over the experts'
              : 'local experts issued one by one from the host after the dispatcher waits for the GPU (Transformer Engine’s grouped linear layer): at least the host time per local expert (--grouped-gemm prices a device-side grouped GEMM)',
          ]
        : []),
      ...(o.software?.fusedAttention === false ? ['attention without a fused kernel (--unfused-attention): the s×s scores go through HBM, as before FlashAttention'] : []),
    ],
  };
}

const SHARDING_TEXT: Record<Sharding, string> = { none: 'DDP', optimizer: 'dist-opt', optim_grads: 'FSDP grads', optim_grads_params: 'FSDP full' };

const pct = (x: number | undefined) => (x === undefined ? '–' : `${(x * 100).toFixed(1)} %`);
const gib = (b: number) => (b / 2 ** 30).toFixed(1);
// One formatter for every number of the table: `toLocaleString` builds one per call.
const INT = new Intl.NumberFormat('en-US');
const int = (x: number) => INT.format(Math.round(x));

/**
 * What the step, throughput and MFU columns are: best-case figures that rank layouts. On the
 * published runs the planner is checked against they read above what the runs measured.
 */
export const ESTIMATES_CAVEAT = `step, tokens/s, TFLOP/s and MFU are best-case estimates for ranking the layouts (the priced step: every term at its best case, so it reads below the measured step time); "expected" is the step × ${CALIBRATION.value} for a dense model or × ${CALIBRATION_MOE.value} for a mixture of experts, the median gap between priced and measured throughput on the training part of the published runs of its kind (docs/planner-validation.md): treat the priced figures as an upper bound on throughput, the expected ones as a rough forecast (within ±25 % on the published runs: on all the dense ones, on more than half of the mixture-of-experts ones).`;

/** The answer as a table, what the best one spends its time on, and what it all rests on. */
export function planText(r: PlanResult, w: Workload, title: string, notes: string[], top: number, explain = false): string {
  const hw = w.hardware;
  const moe = (w.model.experts ?? 0) > 0;
  const out = [
    `${title} on ${w.gpus} × ${hw.title}; NVLink domain ${w.nvlinkDomain}, ${w.gpusPerNode} GPUs per node`,
    `sequence ${w.seqLength} · global batch ${w.globalBatch} · ${w.precision.toUpperCase()} · ${int(r.counts.considered)} layouts and settings considered, ${int(r.counts.considered - r.counts.overHbm)} fit in ${gib(r.usableBytes)} of ${hw.hbmGiB} GiB`,
    '',
  ];
  if (r.empty) return [...out, `No layout: ${r.empty}.`, ...notes.map((n) => `  - ${n}`)].join('\n');
  const head = ['#', 'TP', 'PP', 'VPP', 'CP', ...(moe ? ['EP', 'ETP', 'A2A overlap'] : []), 'DP', 'MBS', 'SP', 'sharding', 'recompute', 'GiB/GPU', 'step', 'tokens/s/GPU', 'TFLOP/s/GPU', 'MFU', 'expected step', 'expected MFU'];
  const rows = r.layouts.slice(0, top).map((x, i) => {
    const l = x.layout;
    const recompute = l.recompute === 'full' && l.recomputeLayers !== undefined ? `${l.recomputeLayers}/chunk` : l.recompute;
    return [String(i + 1), String(l.tp), `${l.pp}${l.split === 'embedding-loss' ? '*' : l.split === 'uneven' ? '†' : ''}`, String(l.vpp), String(l.cp), ...(moe ? [String(l.ep), String(l.etp), l.overlap.moeA2A ? 'on' : 'off'] : []), String(l.dp), String(l.microBatch), l.sp ? 'on' : 'off', SHARDING_TEXT[shardingOf(l)], recompute, gib(x.memory.bytes.total), fmtStep(x.step.seconds), int(x.step.tokensPerSecondPerGpu), x.step.tflopsPerGpu.toFixed(0), pct(x.step.mfu), fmtStep(x.step.expected.seconds), pct(x.step.expected.mfu)];
  });
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((row) => row[c].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i >= cells.length - 7 || i < 1 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ').trimEnd();
  out.push(line(head), ...rows.map(line), '');
  out.push(ESTIMATES_CAVEAT, '');
  const best = r.layouts[0].step;
  const p = best.parts;
  out.push(`Where the step of #1 goes: compute ${fmtStep(p.compute)}, pipeline bubble ${fmtStep(p.bubble)}, exposed TP ${fmtStep(p.tp)}, CP ${fmtStep(p.cp)}, EP ${fmtStep(p.ep)}, pipeline sends ${fmtStep(p.p2p)}, data-parallel ${fmtStep(p.dp)}, optimizer ${fmtStep(p.optimizer)}; ${best.microBatches} micro-batches per step.`);
  const tied = tieOrderLines(r, top, w);
  if (tied.length) out.push(...tied, '');
  if (explain) out.push('', ...explainLines(r, w));
  out.push('Each layout runs with the overlap switches on where it allows them: gradient reduce, parameter gather (distributed optimizer), TP communication (with sequence parallelism) and pipeline sends (with VPP); for mixtures of experts the EP all-to-all overlapped with another micro-batch (--overlap-moe-expert-parallel-comm) is tried where Megatron-Core allows it (EP > 1, VPP when PP > 1, no full recompute; --moe-a2a-overlap on|off fixes it). dist-opt is the distributed optimizer (ZeRO-1); FSDP grads and FSDP full are Megatron-FSDP (optim_grads, optim_grads_params).');
  if (r.layouts.slice(0, top).some((x) => x.layout.recomputeLayers !== undefined)) out.push('recompute N/chunk: full recompute of N layers of each model chunk (--recompute-granularity full --recompute-method block --recompute-num-layers N), as few as the HBM needs.');
  if (r.layouts.some((x) => x.layout.split === 'embedding-loss')) out.push('Layouts marked * split the layers with the embedding and the loss counted as layers: --account-for-embedding-in-pipeline-split --account-for-loss-in-pipeline-split.');
  if (r.layouts.some((x) => x.layout.split === 'uneven')) out.push('Layouts marked † give the pipeline chunks (PP × VPP) unequal numbers of layers, the embedding and the loss one layer’s place each, and are priced by the heaviest chunk: --pipeline-model-parallel-layout (Megatron Core 0.13.0 on; for example E, t for a layer, | between chunks, L), or, without VPP, --decoder-first-pipeline-num-layers / --decoder-last-pipeline-num-layers (0.9.0 on) where the other stages split the rest evenly.');
  out.push('', 'Assumptions:', ...notes.map((n) => `  - ${n}`), ...stepAssumptions(w.hardware).map((a) => `  - ${a}`));
  out.push(`  - memory: Shardwise's per-GPU estimate (the same as \`shardwise layout\`), under ${STEP_MODEL.usableHbm.value * 100} % of the HBM`);
  return out.join('\n');
}

const PART_NAMES: Record<keyof StepEstimate['parts'], string> = { compute: 'compute', bubble: 'pipeline bubble', tp: 'exposed TP communication', cp: 'exposed CP communication', ep: 'exposed EP all-to-all', p2p: 'pipeline sends', dp: 'data-parallel collectives', optimizer: 'optimizer step' };

/**
 * `--explain`: where the first layout's step goes, part by part with its share, and what it would
 * take for the second to win: the parts where the second spends more, and by how much the largest
 * of them would have to fall.
 */
function explainLines(r: PlanResult, w: Workload): string[] {
  const [a, b] = r.layouts;
  if (!a) return [];
  const parts = Object.keys(PART_NAMES) as (keyof StepEstimate['parts'])[];
  const total = a.step.seconds;
  const out = [`Why #1 (${layoutLabel(a.layout)}): its step of ${fmtStep(total)} is`];
  for (const k of [...parts].sort((x, y) => a.step.parts[y] - a.step.parts[x])) if (a.step.parts[k] > 0) out.push(`  ${PART_NAMES[k]} ${fmtStep(a.step.parts[k])} (${((a.step.parts[k] / total) * 100).toFixed(1)} %)`);
  const fastest = r.layouts.reduce((x, y) => (y.step.seconds < x.step.seconds ? y : x));
  if (fastest !== a) out.push(`#1 is not the fastest layout: #${r.layouts.indexOf(fastest) + 1} (${layoutLabel(fastest.layout)}) prices ${fmtStep(total - fastest.step.seconds)} (${(((total - fastest.step.seconds) / total) * 100).toFixed(1)} %) less, within the model's measured error (${tieBandText(w)}), where the practitioners' rules decide.`);
  if (!b) return [...out, 'No other layout fits: nothing to compare it with.'];
  const gap = b.step.seconds - total;
  const diffs = parts.map((k) => ({ k, d: b.step.parts[k] - a.step.parts[k] })).filter((x) => Math.abs(x.d) > total * 1e-4).sort((x, y) => y.d - x.d);
  const more = diffs.filter((x) => x.d > 0);
  const less = diffs.filter((x) => x.d < 0);
  const against = less.length ? `, against ${less.map((x) => `${PART_NAMES[x.k]} −${fmtStep(-x.d)}`).join(', ')}` : '';
  if (gap < 0) {
    out.push(`#2 (${layoutLabel(b.layout)}) takes ${fmtStep(-gap)} (${((-gap / total) * 100).toFixed(1)} %) less: ${less.map((x) => `${PART_NAMES[x.k]} −${fmtStep(-x.d)}`).join(', ') || 'no part shorter'}.`);
    const rule = a.order?.above?.rule;
    if (rule) out.push(`#1 ranks above #2 by the tie order, not by time: ${rule.text} [${rule.id}: ${rule.source}].`);
    return out;
  }
  out.push(`#2 (${layoutLabel(b.layout)}) takes ${fmtStep(gap)} (${((gap / total) * 100).toFixed(1)} %) longer: ${more.map((x) => `${PART_NAMES[x.k]} +${fmtStep(x.d)}`).join(', ') || 'no part longer'}${against}.`);
  const rule = a.order?.tied && b.order?.tied ? decidingRule(preferenceKey(w, a.layout), preferenceKey(w, b.layout))?.rule : undefined;
  if (rule) out.push(`For #2 to win, it would have to follow “${rule.text}” [${rule.id}] as #1 does: both are within the model's measured error (${tieBandText(w)}), where a shorter step alone does not decide.`);
  else if (more.length && more[0].d > gap) out.push(`For #2 to win, its ${PART_NAMES[more[0].k]} would have to fall by more than ${fmtStep(gap)} (of ${fmtStep(b.step.parts[more[0].k])}), or #1's grow by as much.`);
  else if (more.length) out.push(`For #2 to win, no one part is enough: its ${more.map((x) => PART_NAMES[x.k]).join(' and ')} would have to fall by more than ${fmtStep(gap)} together.`);
  return out;
}

/** The tie band in words. */
function tieBandText(w: Workload): string {
  return `steps within ${((Math.exp(tieBandOf(w.model).value) - 1) * 100).toFixed(1)} % of the fastest are ties`;
}

/**
 * The layouts among the first `top` whose rank the tie order decided rather than their step time,
 * each with the rule that decided it: one line each.
 */
export function tieOrderLines(r: PlanResult, top: number, w: Workload): string[] {
  const shown = r.layouts.slice(0, top);
  const lines = shown.flatMap((x, i) => {
    const o = x.order?.above;
    if (!o) return [];
    const faster = r.layouts[o.rank - 1];
    return [`  #${i + 1} above #${o.rank}, whose step is ${(((x.step.seconds - faster.step.seconds) / x.step.seconds) * 100).toFixed(1)} % shorter: ${o.rule.text} [${o.rule.id}]`];
  });
  if (!lines.length) return [];
  const rules = [...new Map(shown.flatMap((x) => (x.order?.above ? [x.order.above.rule] : [])).map((rule) => [rule.id, rule])).values()];
  return [
    `Ranked by the tie order, not by time (${tieBandText(w)}: the model's measured error for this kind of model, TIE_BAND or TIE_BAND_MOE; ties follow the practitioners' rules in order, then time):`,
    ...lines,
    ...rules.map((rule) => `  [${rule.id}] ${rule.source}`),
  ];
}

/** The answer as JSON: the workload, the counts, the layouts with their figures, the assumptions. */
export function planJson(r: PlanResult, w: Workload, title: string, notes: string[], top: number, explain = false): unknown {
  return {
    model: title,
    workload: { gpus: w.gpus, hardware: w.hardware.id, nvlinkDomain: w.nvlinkDomain, gpusPerNode: w.gpusPerNode, seqLength: w.seqLength, globalBatch: w.globalBatch, precision: w.precision },
    counts: r.counts,
    usableGiB: Number(gib(r.usableBytes)),
    ...(r.empty ? { empty: r.empty } : {}),
    layouts: r.layouts.slice(0, top).map((x, i) => ({
      rank: i + 1,
      ...x.layout,
      sharding: shardingOf(x.layout),
      memoryGiB: Number(gib(x.memory.bytes.total)),
      stepSeconds: x.step.seconds,
      parts: x.step.parts,
      microBatches: x.step.microBatches,
      tokensPerSecondPerGpu: x.step.tokensPerSecondPerGpu,
      tflopsPerGpu: x.step.tflopsPerGpu,
      mfu: x.step.mfu ?? null,
      expected: { stepSeconds: x.step.expected.seconds, tokensPerSecondPerGpu: x.step.expected.tokensPerSecondPerGpu, tflopsPerGpu: x.step.expected.tflopsPerGpu, mfu: x.step.expected.mfu ?? null, calibration: x.step.expected.factor },
      fabrics: x.step.fabrics,
      order: { tied: x.order?.tied ?? false, ...(x.order?.above ? { above: { rank: x.order.above.rank, rule: x.order.above.rule.id } } : {}), ...(x.order?.below ? { below: { rank: x.order.below.rank, rule: x.order.below.rule.id } } : {}) },
    })),
    assumptions: [...notes, ...stepAssumptions(w.hardware)],
    caveat: ESTIMATES_CAVEAT,
    ...(explain && r.layouts.length ? { explain: explainLines(r, w) } : {}),
  };
}
