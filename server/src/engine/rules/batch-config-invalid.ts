/**
 * batch-config-invalid: batch-size arguments that Megatron-LM rejects together.
 */
import { rampRefusal, rampRefusedFirst, rampWritten, scheduleNumber } from '../formats/megatron/batches';
import { inFormat } from '../formats/megatron/checks';
import { argAbsent, argNum, argOn, argValue, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { gtpFactor } from '../plan/layout';
import { defineRule, type RuleContext } from './rule';

/** The first Megatron Core release whose argument checks refuse a step schedule beside a global batch. */
const SCHEDULE_CHECKED_SINCE = '0.18.0';

/**
 * A written eval batch that the eval micro-batch (written, or the micro-batch) × DP does not divide:
 * Megatron-LM's validate_args refuses it from core_v0.18.0 (training/arguments.py@core_v0.18.0:705-712,
 * @d98e8a6:715-720). An eval batch left out is the global batch, which global-batch-not-divisible judges.
 */
function evalBatch(ctx: RuleContext<MegatronModel>): void {
  const m = ctx.model;
  const p = ctx.plan;
  const egbs = argNum(m, 'eval_global_batch_size');
  if (!p || egbs === undefined || egbs <= 0 || !argAbsent(m, 'eval_context_parallel_size')) return;
  const embs = argAbsent(m, 'eval_micro_batch_size') ? argNum(m, 'micro_batch_size') : argNum(m, 'eval_micro_batch_size');
  // Weight shards change the replica count the check multiplies by across releases: left alone.
  if (!embs || embs <= 0 || gtpFactor(p) !== 1) return;
  const dp = p.dp?.value;
  if (!dp || egbs % (embs * dp) === 0 || !ctx.atLeast(EVAL_CHECKED_SINCE)) return;
  ctx.report({
    at: m.args.get('eval_global_batch_size')?.path ?? [],
    message: inFormat(m, ctx.format, `\`--eval-global-batch-size ${egbs}\` is not divisible by the eval micro-batch ${embs}${argAbsent(m, 'eval_micro_batch_size') ? ' (the micro-batch)' : ''} × DP ${dp} = ${embs * dp}: each evaluation step splits the eval batch into micro-batches on every data-parallel rank, and Megatron-LM stops at startup ("eval_global_batch_size (${egbs}) must be divisible by eval_micro_batch_size (${embs}) * data_parallel_size (${dp})"). Use a multiple of ${embs * dp}.`),
  });
}

/**
 * A batch-size ramp-up the micro-batch calculator refuses when Megatron-LM builds it right after the
 * argument checks, before any step: a start batch, increment or sample count out of range, a global
 * batch that is not the start plus whole increments, or one equal to the start (no increments: a
 * division by zero), or 0 ramp-up samples (a division by zero on the first update)
 * (megatron/microbatches.py@core_v0.4.0:102-131, num_microbatches_calculator.py@core_v0.15.0:398-456).
 * From 0.18 the calculator ignores the ramp-up (deprecated-key says so).
 */
function rampRefused(ctx: RuleContext<MegatronModel>): void {
  const m = ctx.model;
  const r = rampWritten(m);
  const gbs = ctx.plan?.globalBatch?.value;
  if (!r || !gbs || rampRefusedFirst(m, true)) return;
  const why = rampRefusal(r, gbs);
  if (!why || ctx.atLeast(RAMP_IGNORED_SINCE)) return;
  ctx.report({
    at: r.at,
    on: 'value',
    message: inFormat(m, ctx.format, `\`--rampup-batch-size ${r.start} ${r.increment} ${r.samples}\`: ${why}: Megatron-LM stops at startup, when it builds the micro-batch calculator. Give a start batch above 0 and at most the global batch, an increment that reaches the global batch in whole steps, and a positive number of ramp-up samples, or drop the ramp-up.`),
  });
}

/** The first Megatron Core release whose micro-batch calculator ignores `--rampup-batch-size`. */
const RAMP_IGNORED_SINCE = '0.18.0';

/** The first Megatron Core release with the eval batch and its check. */
const EVAL_CHECKED_SINCE = '0.18.0';

export default defineRule<MegatronModel>({
  id: 'batch-config-invalid',
  severity: 'error',
  formats: MLM_FLAG_FORMATS,
  docs: {
    summary: 'Batch-size arguments that Megatron-LM rejects together (a step batch-size schedule beside a fixed global batch size or `--decrease-batch-size-if-needed`, a schedule it cannot read, an eval batch that the eval micro-batch × DP does not divide, or, before Megatron Core 0.18, a batch-size ramp-up its micro-batch calculator refuses).',
    why: 'A step schedule (`--step-batch-size-schedule "0:768 250B:1536 …"`) sets the global batch size for each stretch of training, so a fixed `--global-batch-size` beside it has nothing left to decide. From Megatron Core 0.18, where the schedule appeared, Megatron-LM checks its arguments at startup and stops with a ValueError when both are given, before any GPU work. It stops at startup too when `--decrease-batch-size-if-needed` is given beside the schedule, or when the schedule is not a list of `THRESHOLD:BATCH_SIZE` pairs, a batch size is not above zero, the smallest threshold is not below one sequence length (thresholds count tokens and are divided by `--seq-length`, so the first must come to 0 samples), or two thresholds come to the same sample count. From the same release a written `--eval-global-batch-size` must be a multiple of the eval micro-batch (`--eval-micro-batch-size`, or the micro-batch) × DP, or Megatron-LM stops at startup. Before Megatron Core 0.18, `--rampup-batch-size <start> <increment> <samples>` grows the global batch from the start batch to `--global-batch-size`, and the micro-batch calculator stops at startup when the start batch, the increment or the samples are not positive (negative samples), when the start is above the global batch or the global batch is not the start plus whole increments, and, with a division by zero, when the start already is the global batch or the ramp-up has 0 samples.',
    bad: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --micro-batch-size: 1\n  --global-batch-size: 1536\n  --step-batch-size-schedule: "0:768 100000:1536"\n',
    good: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --micro-batch-size: 1\n  --step-batch-size-schedule: "0:768 100000:1536"\n',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --bf16 \\\n    --micro-batch-size 1 --global-batch-size 1536 --step-batch-size-schedule "0:768 100000:1536"\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --bf16 \\\n    --micro-batch-size 1 --step-batch-size-schedule "0:768 100000:1536"\n',
    },
  },
  check(ctx) {
    ctx.separately(() => scheduleRefused(ctx));
    ctx.separately(() => evalBatch(ctx));
    ctx.separately(() => rampRefused(ctx));
    const m = ctx.model;
    const schedule = m.args.get('step_batch_size_schedule');
    const global = m.args.get('global_batch_size');
    if (!schedule || schedule.value === undefined || schedule.value === null || !global || global.value === undefined || global.value === null) return;
    // megatron/training/arguments.py (validate_args) from core_v0.18.0 on.
    if (!ctx.atLeast(SCHEDULE_CHECKED_SINCE)) return;
    ctx.report({
      at: schedule.path,
      related: [{ at: global.path, on: 'entry', message: 'the fixed global batch size is set here' }],
      message: inFormat(m, ctx.format, `\`--step-batch-size-schedule\` and \`--global-batch-size ${String(global.value)}\` are both given: the schedule already sets the global batch size at every step, and Megatron-LM (from Megatron Core 0.18, where the schedule appeared) stops at startup when both are given. Remove \`--global-batch-size\` (the schedule's first size applies from step 0), or drop the schedule to train at one fixed size.`),
    });
  },
});

