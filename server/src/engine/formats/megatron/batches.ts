/**
 * The global batch of each training step, where it changes during training: Megatron's batch-size
 * ramp-up (`--rampup-batch-size <start> <increment> <samples>`, read up to Megatron Core 0.17) and
 * Megatron-LM's step schedule (`--step-batch-size-schedule "THRESHOLD:BATCH …"`, from 0.18). Each
 * step's micro-batch count is that step's batch over MBS × DP, not `--global-batch-size` over it, so
 * the rules that reason from the micro-batches judge every batch the run takes.
 *
 * Upstream (Megatron-LM): the ramp-up calculator (megatron/microbatches.py@core_v0.4.0:78-145,
 * megatron/core/num_microbatches_calculator.py@core_v0.15.0:398-508) starts at the start batch,
 * adds the increment every `samples / ((GBS - start) / increment)` consumed samples, and uses GBS once
 * more than `samples` were consumed; sample-based training counts its steps by walking that ramp
 * (training.py@core_v0.15.0:825-848). From 0.18 the calculator ignores the ramp-up
 * (num_microbatches_calculator.py@core_v0.18.0:100-104, global_vars.py@core_v0.18.0:127-135 no longer
 * passes it) and reads the step schedule instead (:402-593; training.py@core_v0.18.0:1485-1505 counts
 * the steps of sample-based training by walking it). The training loop updates the count before
 * every step and checks that MBS × DP divides the step's batch (training.py@core_v0.15.0:2225-2250;
 * Megatron Bridge train.py@v0.6.0:404-423).
 */
import type { Path } from '../../types';
import { argNum, argOn, argValue, type MegatronModel } from './model';

/** One batch size the run takes, from the first step that takes it. */
export interface StepBatch {
  value: number;
  /** 1-based. */
  step: number;
  /** Samples consumed before that step. */
  samples: number;
  /**
   * Whether the run gets there: true for the first step, and for a later one when the file writes the
   * run's length and it reaches the step; false when that length ends the run before it; undefined
   * when the length is not written.
   */
  reached: boolean | undefined;
}

export interface BatchSteps {
  kind: 'ramp' | 'schedule';
  /** Where the file writes the ramp-up or the schedule. */
  at: Path;
  /** The batches in the order the run takes them (the ramp-up ends on `--global-batch-size`). */
  batches: StepBatch[];
}

/** The three integers of a written `--rampup-batch-size`, as the calculator's `int()` takes them; undefined otherwise. */
export function rampWritten(m: MegatronModel): { start: number; increment: number; samples: number; at: Path } | undefined {
  const a = m.args.get('rampup_batch_size');
  if (!a || a.unknown || a.value === undefined || a.value === null) return undefined;
  const words = Array.isArray(a.value) ? a.value : typeof a.value === 'string' ? a.value.trim().split(/\s+/) : [a.value];
  if (words.length !== 3) return undefined;
  const n = words.map((w) => (typeof w === 'number' && Number.isInteger(w) ? w : typeof w === 'string' && /^[+-]?\d+$/.test(w.trim()) ? Number(w) : NaN));
  if (n.some((x) => !Number.isSafeInteger(x))) return undefined;
  return { start: n[0], increment: n[1], samples: n[2], at: a.path };
}

/**
 * Why the ramp-up calculator stops when it is built, before the first step, if it does (its
 * assertions, and the division by the number of increments or by the samples per increment), for
 * a final global batch `gbs`: text for a message, with the calculator's words.
 */
export function rampRefusal(r: { start: number; increment: number; samples: number }, gbs: number): string | undefined {
  if (r.start <= 0) return `the start batch ${r.start} is not above 0 ("start batch size should be positive")`;
  if (r.increment <= 0) return `the increment ${r.increment} is not above 0 ("batch size increment should be positive")`;
  if (r.samples < 0) return `the ramp-up samples ${r.samples} are negative ("ramp-up samples should be non-negative")`;
  if (gbs < r.start) return `the start batch ${r.start} is above the global batch ${gbs} ("expected global batch size to be greater than or equal to start batch size")`;
  if ((gbs - r.start) % r.increment !== 0) return `the global batch ${gbs} is not the start batch ${r.start} plus a whole number of increments of ${r.increment} ("expected global batch size interval (${gbs - r.start}) to be divisible by global batch size increment (${r.increment})")`;
  if (gbs === r.start) return `the start batch is already the global batch ${gbs}, so there are no increments and the calculator divides the ramp-up samples by 0 (a ZeroDivisionError)`;
  if (r.samples === 0) return 'the ramp-up has 0 samples, so the calculator divides the first step\'s samples by 0 samples per increment (a ZeroDivisionError)';
  return undefined;
}

