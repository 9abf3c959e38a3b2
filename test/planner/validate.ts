/**
 * Runs the planner on each published run and writes what it finds as the table of
 * docs/planner-validation.md: the rank of the published layout among the planner's layouts, and
 * the planner's throughput estimate for that layout against the published one.
 */
import { hardwareById, planLayouts, rankOf, type Pinned, type Workload } from '../../server/src/engine';
import { layersPerRank } from '../../server/src/engine/plan/planner';
import { isHeldBack, type PublishedRun } from './published';

/** The bounds a run must meet: the published layout among the top five, the estimate within ±30 %. */
export const TOP = 5;
export const TOLERANCE = 0.3;

export interface Verdict {
  run: PublishedRun;
  rank?: number;
  /** Layouts the planner ranked (one per set of degrees). */
  ranked: number;
  /** The planner's tokens/s/GPU for the published layout, its degrees, VPP and micro-batch as published. */
  estimate?: number;
  ratio?: number;
  /** The calibrated expectation of tokens/s/GPU for the published layout, and its ratio to the published figure. */
  expected?: number;
  expectedRatio?: number;
  pass: boolean;
  /** The planner's first layout, for the table. */
  best?: string;
}

export function workloadOf(run: PublishedRun): Workload {
  const hw = hardwareById(run.hardware)!;
  return { model: run.shape, gpus: run.gpus, hardware: hw, nvlinkDomain: hw.nvlinkDomain, gpusPerNode: hw.gpusPerNode, seqLength: run.seqLength, globalBatch: run.globalBatch, precision: run.precision, gradReduce16: run.gradReduce16, ...(run.software ? { software: run.software } : {}) };
}

function degreesOf(run: PublishedRun) {
  const moe = (run.shape.experts ?? 0) > 0;
  const l = run.layout;
  return { tp: l.tp, pp: l.pp, cp: l.cp ?? 1, ep: l.ep ?? 1, etp: l.etp ?? (moe ? 1 : l.tp) };
}

export function describe(l: { tp: number; pp: number; cp: number; ep: number; vpp?: number }, moe: boolean): string {
  return `TP ${l.tp} · PP ${l.pp}${l.vpp && l.vpp > 1 ? ` (VPP ${l.vpp})` : ''} · CP ${l.cp}${moe ? ` · EP ${l.ep}` : ''}`;
}

export function verdict(run: PublishedRun): Verdict {
  const w = workloadOf(run);
  const moe = (run.shape.experts ?? 0) > 0;
  const d = degreesOf(run);
  const all = planLayouts({ workload: w, pinned: run.pinned });
  const rank = rankOf(all, d, moe);
  const pinned: Pinned = { ...run.pinned, ...d, ...(run.layout.vpp ? { vpp: run.layout.vpp } : {}), ...(run.layout.microBatch ? { microBatch: run.layout.microBatch } : {}) };
  const own = planLayouts({ workload: w, pinned }).layouts[0];
  const estimate = own?.step.tokensPerSecondPerGpu;
  const ratio = estimate === undefined ? undefined : estimate / run.tokens;
  const expected = own?.step.expected.tokensPerSecondPerGpu;
  const expectedRatio = expected === undefined ? undefined : expected / run.tokens;
  const first = all.layouts[0]?.layout;
  return {
    run,
    rank,
    ranked: all.layouts.length,
    estimate,
    ratio,
    expected,
    expectedRatio,
    pass: rank !== undefined && rank <= TOP && ratio !== undefined && Math.abs(ratio - 1) <= TOLERANCE,
    best: first ? describe(first, moe) : undefined,
  };
}

const fmt = (x: number) => (x >= 100 ? Math.round(x).toLocaleString('en-US') : x.toFixed(1));

