/**
 * Model FLOPs utilization from a measured step: the model FLOPs of one optimizer step (every token
 * of the global batch, forward and backward, as `flopsPerToken` counts them), divided by the step
 * time and the GPUs, against the hardware's dense peak for the precision the run computes in.
 * The step time is given, or read from Megatron's iteration log lines. Pure.
 */
import type { Plan } from './plan';
import { flopsPerToken, type Precision } from './memory';

/** One `iteration N/M | … | elapsed time per iteration (ms): X | …` line of Megatron's training log. */
export interface LoggedIteration {
  /** 0-based line in the log. */
  line: number;
  iteration: number;
  /** The mean time per iteration over the log interval that ends here, in milliseconds. */
  elapsedMs: number;
  /** Megatron's own figure (`--log-throughput`), when logged. */
  tflopsPerGpu?: number;
  globalBatch?: number;
}

/** At most this many iteration lines are read from a log (a long run logs far fewer per excerpt). */
export const MAX_LOGGED_ITERATIONS = 100_000;

const ITERATION = /\biteration\s+(\d+)\s*\/\s*(?:\d+|infinity)\s*\|/;
const FIELD = (name: string) => new RegExp(`\\|\\s*${name}:\\s*([0-9.eE+-]+)\\s*\\|`);
const ELAPSED = FIELD('elapsed time per iteration \\(ms\\)');
const THROUGHPUT = FIELD('throughput per GPU \\(TFLOP/s/GPU\\)');
const GLOBAL_BATCH = FIELD('global batch size');

/** The iteration lines of a Megatron training log, in order; other lines are skipped. */
export function readMegatronLog(text: string): LoggedIteration[] {
  const out: LoggedIteration[] = [];
  let line = 0;
  for (let at = 0; at <= text.length && out.length < MAX_LOGGED_ITERATIONS; line++) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl;
    const row = text.slice(at, end);
    at = end + 1;
    const it = ITERATION.exec(row);
    const ms = it ? ELAPSED.exec(row) : null;
    if (!it || !ms) continue;
    const elapsedMs = Number(ms[1]);
    if (!Number.isFinite(elapsedMs) || elapsedMs <= 0) continue;
    const tf = THROUGHPUT.exec(row);
    const gbs = GLOBAL_BATCH.exec(row);
    out.push({ line, iteration: Number(it[1]), elapsedMs, tflopsPerGpu: tf ? Number(tf[1]) : undefined, globalBatch: gbs ? Number(gbs[1]) : undefined });
    if (nl < 0) break;
  }
  return out;
}

/** The step time a log gives: the median of its logged intervals, the first (warm-up) left out when there are others. */
export function stepFromLog(rows: readonly LoggedIteration[], globalBatch?: number): { seconds: number; from: string; loggedTflops?: number } | { problem: string } {
  if (!rows.length) return { problem: 'the log has no Megatron iteration lines (`iteration N/M | … | elapsed time per iteration (ms): X |`)' };
  // Lines of another global batch (batch-size ramp-up) time another amount of work.
  const same = globalBatch === undefined ? rows : rows.filter((r) => r.globalBatch === undefined || r.globalBatch === globalBatch);
  if (!same.length) return { problem: `no iteration line of the log has the configured global batch size ${globalBatch} (a ramp-up still under way?)` };
  const used = same.length > 1 ? same.slice(1) : same;
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const ms = median(used.map((r) => r.elapsedMs));
  const logged = used.map((r) => r.tflopsPerGpu).filter((t): t is number => t !== undefined);
  const ramp = rows.length - same.length;
  const from = `median of ${used.length} logged interval${used.length === 1 ? '' : 's'} (iterations ${used[0].iteration}–${used[used.length - 1].iteration})${same.length > 1 ? `; the first, iteration ${same[0].iteration}, holds the warm-up and is left out` : ''}${ramp ? `; ${ramp} line${ramp === 1 ? '' : 's'} at another global batch size left out` : ''}`;
  return { seconds: ms / 1000, from, loggedTflops: logged.length ? median(logged) : undefined };
}

export interface Mfu {
  /** Model FLOPs of one step (all GPUs). */
  flopsPerStep: number;
  tokensPerStep: number;
  flopsPerToken: number;
  gpus: number;
  stepSeconds: number;
  /** Achieved model TFLOP/s per GPU. */
  achievedTflops: number;
  precision: Precision;
  /** The hardware's dense peak for that precision, when the profile has one. */
  peakTflops?: number;
  /** achieved / peak, when the peak is known. */
  mfu?: number;
  /** What each number rests on, for the report. */
  basis: string[];
}

/** The dense peak the run's precision computes at: BF16/FP16 tensor cores, FP8 where the profile has it. */
function peakFor(p: Plan, precision: Precision): number | undefined {
  const hw = p.hardware.profile;
  return precision === 'fp8' ? hw.fp8Tflops : precision === 'fp32' ? undefined : hw.bf16Tflops;
}

/** MFU of a layout at a measured step time; what is missing when the layout does not say enough. */
export function mfuOf(p: Plan, step: { seconds: number; from: string }, gpus?: number): Mfu | { missing: string[] } {
  const missing: string[] = [];
  const model = p.model?.value;
  const seq = p.seqLength?.value;
  const gbs = p.globalBatch?.value;
  const world = gpus ?? p.world?.value;
  if (!model) missing.push('the model (its layers, hidden size and heads; a `model` setting names a preset)');
  if (!seq) missing.push('the sequence length');
  if (!gbs) missing.push('the global batch size');
  if (!world) missing.push('the number of GPUs');
  if (!(step.seconds > 0) || !Number.isFinite(step.seconds)) missing.push('a positive step time');
  if (!model || !seq || !gbs || !world || missing.length) return { missing };
  const perToken = flopsPerToken(model, seq);
  const tokens = gbs * seq;
  const flops = perToken * tokens;
  const achieved = flops / (world * step.seconds) / 1e12;
  const precision = p.precision.value;
  const peak = peakFor(p, precision);
  const basis = [
    `model FLOPs per token ${perToken.toExponential(3)} (forward and backward of every GEMM, causal attention scores, the logits${model.vocab ? '' : ' — no vocabulary given, so without the logits'}; recomputation is not model work)`,
    `tokens per step ${tokens.toLocaleString('en-US')} = global batch ${gbs} × sequence ${seq}`,
    `${world} GPUs${gpus !== undefined ? ' (given)' : ''}`,
    `step time ${fmtSeconds(step.seconds)}: ${step.from}`,
    peak !== undefined ? `peak ${peak} TFLOP/s per GPU: ${p.hardware.profile.title}, dense ${precision.toUpperCase()}` : `no dense ${precision.toUpperCase()} peak in the ${p.hardware.profile.title} profile`,
  ];
  return { flopsPerStep: flops, tokensPerStep: tokens, flopsPerToken: perToken, gpus: world, stepSeconds: step.seconds, achievedTflops: achieved, precision, peakTflops: peak, mfu: peak ? achieved / peak : undefined, basis };
}

function fmtSeconds(s: number): string {
  return s >= 1 ? `${s.toFixed(3)} s` : `${(s * 1000).toFixed(1)} ms`;
}
