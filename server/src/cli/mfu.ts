/**
 * `shardwise mfu --config FILE (--step-time SECONDS | --log TRAIN.LOG)`: model FLOPs per step,
 * achieved TFLOP/s per GPU and MFU of the layout a config describes, at a measured step time.
 */
import { mfuOf, readMegatronLog, stepFromLog, type FileAnalysis, type Mfu } from '../engine';
import { readOptions } from './options';

export interface MfuOptions {
  config: string;
  stepTime?: number;
  log?: string;
  gpus?: number;
  /** Everything else, read as `check`'s options (--hardware, --output-format, --no-config, …). */
  rest: string[];
}

/** Reads mfu's own options; throws `usage` errors with what is wrong. */
export function parseMfuArgs(args: string[], usage: (message: string) => Error): MfuOptions {
  const out: Partial<MfuOptions> & { rest: string[] } = { rest: [] };
  out.rest = readOptions(args, usage, (r) => {
    if (r.flag === '--config') out.config = r.value();
    else if (r.flag === '--log') out.log = r.value();
    else if (r.flag === '--step-time') {
      const v = r.value();
      const n = Number(v);
      if (!/^\d+(\.\d+)?([eE][-+]?\d+)?$/.test(v) || !(n > 0) || !Number.isFinite(n)) throw usage(`--step-time takes the seconds one optimizer step takes (e.g. 4.2), not ${JSON.stringify(v)}`);
      out.stepTime = n;
    } else if (r.flag === '--gpus') out.gpus = r.positive();
    else return false;
    return true;
  });
  if (!out.config) throw usage('mfu needs --config FILE: the config that describes the layout');
  if ((out.stepTime === undefined) === (out.log === undefined)) throw usage('mfu needs exactly one of --step-time SECONDS and --log TRAIN.LOG');
  return out as MfuOptions;
}

export type MfuResult = { plan: number; mfu: Mfu; loggedTflops?: number } | { problem: string };

/** The MFU of the first document of the analysis that describes a layout. */
export function mfuFor(analysis: FileAnalysis, o: MfuOptions, logText: string | undefined): MfuResult {
  const index = analysis.docs.findIndex((d) => d.plan);
  const plan = analysis.docs[index]?.plan;
  if (!plan) return { problem: `${o.config} does not describe a parallel layout Shardwise knows` };
  let step: { seconds: number; from: string };
  let loggedTflops: number | undefined;
  if (logText !== undefined) {
    const s = stepFromLog(readMegatronLog(logText), plan.globalBatch?.value);
    if ('problem' in s) return { problem: `${o.log}: ${s.problem}` };
    step = s;
    loggedTflops = s.loggedTflops;
  } else step = { seconds: o.stepTime!, from: 'given with --step-time' };
  const m = mfuOf(plan, step, o.gpus);
  if ('missing' in m) return { problem: `${o.config} does not say ${m.missing.join(', ')}: MFU needs them (a \`model\`, \`seq_length\` or \`world_size\` setting in .shardwise.yaml, or --gpus, can give what the file does not)` };
  return { plan: index, mfu: m, loggedTflops };
}

/** The report: the figures first, then what each rests on. */
export function mfuText(r: Extract<MfuResult, { mfu: Mfu }>): string {
  const m = r.mfu;
  const lines = [
    `model FLOPs per step   ${m.flopsPerStep.toExponential(3)}`,
    `step time              ${m.stepSeconds >= 1 ? `${m.stepSeconds.toFixed(3)} s` : `${(m.stepSeconds * 1000).toFixed(1)} ms`}`,
    `achieved               ${m.achievedTflops.toFixed(1)} TFLOP/s per GPU over ${m.gpus} GPUs${r.loggedTflops !== undefined ? ` (the log says ${r.loggedTflops.toFixed(1)})` : ''}`,
    m.peakTflops !== undefined ? `peak                   ${m.peakTflops} TFLOP/s per GPU (dense ${m.precision.toUpperCase()})` : `peak                   unknown for ${m.precision.toUpperCase()}`,
    m.mfu !== undefined ? `MFU                    ${(m.mfu * 100).toFixed(1)} %` : 'MFU                    unknown (no peak)',
    '',
    ...m.basis.map((b) => `  ${b}`),
  ];
  return lines.join('\n');
}