/** One threshold or batch size of a step schedule as the calculator reads it (`int(float(text) * K/M/B/T)`): a number, `'bad'` where Python's float() refuses it, undefined where this reading does not settle it (digits with underscores, which Python takes). */
export function scheduleNumber(text: string): number | 'bad' | undefined {
  let t = text.trim().toUpperCase();
  let mult = 1;
  const suffix = { T: 1e12, B: 1e9, M: 1e6, K: 1e3 }[t.slice(-1)];
  if (suffix) { mult = suffix; t = t.slice(0, -1); }
  if (/^[+-]?(\d+(\.\d*)?|\.\d+)(E[+-]?\d+)?$/.test(t)) return Math.trunc(Number(t) * mult);
  return /^[0-9_.E+-]+$/.test(t) && /\d/.test(t) ? undefined : 'bad';
}

/** The written step schedule's text, or undefined. */
export function scheduleText(m: MegatronModel): string | undefined {
  const written = argValue(m, 'step_batch_size_schedule');
  return typeof written === 'string' ? written : Array.isArray(written) && written.every((x) => typeof x === 'string') ? written.join(' ') : undefined;
}

/**
 * The schedule as (threshold in samples, batch) pairs sorted by threshold, when it is one the
 * calculator takes (entries `THRESHOLD:BATCH`, positive batches, thresholds from 0 strictly
 * increasing once divided by the sequence length) and every number is settled; undefined otherwise.
 * `seq`: the sequence length the thresholds (tokens) are divided by, null where there is none (they
 * are samples).
 */
function scheduleEntries(text: string, seq: number | null): [number, number][] | undefined {
  const out: [number, number][] = [];
  for (const e of text.trim().replace(/,/g, ' ').split(/\s+/).filter((x) => x !== '')) {
    const i = e.indexOf(':');
    if (i < 0) return undefined;
    const t = scheduleNumber(e.slice(0, i));
    const b = scheduleNumber(e.slice(i + 1));
    if (typeof t !== 'number' || typeof b !== 'number' || b <= 0) return undefined;
    out.push([seq ? Math.floor(t / seq) : t, b]);
  }
  out.sort((a, b) => a[0] - b[0]);
  if (!out.length || out[0][0] !== 0 || out.some(([t], k) => k > 0 && t <= out[k - 1][0])) return undefined;
  return out;
}

/** A run of steps at one batch: its batch, first step (1-based), samples consumed before it and number of steps (Infinity for the last). */
interface Run { batch: number; step: number; samples: number; count: number }

/**
 * Walks the consumed samples one run of equal batches at a time: `batchAt(c)` is the batch of a step
 * that starts with `c` samples consumed, `next(c)` the first count above `c` whose batch differs
 * (undefined: none). Undefined when the walk is too long to follow.
 */
function walk(batchAt: (c: number) => number, next: (c: number) => number | undefined): Run[] | undefined {
  const runs: Run[] = [];
  let c = 0;
  let step = 1;
  for (let k = 0; k < 20000; k++) {
    const batch = batchAt(c);
    const n = next(c);
    if (n === undefined) {
      runs.push({ batch, step, samples: c, count: Infinity });
      return runs;
    }
    const count = Math.max(1, Math.ceil((n - c) / batch));
    runs.push({ batch, step, samples: c, count });
    c += count * batch;
    step += count;
  }
  return undefined;
}

/** The ramp-up's batch at `c` consumed samples, and the next count where it changes (num_microbatches_calculator.py@core_v0.15.0:453-460). */
function rampWalk(r: { start: number; increment: number; samples: number }, gbs: number): Run[] | undefined {
  const per = r.samples / ((gbs - r.start) / r.increment);
  const band = (c: number) => Math.trunc(c / per);
  const batchAt = (c: number) => (c > r.samples ? gbs : r.start + band(c) * r.increment);
  const next = (c: number): number | undefined => {
    if (c > r.samples) return undefined;
    const k = band(c);
    let b = Math.max(c + 1, Math.ceil((k + 1) * per));
    while (b <= r.samples && band(b) <= k) b++;
    while (b - 1 > c && band(b - 1) > k) b--;
    return Math.min(b, r.samples + 1);
  };
  return walk(batchAt, next);
}