/** What is wrong with the schedule as upstream parses and validates it, or undefined. */
function scheduleProblem(text: string, seq: number | undefined): { what: string; quote: string; todo: string } | undefined {
  const entries = text.trim().replace(/,/g, ' ').split(/\s+/).filter((e) => e !== '');
  if (entries.length === 0) return { what: 'is empty', quote: 'schedule must have at least one entry', todo: 'Give at least `0:<batch size>`, or remove the flag.' };
  const parsed: [number, number][] = [];
  for (const e of entries) {
    const i = e.indexOf(':');
    if (i < 0) return { what: `has the entry \`${e}\` without a colon`, quote: `Invalid schedule entry "${e}". Expected format: "THRESHOLD:BATCH_SIZE"`, todo: 'Write every entry as `THRESHOLD:BATCH_SIZE`.' };
    const t = scheduleNumber(e.slice(0, i));
    const b = scheduleNumber(e.slice(i + 1));
    if (t === 'bad' || b === 'bad') return { what: `has the entry \`${e}\`, which is not two numbers`, quote: 'could not convert string to float', todo: 'Write both halves of every entry as numbers (with an optional K, M, B or T suffix).' };
    if (t === undefined || b === undefined) return undefined;
    if (b <= 0) return { what: `gives the batch size ${b} (\`${e}\`)`, quote: `batch size must be positive, got ${b}`, todo: 'Give every entry a batch size above zero.' };
    parsed.push([t, b]);
  }
  // Thresholds count tokens: each is divided by the sequence length (floor) before the checks.
  if (seq === undefined || seq <= 0) return undefined;
  const samples = parsed.map(([t]) => Math.floor(t / seq)).sort((a, b) => a - b);
  if (samples[0] !== 0) return { what: `starts at ${samples[0]} samples (its smallest threshold over the sequence length ${seq}), not at 0`, quote: `first schedule entry must have threshold 0, got ${samples[0]}`, todo: 'Start the schedule with a `0:` entry.' };
  for (let k = 1; k < samples.length; k++) {
    if (samples[k] <= samples[k - 1]) return { what: `has two thresholds that fall on the same sample count (${samples[k]}, over the sequence length ${seq})`, quote: `schedule thresholds must be strictly increasing, got ${samples[k - 1]} before ${samples[k]}`, todo: 'Give each threshold at least one sequence length of tokens beyond the one before.' };
  }
  return undefined;
}

