/**
 * global-batch-not-divisible: the global batch is not a whole number of micro-batches per DP rank.
 */
import { batchStart, rampSteps, rampWritten, scheduleSteps, scheduleText } from '../formats/megatron/batches';
import { inFormat } from '../formats/megatron/checks';
import { argOn, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { fieldPath, gtpFactor, knobEdit, layoutFits } from '../plan/layout';
import type { Plan } from '../plan/plan';
import { megatronArg } from './helpers';
import { defineRule, type FixSpec, type RuleContext } from './rule';

export default defineRule({
  id: 'global-batch-not-divisible',
  severity: 'error',
  formats: 'all',
  forks: true,
  fixes: {
    'set-global-batch': { applicability: 'unsafe', changes: 'the batch size' },
  },
  verifyFixes: true,
  docs: {
    summary: 'The global batch size (or a batch the ramp-up or the step schedule reaches) is not divisible by micro-batch size × data-parallel size.',
    why: 'Each step runs GBS / (MBS × DP) micro-batches on every data-parallel rank, which must be a whole number; Megatron stops ("global batch size is not divisible by micro batch size times data parallel size"). DP is derived from the world and the model-parallel degrees, so changing TP, PP or the GPU count can break a batch size that used to work. With `--decrease-batch-size-if-needed` (Megatron-LM 0.9.0 on) Megatron lowers the batch to a multiple instead: a note. Still an error: a global batch below MBS × DP, which that rounds down to 0 micro-batches ("number of microbatches should be at least 1"); and from 0.18.0 (Bridge 0.5.0) an eval batch left to default to the global batch, whose own divisibility check runs first ("eval_global_batch_size (…) must be divisible by …"). With `--rampup-batch-size` (up to Megatron Core 0.17) or Megatron-LM\'s `--step-batch-size-schedule` (from 0.18) the batch changes during training, and Megatron-LM\'s and Megatron Bridge\'s training loops check each step\'s batch before the step ("current global batch size (…) is not divisible by …"): the ramp-up\'s start batch and increment, and every batch of the schedule, must be multiples too. A batch the run reaches only later is an error when the file writes how long the run is, a warning otherwise.',
    bad: "# shardwise: format=megatron-yaml world_size=16\nMODEL_ARGS:\n  --tensor-model-parallel-size: 2\n  --micro-batch-size: 4\n  --global-batch-size: 60\n",
    good: "# shardwise: format=megatron-yaml world_size=16\nMODEL_ARGS:\n  --tensor-model-parallel-size: 2\n  --micro-batch-size: 4\n  --global-batch-size: 64\n",
    fix: 'Sets the global batch to the nearest multiple of MBS × DP.',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 2 --sequence-parallel \\\n    --micro-batch-size 1 --global-batch-size 6\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 2 --sequence-parallel \\\n    --micro-batch-size 1 --global-batch-size 8\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.15.3, `num_microbatches_calculator.py`: the global batch must be divisible by micro batch × DP', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.15.3/megatron/core/num_microbatches_calculator.py#L340-L345' },
      { label: 'Megatron-LM core_v0.18.0, `arguments.py`: the eval batch defaults to the global batch and must be divisible by eval micro batch × DP', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.18.0/megatron/training/arguments.py#L705-L712' },
      { label: 'Megatron-LM core_v0.9.0, `num_microbatches_calculator.py`: a batch rounded down to 0 micro-batches stops', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.9.0/megatron/core/num_microbatches_calculator.py#L316-L338' },
    ],
  },
  check(ctx) {
    const p = ctx.plan;
    // A DeepSpeed JSON's batch identity (with its gradient accumulation) is batch-size-mismatch's; a
    // Trainer recipe's global batch is its JSON's, which the Trainer compares (trainer-deepspeed-mismatch).
    if (!p?.globalBatch || !p.microBatch || !p.dp || !layoutFits(p) || ctx.format === 'deepspeed' || ctx.format === 'trainer') return;
    const unit = p.microBatch.value * p.dp.value;
    const gbs = p.globalBatch.value;
    if (gbs % unit === 0) return stepBatches(ctx, p, unit);
    // The eval check divides by Megatron's replicas, which leave out the generalized-TP ranks (from
    // 0.19.0, arguments.py@core_v0.19.0:411-446); the micro-batch calculator is given them all
    // (global_vars.py@core_v0.19.0:132), so it is the one that stops when only the replicas divide.
    const evalStop = evalBatchStops(ctx, gbs, p.microBatch.value, p.dp.value / (gtpFactor(p) ?? 1));
    const setTo = (ns: number[]): FixSpec[] => {
      const out: FixSpec[] = [];
      for (const n of ns) {
        const e = n > 0 ? knobEdit(p, 'globalBatch', n) : undefined;
        if (e && !out.some((f) => f.title.endsWith(` ${n}`))) out.push({ kind: 'set-global-batch', title: `Set the global batch to ${n}`, edits: [e] });
      }
      return out;
    };
    const ceil = Math.ceil(gbs / unit) * unit;
    const lower = Math.floor(gbs / unit) * unit;
    // `--decrease-batch-size-if-needed` (Megatron-LM 0.9.0 on; Bridge `train.decrease_batch_size_if_needed`):
    // the micro-batch calculator rounds the global batch down to a multiple (num_microbatches_calculator.py).
    // NeMo hands its calculator `decrease_batch_size_if_needed=False` whatever the config says
    // (megatron_init.py@v2.4.0:167-174, :187-194).
    const decrease = ctx.format === 'nemo' ? undefined : megatronArg(ctx.model, 'decrease_batch_size_if_needed');
    if ((decrease === true || decrease === 'true') && ctx.atLeast('0.9.0')) {
      // An eval batch written with values that fail their own check, or an eval CP: not this finding.
      if (evalStop === undefined) return;
      if (evalStop) {
        // From 0.18.0 the eval batch defaults to the global batch and is checked before anything is lowered.
        ctx.report({
          at: fieldPath(p, p.globalBatch, 'globalBatch'),
          on: 'value',
          message: `Global batch ${gbs} is not divisible by micro-batch ${p.microBatch.value} × DP ${p.dp.value} = ${unit}, and \`decrease_batch_size_if_needed\` does not help here: the eval batch, which defaults to the global batch, must be divisible by the eval micro-batch × DP, and ${ctx.tool} stops on that check ("eval_global_batch_size (${gbs}) must be divisible by …") before the batch could be lowered. Use a multiple of ${unit}, or write an eval batch that divides.`,
          fixes: setTo([ceil, lower]),
        });
        return;
      }
      if (lower === 0) {
        // Rounded down to 0: no micro-batch per rank, and the calculator stops.
        ctx.report({
          at: fieldPath(p, p.globalBatch, 'globalBatch'),
          on: 'value',
          message: `Global batch ${gbs} is smaller than micro-batch ${p.microBatch.value} × DP ${p.dp.value} = ${unit}: \`decrease_batch_size_if_needed\` rounds it down to 0, and ${ctx.tool} stops ("number of microbatches should be at least 1"). Use a multiple of ${unit}.`,
          fixes: setTo([ceil]),
        });
        return;
      }
      ctx.report({
        at: fieldPath(p, p.globalBatch, 'globalBatch'),
        on: 'value',
        severity: 'information',
        message: `Global batch ${gbs} is not divisible by micro-batch ${p.microBatch.value} × DP ${p.dp.value} = ${unit}: with \`decrease_batch_size_if_needed\` set, Megatron lowers it to ${lower} at startup instead of stopping, so the run trains with that batch. Write the batch it runs with.`,
      });
      return;
    }
    // From 0.18.0 the eval-batch check, which runs first, is the one that stops when the eval batch is the global batch.
    const quote = evalStop ? `eval_global_batch_size (${gbs}) must be divisible by …` : 'global batch size is not divisible by micro batch size times data parallel size';
    const fixes = setTo([ceil, lower]);
    ctx.report({
      at: fieldPath(p, p.globalBatch, 'globalBatch'),
      on: 'value',
      message: `Global batch ${gbs} is not divisible by micro-batch ${p.microBatch.value} × DP ${p.dp.value} = ${unit} (${p.dp.from.kind === 'derived' ? p.dp.from.formula : 'DP'}): Megatron stops ("${quote}"). Use a multiple of ${unit}.`,
      fixes,
    });
  },
});

/**
 * From Megatron Core 0.18.0 (Megatron-LM's validate_args; Bridge 0.5.0's ConfigContainer.validate,
 * on that Core) the eval batch defaults to the global batch and the eval micro-batch to the
 * micro-batch, and the eval batch must be divisible by eval micro-batch × DP (arguments.py@core_v0.18.0:705-712).
 * Whether that check stops on the global batch: true when the file writes no eval batch and it does
 * not divide; false when it passes or the release has no such check; undefined when the file writes
 * its own eval batch that fails, an eval CP, or values that are not numbers (not this rule's finding).
 */
function evalBatchStops(ctx: RuleContext, gbs: number, mbs: number, dp: number): boolean | undefined {
  // NeMo makes neither Megatron-LM's eval-batch check nor Bridge's (runtime.ts): its micro-batch calculator is the one that stops.
  if (ctx.format === 'nemo' || !ctx.atLeast('0.18.0')) return false;
  const num = (v: unknown): number | undefined | null => (v === undefined || v === null ? undefined : Number.isInteger(Number(v)) && Number(v) > 0 ? Number(v) : null);
  const cp = megatronArg(ctx.model, 'eval_context_parallel_size');
  if (cp !== undefined && cp !== null) return undefined;
  const egbs = num(megatronArg(ctx.model, 'eval_global_batch_size'));
  const embs = num(megatronArg(ctx.model, 'eval_micro_batch_size'));
  if (egbs === null || embs === null) return undefined;
  const fails = (egbs ?? gbs) % ((embs ?? mbs) * dp) !== 0;
  if (egbs !== undefined) return fails ? undefined : false;
  return fails;
}

/**
 * A batch of the ramp-up (`--rampup-batch-size`, up to Megatron Core 0.17) or of Megatron-LM's step
 * schedule (from 0.18) that MBS × DP does not divide. Megatron-LM's and Megatron Bridge's training
 * loops check each step's batch before the step (training.py@core_v0.4.0:749,
 * @core_v0.15.0:2250 with num_microbatches_calculator.py@core_v0.15.0:474-483 and
 * @core_v0.18.0:580-588; Bridge train.py@v0.2.0:289, @v0.6.0:423), so the run stops on the first such
 * step; NeMo updates the count without that check. With `--decrease-batch-size-if-needed` (0.9 on) a
 * ramp-up's batch is lowered instead, and the schedule refuses that switch (batch-config-invalid).
 */
function stepBatches(ctx: RuleContext, p: Plan, unit: number): void {
  if (!['megatron-args', 'megatron-yaml', 'megatron-bridge'].includes(ctx.format) || p.notTraining || !p.microBatch || !p.dp || !p.globalBatch) return;
  const m = ctx.model as MegatronModel;
  const schedule = (MLM_FLAG_FORMATS as readonly string[]).includes(ctx.format) && scheduleText(m) !== undefined;
  if (!schedule && !rampWritten(m)) return;
  if (schedule && !ctx.atLeast('0.18.0')) return;
  const steps = schedule ? scheduleSteps(m) : rampSteps(m, p.globalBatch.value, (MLM_FLAG_FORMATS as readonly string[]).includes(ctx.format));
  const b = steps?.batches.find((x) => x.reached !== false && x.value % unit !== 0);
  if (!steps || !b) return;
  if (!schedule && (ctx.atLeast('0.18.0') || (argOn(m, 'decrease_batch_size_if_needed') && ctx.atLeast('0.9.0')))) return;
  const what = schedule ? 'the step schedule\'s global batch' : b.step === 1 ? 'the ramp-up\'s starting global batch' : 'the ramp-up\'s global batch';
  const far = b.reached === undefined ? ', if training runs that far (the file does not write how long it runs)' : '';
  ctx.report({
    at: steps.at,
    on: 'value',
    severity: b.reached === undefined ? 'warning' : undefined,
    message: inFormat(m, ctx.format, `With ${schedule ? '`--step-batch-size-schedule`' : '`--rampup-batch-size`'}, ${what} ${b.value} is not divisible by micro-batch ${p.microBatch.value} × DP ${p.dp.value} = ${unit}: Megatron checks each step's batch before the step and stops ${batchStart(b)}${far} ("current global batch size (${b.value}) is not divisible by …"). Make every batch of the ${schedule ? 'schedule' : 'ramp-up (the start batch and the increment)'} a multiple of ${unit}.`),
  });
}
