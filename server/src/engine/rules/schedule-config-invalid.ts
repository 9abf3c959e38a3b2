/**
 * schedule-config-invalid: training-length and learning-rate schedule arguments that Megatron-LM
 * rejects together: iteration-based and sample-based settings mixed, or a warmup given twice; and
 * Megatron Bridge's own checks of the same settings in an override file (schedule-bridge-checks.ts).
 */
import { argGiven, argNum, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { flag } from '../formats/megatron/args';
import { runChecks, type ArgCheck } from '../formats/megatron/checks';
import { defineRule } from './rule';
import { BRIDGE_SCHEDULE_CHECKS } from './schedule-bridge-checks';

/** A count known to be above zero (upstream's `if args.train_iters:` and `!= 0` tests). */
const positive = (m: MegatronModel, dest: string): boolean => (argNum(m, dest) ?? 0) > 0;

const byIterations = (m: MegatronModel) => positive(m, 'train_iters');
const bySamples = (m: MegatronModel) => positive(m, 'train_samples');

/**
 * megatron/training/arguments.py (megatron/arguments.py before 0.7), validate_args, at every release
 * from core_r0.4.0 to HEAD: under `if args.train_iters:` the sample-based settings must be unset
 * (lr_warmup_samples 0), under `if args.train_samples:` the iteration-based ones, and a warmup
 * fraction excludes the warmup count of the same kind. From Megatron Core 0.17.0 these checks
 * are skipped with `--skip-train`; before, they run with it too.
 */
const CHECKS: ArgCheck[] = [
  {
    when: (m) => (byIterations(m) && argGiven(m, 'train_samples') ? 'train_samples' : undefined),
    message: (m) => `\`--train-iters ${String(m.args.get('train_iters')?.value)}\` and \`--train-samples\` are both given: Megatron-LM trains either by iterations or by samples and stops at startup when both are set ("expected iteration-based training"). Keep one.`,
  },
  {
    when: (m) => (byIterations(m) && !argGiven(m, 'train_samples') && argGiven(m, 'lr_decay_samples') ? 'lr_decay_samples' : undefined),
    message: () => '`--lr-decay-samples` with iteration-based training (`--train-iters`): Megatron-LM stops at startup ("expected iteration-based learning rate decay"). Use `--lr-decay-iters`, or train by samples with `--train-samples`.',
  },
  {
    when: (m) => (byIterations(m) && !argGiven(m, 'train_samples') && positive(m, 'lr_warmup_samples') ? 'lr_warmup_samples' : undefined),
    message: () => '`--lr-warmup-samples` with iteration-based training (`--train-iters`): Megatron-LM stops at startup ("expected iteration-based learning rate warmup"). Use `--lr-warmup-iters` or `--lr-warmup-fraction`.',
  },
  {
    when: (m) => (bySamples(m) && !argGiven(m, 'train_iters') && argGiven(m, 'lr_decay_iters') ? 'lr_decay_iters' : undefined),
    message: () => '`--lr-decay-iters` with sample-based training (`--train-samples`): Megatron-LM stops at startup ("expected sample-based learning rate decay"). Use `--lr-decay-samples`, or train by iterations with `--train-iters`.',
  },
  {
    when: (m) => (bySamples(m) && !argGiven(m, 'train_iters') && positive(m, 'lr_warmup_iters') ? 'lr_warmup_iters' : undefined),
    message: () => '`--lr-warmup-iters` with sample-based training (`--train-samples`): Megatron-LM stops at startup ("expected sample-based learnig rate warmup"). Use `--lr-warmup-samples` or `--lr-warmup-fraction`.',
  },
  {
    when: (m) => (byIterations(m) && !argGiven(m, 'train_samples') && argGiven(m, 'lr_warmup_fraction') && positive(m, 'lr_warmup_iters') ? 'lr_warmup_fraction' : undefined),
    message: () => '`--lr-warmup-fraction` and `--lr-warmup-iters` both set the warmup: Megatron-LM stops at startup ("can only specify one of lr-warmup-fraction and lr-warmup-iters"). Keep one.',
  },
  {
    when: (m) => (bySamples(m) && !argGiven(m, 'train_iters') && argGiven(m, 'lr_warmup_fraction') && positive(m, 'lr_warmup_samples') ? 'lr_warmup_fraction' : undefined),
    message: () => '`--lr-warmup-fraction` and `--lr-warmup-samples` both set the warmup: Megatron-LM stops at startup ("can only specify one of lr-warmup-fraction and lr-warmup-samples"). Keep one.',
  },
];

export default defineRule<MegatronModel>({
  id: 'schedule-config-invalid',
  severity: 'error',
  formats: [...MLM_FLAG_FORMATS, 'megatron-bridge'],
  docs: {
    summary: 'Training-length and learning-rate schedule settings that Megatron-LM or Megatron Bridge rejects together (iteration-based and sample-based settings mixed, the warmup given twice, or a weight-decay ramp that shrinks).',
    why: 'Megatron-LM counts training either in iterations (`--train-iters`, with `--lr-decay-iters` and `--lr-warmup-iters`) or in samples (`--train-samples`, with `--lr-decay-samples` and `--lr-warmup-samples`), and a warmup either as a count or as `--lr-warmup-fraction`. Its argument checks stop at startup when the two kinds are mixed, at every release (from Megatron Core 0.17 not when `--skip-train` leaves training out; before, also then); a script converted from one kind to the other often keeps one setting of the old kind. Megatron Bridge makes checks of its own when it validates an override file\'s config, at every release: `scheduler.override_opt_param_scheduler` beside `scheduler.use_checkpoint_opt_param_scheduler`, and a negative `start_weight_decay` or an `end_weight_decay` below it; from Bridge 0.2 (Megatron Core 0.15) also iteration-based and sample-based `scheduler` fields mixed, `lr_warmup_fraction` beside a warmup count, `train.train_iters` beside `train.train_samples`, a scheduler field of the other kind than the one `train` counts in, and a batch ramp-up or a count of 0 with `train_samples`. Only what the file writes is judged: a field it leaves out is the recipe\'s. NeMo configures the scheduler itself and is not judged.',
    bad: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --train-samples: 1000000\n  --lr-decay-iters: 40000\n  --lr-warmup-samples: 10000\n',
    good: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --train-samples: 1000000\n  --lr-decay-samples: 900000\n  --lr-warmup-samples: 10000\n',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64 \\\n    --train-iters 50000 --lr-decay-iters 50000 --lr-warmup-fraction 0.01 --lr-warmup-iters 2000\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64 \\\n    --train-iters 50000 --lr-decay-iters 50000 --lr-warmup-fraction 0.01\n',
    },
    upstream: [
      { label: 'Megatron Bridge v0.6.0, `training/config.py`: SchedulerConfig.finalize, TrainingConfig.finalize and the training/scheduler cross-check', url: 'https://github.com/NVIDIA-NeMo/Megatron-Bridge/blob/v0.6.0/src/megatron/bridge/training/config.py' },
      { label: 'Megatron-LM core_v0.15.0, `validate_args`: iteration-based and sample-based training settings are exclusive', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.15.0/megatron/training/arguments.py#L781-L810' },
    ],
  },
  check(ctx) {
    if (ctx.format === 'megatron-bridge') {
      runChecks(ctx, BRIDGE_SCHEDULE_CHECKS);
      return;
    }
    const m = ctx.model;
    // From Megatron Core 0.17.0 the schedule checks are skipped when nothing is trained
    // (arguments.py@core_v0.17.0:1041-1058); earlier releases make them with `--skip-train` too.
    const skip = m.args.get('skip_train');
    if (skip && (skip.unknown || flag(skip) !== false) && ctx.atLeast('0.17.0')) return;
    runChecks(ctx, CHECKS);
  },
});
