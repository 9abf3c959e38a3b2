/**
 * batch-config-invalid: batch-size arguments that Megatron-LM rejects together.
 */
import { argAbsent, argNum, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
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
    message: `\`--eval-global-batch-size ${egbs}\` is not divisible by the eval micro-batch ${embs}${argAbsent(m, 'eval_micro_batch_size') ? ' (the micro-batch)' : ''} × DP ${dp} = ${embs * dp}: each evaluation step splits the eval batch into micro-batches on every data-parallel rank, and Megatron-LM stops at startup ("eval_global_batch_size (${egbs}) must be divisible by eval_micro_batch_size (${embs}) * data_parallel_size (${dp})"). Use a multiple of ${embs * dp}.`,
  });
}

/** The first Megatron Core release with the eval batch and its check. */
const EVAL_CHECKED_SINCE = '0.18.0';

export default defineRule<MegatronModel>({
  id: 'batch-config-invalid',
  severity: 'error',
  formats: MLM_FLAG_FORMATS,
  docs: {
    summary: 'Batch-size arguments that Megatron-LM rejects together (a step batch-size schedule beside a fixed global batch size, or an eval batch that the eval micro-batch × DP does not divide).',
    why: 'A step schedule (`--step-batch-size-schedule "0:768 250B:1536 …"`) sets the global batch size for each stretch of training, so a fixed `--global-batch-size` beside it has nothing left to decide. From Megatron Core 0.18, where the schedule appeared, Megatron-LM checks its arguments at startup and stops with a ValueError when both are given, before any GPU work. From the same release a written `--eval-global-batch-size` must be a multiple of the eval micro-batch (`--eval-micro-batch-size`, or the micro-batch) × DP, or Megatron-LM stops at startup.',
    bad: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --micro-batch-size: 1\n  --global-batch-size: 1536\n  --step-batch-size-schedule: "0:768 100000:1536"\n',
    good: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --micro-batch-size: 1\n  --step-batch-size-schedule: "0:768 100000:1536"\n',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --bf16 \\\n    --micro-batch-size 1 --global-batch-size 1536 --step-batch-size-schedule "0:768 100000:1536"\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --bf16 \\\n    --micro-batch-size 1 --step-batch-size-schedule "0:768 100000:1536"\n',
    },
  },
  check(ctx) {
    ctx.separately(() => evalBatch(ctx));
    ctx.separately(() => scheduleWithGlobal(ctx));
  },
});

function scheduleWithGlobal(ctx: RuleContext<MegatronModel>): void {
  const m = ctx.model;
  const schedule = m.args.get('step_batch_size_schedule');
  const global = m.args.get('global_batch_size');
  if (!schedule || schedule.value === undefined || schedule.value === null || !global || global.value === undefined || global.value === null) return;
  // megatron/training/arguments.py (validate_args) from core_v0.18.0 on.
  if (!ctx.atLeast(SCHEDULE_CHECKED_SINCE)) return;
  ctx.report({
    at: schedule.path,
    related: [{ at: global.path, on: 'entry', message: 'the fixed global batch size is set here' }],
    message: `\`--step-batch-size-schedule\` and \`--global-batch-size ${String(global.value)}\` are both given: the schedule already sets the global batch size at every step, and Megatron-LM (from Megatron Core 0.18, where the schedule appeared) stops at startup when both are given. Remove \`--global-batch-size\` (the schedule's first size applies from step 0), or drop the schedule to train at one fixed size.`,
  });
}