/**
 * The schedule's own refusals, made when Megatron-LM sets up its global state right after the
 * argument checks (global_vars.py@core_v0.18.0:133-134 passes `--seq-length`): num_microbatches_calculator.py
 * @core_v0.18.0:264-269 refuses `--decrease-batch-size-if-needed` beside it, :510-556 parses and validates
 * the entries (the same at d98e8a6).
 */
function scheduleRefused(ctx: RuleContext<MegatronModel>): void {
  const m = ctx.model;
  const written = argValue(m, 'step_batch_size_schedule');
  const text = typeof written === 'string' ? written : Array.isArray(written) && written.every((x) => typeof x === 'string') ? written.join(' ') : undefined;
  if (text === undefined) return;
  const at = m.args.get('step_batch_size_schedule')?.path ?? [];
  if (argOn(m, 'decrease_batch_size_if_needed')) {
    if (!ctx.atLeast(SCHEDULE_CHECKED_SINCE)) return;
    ctx.report({ at, message: inFormat(m, ctx.format, '`--step-batch-size-schedule` with `--decrease-batch-size-if-needed`: the schedule fixes each batch size, and Megatron-LM stops at startup ("Cannot specify both --step-batch-size-schedule and --decrease-batch-size-if-needed"). Remove `--decrease-batch-size-if-needed`.') });
    return;
  }
  const problem = scheduleProblem(text, argNum(m, 'seq_length'));
  if (!problem || !ctx.atLeast(SCHEDULE_CHECKED_SINCE)) return;
  ctx.report({ at, message: inFormat(m, ctx.format, `\`--step-batch-size-schedule\` ${problem.what}: Megatron-LM reads it as "THRESHOLD:BATCH_SIZE" pairs, thresholds in tokens (K, M, B, T suffixes) divided by the sequence length, and stops at startup ("${problem.quote}"). ${problem.todo}`) });
}