/** The table of docs/planner-validation.md, between its markers. */
export function validationTable(verdicts: readonly Verdict[]): string {
  const rows = verdicts.map((v) => {
    const r = v.run;
    const moe = (r.shape.experts ?? 0) > 0;
    const d = degreesOf(r);
    const published = describe({ ...d, vpp: r.layout.vpp }, moe);
    const perRank = layersPerRank(workloadOf(r), { pp: d.pp, split: r.shape.layers % d.pp ? 'embedding-loss' : undefined });
    const note = Number.isInteger(perRank) ? '' : ' (layers do not split)';
    return `| ${r.id} | ${r.model} | ${r.hardware} × ${r.gpus} | ${r.precision.toUpperCase()} | ${published}${note} | ${fmt(r.tokens)} | ${v.rank ?? '–'} of ${v.ranked} | ${v.best ?? '–'} | ${v.estimate === undefined ? '–' : fmt(v.estimate)} | ${v.ratio === undefined ? '–' : `${v.ratio.toFixed(2)}`} | ${v.pass ? 'yes' : 'no'} |`;
  });
  const passed = verdicts.filter((v) => v.pass).length;
  return [
    `${passed} of ${verdicts.length} runs meet both bounds (published layout in the top ${TOP}, estimate within ±${TOLERANCE * 100} %).`,
    '',
    '| run | model | hardware × GPUs | precision | published layout | published tokens/s/GPU | planner rank | planner’s first layout | estimate tokens/s/GPU | estimate / published | both bounds |',
    '|---|---|---|---|---|---:|---:|---|---:|---:|---|',
    ...rows,
  ].join('\n');
}

/** Where each run comes from and how its tokens per second follow from what was published. */
export function sourcesList(runs: readonly PublishedRun[]): string {
  return runs.map((r) => `- **${r.id}**: ${r.source}. ${r.how}.${r.pinned ? ` Fixed for the planner: ${Object.entries(r.pinned).map(([k, v]) => `${k} ${v}`).join(', ')}.` : ''}`).join('\n');
}

/** The bound the calibrated expectation is checked against on the split table. */
export const CALIBRATED_TOLERANCE = 0.25;

/** Top-5 and within-±25 % rates of one part of the table. */
export interface PartFigures {
  runs: number;
  top: number;
  /** Runs whose priced estimate (the bound) is within ±25 % of the published throughput. */
  boundWithin: number;
  /** Runs whose calibrated expectation is within ±25 %. */
  expectedWithin: number;
}

function figures(vs: readonly Verdict[]): PartFigures {
  const within = (r: number | undefined) => r !== undefined && Math.abs(r - 1) <= CALIBRATED_TOLERANCE;
  return {
    runs: vs.length,
    top: vs.filter((v) => v.rank !== undefined && v.rank <= TOP).length,
    boundWithin: vs.filter((v) => within(v.ratio)).length,
    expectedWithin: vs.filter((v) => within(v.expectedRatio)).length,
  };
}

/** The figures of the training and the held-back parts, dense and mixture-of-experts apart. */
export function splitFigures(verdicts: readonly Verdict[]): Record<'training' | 'heldBack', Record<'all' | 'dense' | 'moe', PartFigures>> {
  const part = (held: boolean) => {
    const vs = verdicts.filter((v) => isHeldBack(v.run.id) === held);
    const moe = (v: Verdict) => (v.run.shape.experts ?? 0) > 0;
    return { all: figures(vs), dense: figures(vs.filter((v) => !moe(v))), moe: figures(vs.filter(moe)) };
  };
  return { training: part(false), heldBack: part(true) };
}

/** The split figures as a markdown table. */
export function splitTable(verdicts: readonly Verdict[]): string {
  const f = splitFigures(verdicts);
  const pct = (k: number, n: number) => (n ? `${k} of ${n} (${Math.round((100 * k) / n)} %)` : '–');
  const rows: string[] = [];
  for (const [name, part] of [['training', f.training], ['held back', f.heldBack]] as const) {
    for (const kind of ['all', 'dense', 'moe'] as const) {
      const x = part[kind];
      rows.push(`| ${name} | ${kind === 'moe' ? 'MoE' : kind} | ${x.runs} | ${pct(x.top, x.runs)} | ${pct(x.boundWithin, x.runs)} | ${pct(x.expectedWithin, x.runs)} |`);
    }
  }
  return [
    `| part | kind | runs | published layout in the top ${TOP} | priced bound within ±${CALIBRATED_TOLERANCE * 100} % | calibrated expectation within ±${CALIBRATED_TOLERANCE * 100} % |`,
    '|---|---|---:|---|---|---|',
    ...rows,
  ].join('\n');
}
