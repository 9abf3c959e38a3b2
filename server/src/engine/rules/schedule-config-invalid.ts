/**
 * schedule-config-invalid: training-length, learning-rate and weight-decay schedule arguments that
 * Megatron-LM rejects together: iteration-based and sample-based settings mixed, a warmup given
 * twice, a minimum learning rate above the learning rate, or weight-decay ends that do not fit the style.
 */
import { argAbsent, argGiven, argNum, argValue, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { flag } from '../formats/megatron/args';
import { runChecks, type ArgCheck } from '../formats/megatron/checks';
import { defineRule } from './rule';

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

/** A number as written (argparse `type=float`), when known. */
function real(m: MegatronModel, dest: string): number | undefined {
  const v = argValue(m, dest);
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

/** `--weight-decay-incr-style` as written, or its default (`constant`, every release) when left out. */
function wdStyle(m: MegatronModel): string | undefined {
  if (argAbsent(m, 'weight_decay_incr_style')) return 'constant';
  const v = argValue(m, 'weight_decay_incr_style');
  return typeof v === 'string' ? v : undefined;
}

/**
 * The same validate_args, outside the training-length checks (so made with `--skip-train` too), at
 * every release from core_r0.4.0 to HEAD (megatron/arguments.py@core_v0.4.0:281-296,
 * training/arguments.py@d98e8a6:1359-1400): the minimum learning rate may not exceed `--lr`; a constant
 * weight decay takes no start and end values, a rising one needs both.
 */
const LR_WD_CHECKS: ArgCheck[] = [
  {
    when: (m) => {
      const lr = real(m, 'lr');
      const min = real(m, 'min_lr');
      return lr !== undefined && min !== undefined && min > lr ? 'min_lr' : undefined;
    },
    message: (m) => `\`--min-lr ${String(argValue(m, 'min_lr'))}\` is above \`--lr ${String(argValue(m, 'lr'))}\`: the schedule decays from the learning rate down to the minimum, and Megatron-LM stops at startup (an assertion that the minimum is at most the learning rate). Lower \`--min-lr\` (often a tenth of \`--lr\`), or raise \`--lr\`.`,
  },
  ...(['start_weight_decay', 'end_weight_decay'] as const).map((dest): ArgCheck => ({
    when: (m) => (wdStyle(m) === 'constant' && argGiven(m, dest) ? dest : undefined),
    message: (m) => `\`--${dest.replace(/_/g, '-')}\` with a constant weight decay (\`--weight-decay-incr-style\` ${argAbsent(m, 'weight_decay_incr_style') ? 'left at its default, `constant`' : '`constant`'}): a constant decay is \`--weight-decay\` throughout, and Megatron-LM stops at startup (it asserts that no start or end value is given). Remove \`--start-weight-decay\` and \`--end-weight-decay\` and set \`--weight-decay\`, or make the decay change with \`--weight-decay-incr-style linear\` or \`cosine\`.`,
  })),
  ...(['start_weight_decay', 'end_weight_decay'] as const).map((dest): ArgCheck => ({
    when: (m) => {
      const style = wdStyle(m);
      return (style === 'linear' || style === 'cosine') && argAbsent(m, dest) ? 'weight_decay_incr_style' : undefined;
    },
    message: (m) => `\`--weight-decay-incr-style ${wdStyle(m)}\` without \`--${dest.replace(/_/g, '-')}\`: a changing weight decay goes from \`--start-weight-decay\` to \`--end-weight-decay\`, and Megatron-LM stops at startup (it asserts that both are given). Add \`--${dest.replace(/_/g, '-')}\`, or keep the decay constant.`,
  })),
];

export default defineRule<MegatronModel>({
  id: 'schedule-config-invalid',
  severity: 'error',
  formats: MLM_FLAG_FORMATS,
  docs: {
    summary: 'Training-length, learning-rate and weight-decay schedule arguments that Megatron-LM rejects together (iteration-based and sample-based settings mixed, the warmup given twice, a minimum learning rate above `--lr`, or start and end weight decays that do not match the decay style).',
    why: 'Megatron-LM counts training either in iterations (`--train-iters`, with `--lr-decay-iters` and `--lr-warmup-iters`) or in samples (`--train-samples`, with `--lr-decay-samples` and `--lr-warmup-samples`), and a warmup either as a count or as `--lr-warmup-fraction`. Its argument checks stop at startup when the two kinds are mixed, at every release (from Megatron Core 0.17 not when `--skip-train` leaves training out; before, also then); a script converted from one kind to the other often keeps one setting of the old kind. At every release they also stop on a `--min-lr` above `--lr`, on `--start-weight-decay` or `--end-weight-decay` with a constant weight decay (the default `--weight-decay-incr-style`), and on a `linear` or `cosine` style without both of them. Megatron Bridge and NeMo configure the scheduler themselves and are not judged.',
    bad: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --train-samples: 1000000\n  --lr-decay-iters: 40000\n  --lr-warmup-samples: 10000\n',
    good: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --train-samples: 1000000\n  --lr-decay-samples: 900000\n  --lr-warmup-samples: 10000\n',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64 \\\n    --train-iters 50000 --lr-decay-iters 50000 --lr-warmup-fraction 0.01 --lr-warmup-iters 2000\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64 \\\n    --train-iters 50000 --lr-decay-iters 50000 --lr-warmup-fraction 0.01\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.15.0, `validate_args`: iteration-based and sample-based training settings are exclusive', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.15.0/megatron/training/arguments.py#L781-L810' },
    ],
  },
  check(ctx) {
    const m = ctx.model;
    // From Megatron Core 0.17.0 the schedule checks are skipped when nothing is trained
    // (arguments.py@core_v0.17.0:1041-1058); earlier releases make them with `--skip-train` too.
    runChecks(ctx, LR_WD_CHECKS);
    const skip = m.args.get('skip_train');
    if (skip && (skip.unknown || flag(skip) !== false) && ctx.atLeast('0.17.0')) return;
    runChecks(ctx, CHECKS);
  },
});