/** How many steps the run takes, where the file says: `--train-iters`, or the samples of sample-based training walked as upstream counts them. */
function stepsOf(m: MegatronModel, runs: Run[], kind: 'ramp' | 'schedule', ramp?: { samples: number }): number | undefined {
  const iters = argNum(m, 'train_iters');
  if (iters !== undefined) return iters;
  const total = argNum(m, 'train_samples');
  if (total === undefined) return undefined;
  let steps = 0;
  if (kind === 'schedule') {
    // Steps while fewer than `--train-samples` are consumed (training.py@core_v0.18.0:1491-1500).
    for (const r of runs) {
      if (r.samples >= total) break;
      steps += Math.min(r.count, Math.ceil((total - r.samples) / r.batch));
    }
    return steps;
  }
  // The ramp-up's steps while the consumed samples are within both the ramp-up and the run, then the
  // rest at the global batch (training.py@core_v0.15.0:830-846).
  const limit = Math.min(ramp!.samples, total);
  let end = 0;
  for (const r of runs) {
    const n = r.samples <= limit ? Math.min(r.count, Math.floor((limit - r.samples) / r.batch) + 1) : 0;
    steps += n;
    end = r.samples + n * r.batch;
    if (n < r.count) break;
  }
  const gbs = runs[runs.length - 1].batch;
  return total > end ? steps + Math.floor((total - end) / gbs) : steps;
}

function batchesOf(runs: Run[], steps: number | undefined): StepBatch[] {
  const out: StepBatch[] = [];
  for (const r of runs) {
    if (out.some((b) => b.value === r.batch)) continue;
    out.push({ value: r.batch, step: r.step, samples: r.samples, reached: r.step === 1 ? true : steps === undefined ? undefined : r.step <= steps });
  }
  return out;
}

/**
 * Megatron-LM's argument checks (and its `--yaml-cfg` reader) stop before the calculator is built on a
 * ramp-up with iteration-based training (arguments.py@core_v0.15.0:791-792, yaml_arguments.py@core_v0.17.0:182-183;
 * schedule-config-invalid reports it); Megatron Bridge trains a ramp-up only by iterations.
 */
export function rampRefusedFirst(m: MegatronModel, mlm: boolean): boolean {
  return mlm && (argNum(m, 'train_iters') ?? 0) > 0 && argValue(m, 'train_samples') == null;
}

/**
 * The batches of a ramp-up the calculator takes, for the final global batch `gbs` (a ramp-up it
 * refuses, or one too long to follow, gives undefined), in a file Megatron-LM's own flags read
 * (`mlm`) or not. Read only where the release reads a ramp-up (before Megatron Core 0.18): the caller asks.
 */
export function rampSteps(m: MegatronModel, gbs: number, mlm: boolean): BatchSteps | undefined {
  const r = rampWritten(m);
  if (!r || rampRefusal(r, gbs) || rampRefusedFirst(m, mlm)) return undefined;
  const runs = rampWalk(r, gbs);
  if (!runs) return undefined;
  return { kind: 'ramp', at: r.at, batches: batchesOf(runs, stepsOf(m, runs, 'ramp', r)) };
}

/**
 * The batches of a written step schedule the calculator takes (Megatron-LM from Megatron Core 0.18;
 * the caller asks for the release). Its thresholds count tokens, divided by `--seq-length`
 * (global_vars.py@core_v0.18.0:134), or samples without one.
 */
export function scheduleSteps(m: MegatronModel): BatchSteps | undefined {
  const text = scheduleText(m);
  if (text === undefined || argOn(m, 'decrease_batch_size_if_needed')) return undefined;
  // `--seq-length`, or `--encoder-seq-length` in its place (validate_args, arguments.py@core_v0.18.0:1291-1296);
  // a file that writes neither stops there, and one left to a recipe is not known.
  const seqOf = (dest: string): number | null | undefined => (m.args.get(dest) === undefined ? (m.args.defaultsUnknown ? undefined : null) : argNum(m, dest));
  const own = seqOf('seq_length');
  const seq = own === null ? seqOf('encoder_seq_length') ?? undefined : own;
  // A sequence length not known: only the first entry (threshold 0 whatever it is divided by) is.
  const entries = seq === undefined ? firstEntry(text) : scheduleEntries(text, seq);
  if (!entries) return undefined;
  const batchAt = (c: number) => entries.filter(([t]) => t <= c).at(-1)![1];
  const next = (c: number) => entries.find(([t]) => t > c)?.[0];
  const runs = walk(batchAt, next);
  if (!runs) return undefined;
  return { kind: 'schedule', at: m.args.get('step_batch_size_schedule')!.path, batches: batchesOf(runs, seq === undefined ? undefined : stepsOf(m, runs, 'schedule')) };
}

/** The schedule's entry for the first step alone (its threshold is 0 in samples as in tokens). */
function firstEntry(text: string): [number, number][] | undefined {
  const all = scheduleEntries(text, null);
  return all ? [all[0]] : undefined;
}

/** The first step of a batch of the ramp-up or schedule, for messages: "on step 1", "on step 37 (after 120 samples)". */
export function batchStart(b: StepBatch): string {
  return b.step === 1 ? 'on step 1' : `on step ${b.step} (after ${b.samples} samples)`;
}
