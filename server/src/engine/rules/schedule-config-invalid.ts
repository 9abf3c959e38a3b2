/**
 * schedule-config-invalid: training-length, learning-rate and weight-decay schedule arguments that
 * Megatron-LM rejects together: iteration-based and sample-based settings mixed, a warmup given
 * twice, a minimum learning rate above the learning rate, or weight-decay ends that do not fit the
 * style, a memory-logging interval off the logging interval; and Megatron Bridge's own checks of the
 * same settings in an override file.
 */
import { argAbsent, argGiven, argNum, argReal, argOff, argOn, argValue, argWritten, bridgeField, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { untracked } from './certain';
import { flag } from '../formats/megatron/args';
import { PRETRAIN_ENTRY, runChecks, type ArgCheck } from '../formats/megatron/checks';
import { defineRule } from './rule';
import { YAML_CFG_SCHEDULE_CHECKS } from '../formats/megatron/yaml-cfg-checks';

/** A count known to be above zero (upstream's `if args.train_iters:` and `!= 0` tests). */
const positive = (m: MegatronModel, dest: string): boolean => (argNum(m, dest) ?? 0) > 0;

const byIterations = (m: MegatronModel) => positive(m, 'train_iters');
const bySamples = (m: MegatronModel) => positive(m, 'train_samples');
/**
 * The run's length, in one kind only (both kinds are refused at startup, CHECKS): `train_iters`, or
 * `train_samples`, which Megatron-LM turns into iterations before it builds the data (update_train_iters,
 * training.py@core_v0.16.0:1371-1376, @core_v0.19.0:1928), so both reach the same division.
 */
const lengthDest = (m: MegatronModel): 'train_iters' | 'train_samples' | undefined =>
  byIterations(m) && !argGiven(m, 'train_samples') ? 'train_iters' : bySamples(m) && !argGiven(m, 'train_iters') ? 'train_samples' : undefined;
const noEvalInterval = (m: MegatronModel) => lengthDest(m) !== undefined && argAbsent(m, 'eval_interval') && !argOn(m, 'skip_train') && !argOn(m, 'full_validation') && !argOn(m, 'perform_rl_step');
const NO_EVAL_INTERVAL = (m: MegatronModel): string => {
  const samples = lengthDest(m) === 'train_samples';
  const divides = samples ? '; Megatron-LM turns the samples into iterations, then divides them by the interval' : ', and Megatron-LM divides the iterations by it';
  return `${samples ? 'Sample-based training (`--train-samples`)' : 'Iteration-based training (`--train-iters`)'} without \`--eval-interval\`: from Megatron Core 0.16 the interval has no default (None)${divides} when it sizes the validation set, so the run stops with a TypeError before training (\`train_iters // eval_interval\`). Add \`--eval-interval\` (1000 was the default before 0.16).`;
};

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
    // megatron/arguments.py@core_v0.4.0:218-219 to training/arguments.py@core_v0.17.0:1051-1052; gone in
    // core_v0.18.0, where the ramp-up moves to the batch-size schedules.
    when: (m) => (byIterations(m) && !argGiven(m, 'train_samples') && argGiven(m, 'rampup_batch_size') ? 'rampup_batch_size' : undefined),
    message: () => '`--rampup-batch-size` with iteration-based training (`--train-iters`): the ramp-up is measured in samples, and before Megatron Core 0.18 Megatron-LM stops at startup ("expected no batch-size rampup for iteration-based training"). Train by samples (`--train-samples` with the sample-based schedule), or drop the ramp-up.',
    before: '0.18.0',
  },
  {
    // From 0.16.0 `--eval-interval` defaults to None (training_config.py@core_v0.16.0:98; 1000 before),
    // while the dataset sizing still divides the iterations by it unless training is skipped or
    // validation is full (training.py@core_v0.16.0:3300-3307, @core_v0.19.0:4479-4481, @d98e8a6:5436),
    // for sample-based training too, whose iterations are counted from the samples before (lengthDest);
    // RL runs size no datasets there.
    // Only where Megatron-LM's own training runs: a launch script's entry must be one of its
    // `pretrain_*.py` (another program, such as Megatron Bridge's examples, sizes its data itself).
    // Where the file names no entry script, the program that reads it is an assumption (`entry`).
    when: (m) => (noEvalInterval(m) ? lengthDest(m) : undefined),
    entry: PRETRAIN_ENTRY,
    formats: MLM_FLAG_FORMATS,
    since: '0.16.0',
    message: NO_EVAL_INTERVAL,
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

/**
 * Checks of the schedule and data-loader builders that Megatron-LM's `pretrain()` runs before the
 * first step (not validate_args): a launch script's entry must be one of its `pretrain_*.py`; a file
 * naming no entry script gets a warning that says so.
 */
const BUILDER_CHECKS: { when: (m: MegatronModel) => string | undefined; message: (m: MegatronModel) => string; since?: string }[] = [
  {
    // OptimizerParamScheduler.__init__, at every release (megatron/optimizer_param_scheduler.py@core_v0.4.0:46,
    // core/optimizer_param_scheduler.py@d98e8a6:175-178), built by get_optimizer_param_scheduler.
    when: (m) => (argOn(m, 'override_opt_param_scheduler') && argOn(m, 'use_checkpoint_opt_param_scheduler') ? 'use_checkpoint_opt_param_scheduler' : undefined),
    message: () => '`--override-opt-param-scheduler` and `--use-checkpoint-opt-param-scheduler` both choose where the scheduler settings come from (the command line, or the checkpoint), and Megatron-LM stops when it builds the learning-rate scheduler ("both override and use-checkpoint are set."). Keep one.',
  },
  {
    // training.py@core_v0.8.0:479-496, @d98e8a6:2562-2580: the WSD annealing length comes from
    // `--lr-wsd-decay-iters` (iteration-based) or `--lr-wsd-decay-samples` (sample-based), and
    // OptimizerParamScheduler asserts it is set for the WSD style (optimizer_param_scheduler.py@core_v0.8.0:40,
    // core/optimizer_param_scheduler.py@d98e8a6:163-164).
    when: (m) => {
      if (argValue(m, 'lr_decay_style') !== 'WSD') return undefined;
      if (byIterations(m) && argAbsent(m, 'train_samples') && argAbsent(m, 'lr_wsd_decay_iters')) return 'lr_decay_style';
      if (bySamples(m) && argAbsent(m, 'train_iters') && argAbsent(m, 'lr_wsd_decay_samples')) return 'lr_decay_style';
      return undefined;
    },
    message: (m) => (byIterations(m)
      ? '`--lr-decay-style WSD` without `--lr-wsd-decay-iters`: the length of the final annealing phase is not set, and Megatron-LM stops when it builds the learning-rate scheduler (an assertion that the WSD decay steps are given). Add `--lr-wsd-decay-iters` (e.g. a tenth of `--train-iters`).'
      : '`--lr-decay-style WSD` without `--lr-wsd-decay-samples`: with sample-based training the length of the final annealing phase is counted in samples and is not set, so Megatron-LM stops when it builds the learning-rate scheduler (an assertion that the WSD decay steps are given). Add `--lr-wsd-decay-samples`.'),
    since: '0.8.0',
  },
  {
    // training.py@core_v0.14.0:2631-2635, @d98e8a6:5527-5533 (build_train_valid_test_data_loaders): each
    // validation loader needs `--full-validation` (or `--skip-train`); RL steps build no loaders.
    when: (m) => (argOn(m, 'multiple_validation_sets') && argOff(m, 'full_validation') && argOff(m, 'skip_train') && argOff(m, 'perform_rl_step') ? 'multiple_validation_sets' : undefined),
    message: () => '`--multiple-validation-sets` without `--full-validation`: Megatron-LM stops when it builds the data loaders ("--multiple-validation-sets currently requires --full-validation"). Add `--full-validation`.',
    since: '0.14.0',
  },
];

const BUILDER_ARG_CHECKS: ArgCheck[] = BUILDER_CHECKS.map((c): ArgCheck => ({ when: c.when, message: c.message, entry: PRETRAIN_ENTRY, formats: MLM_FLAG_FORMATS, ...(c.since ? { since: c.since } : {}) }));

/**
 * Megatron Bridge's own checks of the training length and the learning-rate schedule, made when it
 * validates an override file's config (training/config.py): SchedulerConfig.finalize, TrainingConfig.finalize
 * and ConfigContainer._validate_training_scheduler_compatibility. Each fires only on values the file
 * writes: a field it leaves out is the recipe's.
 *
 * Releases: Bridge 0.1 (Megatron Core 0.14) has the weight-decay and override checks only; the
 * iteration/sample checks arrive in Bridge 0.2 (its pyproject pins Megatron Core 0.15), hence `since: '0.15.0'`.
 */
const BRIDGE = ['megatron-bridge'] as const;
const STOPS = 'Megatron Bridge stops when it validates the config';

const written = argWritten;
/** A count written and not 0 (upstream's `!= 0`). */
const nonzero = (m: MegatronModel, dest: string): boolean => written(m, dest) && argNum(m, dest) !== 0;
const firstOf = (m: MegatronModel, fields: [string, 'set' | 'nonzero'][]): string | undefined =>
  fields.find(([d, how]) => (how === 'set' ? written(m, d) : nonzero(m, d)))?.[0];

/** The first iteration-based scheduler field the file writes (SchedulerConfig.finalize's `has_iter_fields`). */
const iterField = (m: MegatronModel) => firstOf(m, [['lr_decay_iters', 'set'], ['lr_warmup_iters', 'nonzero'], ['lr_wsd_decay_iters', 'set']]);
/** The first sample-based one (`has_sample_fields`). */
const sampleField = (m: MegatronModel) => firstOf(m, [['lr_decay_samples', 'set'], ['lr_warmup_samples', 'nonzero'], ['lr_wsd_decay_samples', 'set']]);
const mixed = (m: MegatronModel): boolean => iterField(m) !== undefined && sampleField(m) !== undefined;

/** Training counted in samples: `train_samples` written, and `train_iters` not written with a value. */
const bridgeBySamples = (m: MegatronModel): boolean => written(m, 'train_samples') && !written(m, 'train_iters');
/** Training counted in iterations: `train_iters` written, and `train_samples` not written with a value. */
const bridgeByIters = (m: MegatronModel): boolean => written(m, 'train_iters') && !written(m, 'train_samples');
/**
 * The other length, when the file leaves it to the recipe: a recipe that sets it stops Bridge
 * earlier, on both lengths set (TrainingConfig.finalize), so the file is refused either way.
 */
function otherLength(m: MegatronModel, dest: 'train_iters' | 'train_samples'): string {
  const a = untracked(m.args).get(dest);
  return a === undefined ? ` (or earlier, on both lengths set, if the recipe sets \`train.${dest}\`: write \`train.${dest}: null\`)` : '';
}

const show = (m: MegatronModel, dest: string): string => String(argValue(m, dest));

const BRIDGE_SCHEDULE_CHECKS: ArgCheck[] = [
  {
    // SchedulerConfig.finalize (training/config.py@v0.2.0, @067f987:418-431).
    when: (m) => (mixed(m) ? sampleField(m) : undefined),
    formats: BRIDGE,
    since: '0.15.0',
    message: (m) => `\`scheduler.${iterField(m)}\` and \`scheduler.${sampleField(m)}\` mix an iteration-based and a sample-based schedule: ${STOPS} ("Cannot mix iteration-based and sample-based scheduler fields"). Keep the fields of the kind \`train\` counts in (\`train_iters\`: the \`*_iters\` ones; \`train_samples\`: the \`*_samples\` ones).`,
  },
  {
    // SchedulerConfig.finalize (training/config.py@v0.2.0, @067f987:433-438).
    when: (m) => (written(m, 'lr_warmup_fraction') && (nonzero(m, 'lr_warmup_iters') || nonzero(m, 'lr_warmup_samples')) ? 'lr_warmup_fraction' : undefined),
    formats: BRIDGE,
    since: '0.15.0',
    message: (m) => `\`scheduler.lr_warmup_fraction\` and \`scheduler.${nonzero(m, 'lr_warmup_iters') ? 'lr_warmup_iters' : 'lr_warmup_samples'}\` both set the warmup: ${STOPS} ("Cannot specify lr_warmup_fraction=… with lr_warmup_iters=… or lr_warmup_samples=…"). Keep one.`,
  },
  {
    // SchedulerConfig.finalize at every Bridge release (training/config.py@v0.1.0rc4:342-343, @067f987:415-416).
    when: (m) => (written(m, 'override_opt_param_scheduler') && written(m, 'use_checkpoint_opt_param_scheduler') && argOn(m, 'override_opt_param_scheduler') && argOn(m, 'use_checkpoint_opt_param_scheduler') ? 'use_checkpoint_opt_param_scheduler' : undefined),
    formats: BRIDGE,
    message: () => `\`scheduler.override_opt_param_scheduler\` (take the schedule from the config) and \`scheduler.use_checkpoint_opt_param_scheduler\` (take it from the checkpoint) are both on: ${STOPS} ("both override and use-checkpoint are set."). Keep one.`,
  },
  {
    // SchedulerConfig.finalize at every Bridge release (training/config.py@v0.1.0rc4:338-340, @067f987:411-413).
    when: (m) => (written(m, 'start_weight_decay') && (argNum(m, 'start_weight_decay') ?? 0) < 0 ? 'start_weight_decay' : undefined),
    formats: BRIDGE,
    message: (m) => `\`scheduler.start_weight_decay: ${show(m, 'start_weight_decay')}\` is negative: ${STOPS} ("start_weight_decay should be positive."). Use 0 or more.`,
  },
  {
    when: (m) => {
      const start = written(m, 'start_weight_decay') ? argNum(m, 'start_weight_decay') : undefined;
      const end = written(m, 'end_weight_decay') ? argNum(m, 'end_weight_decay') : undefined;
      return start !== undefined && start >= 0 && end !== undefined && end < start ? 'end_weight_decay' : undefined;
    },
    formats: BRIDGE,
    message: (m) => `\`scheduler.end_weight_decay: ${show(m, 'end_weight_decay')}\` is below \`scheduler.start_weight_decay: ${show(m, 'start_weight_decay')}\`: weight decay may only grow over the run, and ${STOPS} (a bare assertion, \`end_weight_decay >= start_weight_decay\`). Swap them, or give both the same value for a constant decay.`,
  },
  {
    // TrainingConfig.finalize (training/config.py@v0.2.0:103 to @v0.5.0; reworded @v0.6.0 for num_epochs).
    when: (m) => (written(m, 'train_iters') && written(m, 'train_samples') ? 'train_samples' : undefined),
    formats: BRIDGE,
    since: '0.15.0',
    before: '0.19.0',
    message: () => `\`train.train_iters\` and \`train.train_samples\` are both set: ${STOPS} ("Cannot specify both train_iters and train_samples"). Keep one.`,
  },
  {
    // TrainingConfig.finalize (training/config.py@v0.6.0, @067f987:481).
    when: (m) => (written(m, 'train_iters') && written(m, 'train_samples') ? 'train_samples' : undefined),
    formats: BRIDGE,
    since: '0.19.0',
    message: () => `\`train.train_iters\` and \`train.train_samples\` are both set: ${STOPS} ("Cannot specify more than one of train_iters, train_samples, or num_epochs"). Keep one.`,
  },
  {
    // TrainingConfig.finalize (training/config.py@v0.2.0:105, @067f987:487).
    when: (m) => (bridgeBySamples(m) && (argNum(m, 'train_samples') ?? 1) <= 0 ? 'train_samples' : undefined),
    formats: BRIDGE,
    since: '0.15.0',
    message: (m) => `\`train.train_samples: ${show(m, 'train_samples')}\` trains on no samples: ${STOPS} ("train_samples must be positive")${otherLength(m, 'train_iters')}. Give the number of samples to train on.`,
  },
  {
    // TrainingConfig.finalize (training/config.py@v0.2.0:106, @067f987:488).
    when: (m) => (bridgeBySamples(m) && written(m, 'rampup_batch_size') ? 'rampup_batch_size' : undefined),
    formats: BRIDGE,
    since: '0.15.0',
    message: (m) => `\`train.rampup_batch_size\` with sample-based training (\`train.train_samples\`): ${STOPS} ("Batch size rampup not supported with sample-based training yet")${otherLength(m, 'train_iters')}. Remove the ramp-up, or train by iterations with \`train.train_iters\`.`,
  },
  // ConfigContainer._validate_training_scheduler_compatibility (training/config.py@v0.2.0,
  // @067f987:1699-1728): the scheduler's kind must be the kind training counts in. A file that mixes
  // kinds inside `scheduler` is reported by the first check alone.
  {
    when: (m) => (bridgeBySamples(m) && !mixed(m) && written(m, 'lr_decay_iters') ? 'lr_decay_iters' : undefined),
    formats: BRIDGE,
    since: '0.15.0',
    message: (m) => `\`scheduler.lr_decay_iters\` with sample-based training (\`train.train_samples\`): ${STOPS} ("Use lr_decay_samples for sample-based training, not lr_decay_iters")${otherLength(m, 'train_iters')}. Use \`scheduler.lr_decay_samples\`.`,
  },
  {
    when: (m) => (bridgeBySamples(m) && !mixed(m) && nonzero(m, 'lr_warmup_iters') ? 'lr_warmup_iters' : undefined),
    formats: BRIDGE,
    since: '0.15.0',
    message: (m) => `\`scheduler.lr_warmup_iters\` with sample-based training (\`train.train_samples\`): ${STOPS} ("Use lr_warmup_samples for sample-based training, not lr_warmup_iters")${otherLength(m, 'train_iters')}. Use \`scheduler.lr_warmup_samples\` or \`scheduler.lr_warmup_fraction\`.`,
  },
  {
    // Iteration-based: train_iters written; a recipe's train_samples beside it stops TrainingConfig first.
    when: (m) => (bridgeByIters(m) && !mixed(m) && written(m, 'lr_decay_samples') ? 'lr_decay_samples' : undefined),
    formats: BRIDGE,
    since: '0.15.0',
    message: (m) => `\`scheduler.lr_decay_samples\` with iteration-based training (\`train.train_iters\`): ${STOPS} ("Use lr_decay_iters for iteration-based training, not lr_decay_samples")${otherLength(m, 'train_samples')}. Use \`scheduler.lr_decay_iters\`.`,
  },
  {
    when: (m) => (bridgeByIters(m) && !mixed(m) && nonzero(m, 'lr_warmup_samples') ? 'lr_warmup_samples' : undefined),
    formats: BRIDGE,
    since: '0.15.0',
    message: (m) => `\`scheduler.lr_warmup_samples\` with iteration-based training (\`train.train_iters\`): ${STOPS} ("Use lr_warmup_iters for iteration-based training, not lr_warmup_samples")${otherLength(m, 'train_samples')}. Use \`scheduler.lr_warmup_iters\` or \`scheduler.lr_warmup_fraction\`.`,
  },
];

/**
 * Megatron Bridge's own run-length fields (no Megatron-LM argument: Bridge fields, by dotted path),
 * checked from Bridge 0.6 (Megatron Core 0.19) when it validates the config (training/config.py@v0.6.0):
 * `train.num_epochs` beside another length (:478-482), not positive or with a batch ramp-up (:483-485), or
 * with a data loader other than `batch` (:1146-1147);
 * `scheduler.max_steps` not positive (SchedulerConfig.finalize, :407-408), with sample-based training
 * (:1561-1564), or below `train.train_iters` (_calculate_scheduler_steps, run when train_iters is set, :1622-1628).
 * Each field's refusals are reported one at a time, the first Bridge meets.
 */
const bridgeWritten = (m: MegatronModel, dotted: string): { n: number | undefined } | undefined => {
  const v = bridgeField(m, dotted)?.value;
  return v === undefined || v === null ? undefined : { n: typeof v === 'number' && Number.isFinite(v) ? v : undefined };
};
const epochsOf = (m: MegatronModel) => bridgeWritten(m, 'train.num_epochs');
const otherThanEpochs = (m: MegatronModel) => (written(m, 'train_iters') ? 'train_iters' : written(m, 'train_samples') ? 'train_samples' : undefined);
const loader = (m: MegatronModel): string | undefined => {
  const v = written(m, 'dataloader_type') ? argValue(m, 'dataloader_type') : undefined;
  return typeof v === 'string' && v !== 'batch' ? v : undefined;
};
/** The first refusal of `train.num_epochs`. */
function epochsRefused(m: MegatronModel): 'other' | 'count' | 'loader' | 'rampup' | undefined {
  const epochs = epochsOf(m);
  if (!epochs) return undefined;
  if (otherThanEpochs(m)) return 'other';
  if (epochs.n !== undefined && epochs.n <= 0) return 'count';
  if (loader(m)) return 'loader';
  return epochs.n !== undefined && written(m, 'rampup_batch_size') ? 'rampup' : undefined;
}
/** The first refusal of `scheduler.max_steps` (a number written). */
function maxStepsRefused(m: MegatronModel): 'count' | 'samples' | 'iters' | undefined {
  const steps = bridgeWritten(m, 'scheduler.max_steps')?.n;
  if (steps === undefined) return undefined;
  if (steps <= 0) return 'count';
  if (epochsOf(m)) return undefined;
  if (bridgeBySamples(m)) return 'samples';
  const iters = bridgeByIters(m) ? argNum(m, 'train_iters') : undefined;
  return iters !== undefined && steps < iters ? 'iters' : undefined;
}
const epochsShown = (m: MegatronModel): string => String(bridgeField(m, 'train.num_epochs')?.value);
const stepsShown = (m: MegatronModel): string => String(bridgeField(m, 'scheduler.max_steps')?.value);
const RUN_LENGTH = { formats: BRIDGE, since: '0.19.0' } as const;

const BRIDGE_RUN_LENGTH_CHECKS: ArgCheck[] = [
  {
    ...RUN_LENGTH,
    when: (m) => (epochsRefused(m) === 'other' ? 'train.num_epochs' : undefined),
    message: (m) => `\`train.num_epochs\` with \`train.${otherThanEpochs(m)}\`: ${STOPS} ("Cannot specify more than one of train_iters, train_samples, or num_epochs"). Keep one.`,
  },
  {
    ...RUN_LENGTH,
    when: (m) => (epochsRefused(m) === 'count' ? 'train.num_epochs' : undefined),
    message: (m) => `\`train.num_epochs: ${epochsShown(m)}\` trains for no epoch: ${STOPS} ("num_epochs must be a positive number"). Give the number of epochs.`,
  },
  {
    ...RUN_LENGTH,
    when: (m) => (epochsRefused(m) === 'loader' ? 'train.num_epochs' : undefined),
    message: (m) => `\`train.num_epochs\` with \`dataset.dataloader_type: ${loader(m)}\`: ${STOPS} ('num_epochs is currently supported only with dataloader_type="batch"'). Use \`dataset.dataloader_type: batch\`, or train by iterations with \`train.train_iters\`.`,
  },
  {
    ...RUN_LENGTH,
    when: (m) => (epochsRefused(m) === 'rampup' ? 'rampup_batch_size' : undefined),
    message: () => `\`train.rampup_batch_size\` with epoch-based training (\`train.num_epochs\`): ${STOPS} ("Batch size rampup not supported with epoch-based training"). Remove the ramp-up, or train by iterations with \`train.train_iters\`.`,
  },
  {
    ...RUN_LENGTH,
    when: (m) => (maxStepsRefused(m) === 'count' ? 'scheduler.max_steps' : undefined),
    message: (m) => `\`scheduler.max_steps: ${stepsShown(m)}\` is not above zero: it is the length of the full run the schedules are shaped for, and ${STOPS} ("scheduler.max_steps must be positive"). Give the full run's iterations (at least \`train.train_iters\`), or remove it.`,
  },
  {
    ...RUN_LENGTH,
    when: (m) => (maxStepsRefused(m) === 'samples' ? 'scheduler.max_steps' : undefined),
    message: (m) => `\`scheduler.max_steps\` with sample-based training (\`train.train_samples\`): it stretches an iteration-based schedule, and ${STOPS} ("scheduler.max_steps is only supported for iteration-based training")${otherLength(m, 'train_iters')}. Remove it, or train by iterations with \`train.train_iters\`.`,
  },
  {
    ...RUN_LENGTH,
    when: (m) => (maxStepsRefused(m) === 'iters' ? 'scheduler.max_steps' : undefined),
    message: (m) => {
      const iters = argNum(m, 'train_iters');
      return `\`scheduler.max_steps: ${stepsShown(m)}\` is below \`train.train_iters: ${iters}\`: it is the length of the full run whose first iterations this one trains, and ${STOPS} ("scheduler.max_steps (${stepsShown(m)}) must be greater than or equal to train.train_iters (${iters})"). Raise it to at least ${iters}, or remove it.`;
    },
  },
];

/**
 * `--manual-gc` with a negative `--manual-gc-interval`: train() asserts the interval is at least 0
 * before its first step, at every release (megatron/training.py@core_v0.4.0:737-738,
 * training/training.py@d98e8a6:4405-4407), so not with `--skip-train`, which never calls it; it
 * reads the file's values in a `--yaml-cfg` run too. Megatron Bridge's train loop makes the same
 * check at every release (training/train.py@v0.1.0a0, @v0.6.0:211-213), on the values an override
 * file writes.
 */
const negativeGcInterval = (m: MegatronModel): boolean => argOn(m, 'manual_gc') && (argNum(m, 'manual_gc_interval') ?? 0) < 0;
const GC_MESSAGE = (m: MegatronModel, who: string): string =>
  `\`--manual-gc\` with \`--manual-gc-interval ${show(m, 'manual_gc_interval')}\`: the interval is the number of iterations between collections (0 turns the periodic collection off), and ${who} stops as training starts ("Manual garbage collection interval should be larger than or equal to 0"). Give 0 or a positive interval.`;
const GC_CHECKS: ArgCheck[] = [
  {
    when: (m) => (negativeGcInterval(m) && argOff(m, 'skip_train') ? 'manual_gc_interval' : undefined),
    formats: MLM_FLAG_FORMATS,
    yamlCfg: true,
    message: (m) => GC_MESSAGE(m, 'Megatron-LM'),
  },
  {
    // post_training_step_callbacks tests `iteration % args.gpu_sniff_test_interval` after every step
    // once the interval is given (training.py@core_v0.18.0:2938-2942, @d98e8a6:4020-4025): 0 divides by zero.
    when: (m) => (argGiven(m, 'gpu_sniff_test_interval') && argNum(m, 'gpu_sniff_test_interval') === 0 && argOff(m, 'skip_train') ? 'gpu_sniff_test_interval' : undefined),
    formats: MLM_FLAG_FORMATS,
    yamlCfg: true,
    since: '0.18.0',
    message: () => '`--gpu-sniff-test-interval 0`: after the first training step Megatron-LM takes the iteration modulo the interval to decide whether to run the sniff test, and stops with a ZeroDivisionError. Give a positive interval, or leave it out (no sniff tests).',
  },
  {
    // A recipe is a training recipe: only an override that writes `skip_train` on leaves train() out.
    when: (m) => (negativeGcInterval(m) && argWritten(m, 'manual_gc_interval') && flag(untracked(m.args).get('skip_train')) !== true ? 'manual_gc_interval' : undefined),
    formats: BRIDGE,
    message: (m) => GC_MESSAGE(m, 'Megatron Bridge'),
  },
];

/** `--weight-decay-incr-style` as written, or its default (`constant`, every release) when left out. */
function wdStyle(m: MegatronModel): string | undefined {
  if (argAbsent(m, 'weight_decay_incr_style')) return 'constant';
  const v = argValue(m, 'weight_decay_incr_style');
  return typeof v === 'string' ? v : undefined;
}

/** A separate learning rate for the embedding and output layer, written (`--decoupled-lr` or `--decoupled-min-lr`). */
const decoupledDest = (m: MegatronModel): string | undefined =>
  argGiven(m, 'decoupled_lr') ? 'decoupled_lr' : argGiven(m, 'decoupled_min_lr') ? 'decoupled_min_lr' : undefined;
const decoupledFlag = (m: MegatronModel) => `\`--${(decoupledDest(m) ?? 'decoupled_lr').replace(/_/g, '-')}\``;

/**
 * The decoupled learning rate is Megatron Core's alone: validate_args refuses it without
 * `--use-mcore-models` while the legacy model is the default (training/arguments.py@core_v0.6.0:477-479,
 * @core_v0.7.0 the same), then with `--use-legacy-models` (@core_v0.8.0:505-507 … @core_v0.17.0:1271-1273;
 * 0.18 removes the legacy model), and in 0.8 alone with `--use-dist-ckpt` (@core_v0.8.0:508).
 */
const DECOUPLED_CHECKS: ArgCheck[] = [
  {
    when: (m) => (decoupledDest(m) && argOff(m, 'deprecated_use_mcore_models') ? decoupledDest(m) : undefined),
    message: (m) => `${decoupledFlag(m)} without \`--use-mcore-models\`: before Megatron Core 0.8 the legacy model is the default, and only Megatron Core's model has a separate learning rate for the embedding and output layer, so Megatron-LM stops at startup ("--decoupled-lr and --decoupled-min-lr only supported by Megatron Core, please add --use-mcore-models."). Add \`--use-mcore-models\`, or drop ${decoupledFlag(m)}.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.6.0',
    before: '0.8.0',
  },
  {
    when: (m) => (decoupledDest(m) && argOn(m, 'use_legacy_models') ? 'use_legacy_models' : undefined),
    message: (m) => `${decoupledFlag(m)} with \`--use-legacy-models\`: only Megatron Core's model has a separate learning rate for the embedding and output layer, and Megatron-LM stops at startup ("--decoupled-lr and --decoupled-min-lr is not supported in legacy models."). Drop \`--use-legacy-models\`, or ${decoupledFlag(m)}.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.8.0',
    before: '0.18.0',
  },
  {
    when: (m) => (decoupledDest(m) && argOn(m, 'use_dist_ckpt_deprecated') ? 'use_dist_ckpt_deprecated' : undefined),
    message: (m) => `${decoupledFlag(m)} with \`--use-dist-ckpt\`: Megatron Core 0.8 cannot save the decoupled learning rate in a distributed checkpoint, and Megatron-LM stops at startup ("Distributed checkpointing does not work with decoupled LR yet."). Drop \`--use-dist-ckpt\`, or use Megatron Core 0.9 or later (where the switch is ignored and \`--ckpt-format\` decides).`,
    formats: MLM_FLAG_FORMATS,
    since: '0.8.0',
    before: '0.9.0',
  },
];

/**
 * The same validate_args, outside the training-length checks (so made with `--skip-train` too), at
 * every release from core_r0.4.0 to HEAD (megatron/arguments.py@core_v0.4.0:281-296,
 * training/arguments.py@d98e8a6:1359-1400): the minimum learning rate may not exceed `--lr`; a constant
 * weight decay takes no start and end values, a rising one needs both.
 */
/** The memory-logging interval when it is known not to be a multiple of the logging interval (100 by default). */
function memoryLogOff(m: MegatronModel): { every: number; log: number } | undefined {
  const v = argValue(m, 'log_memory_interval');
  const every = typeof v === 'number' ? v : typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : undefined;
  const log = argAbsent(m, 'log_interval') ? 100 : argNum(m, 'log_interval');
  if (every === undefined || !log) return undefined;
  return ((every % log) + log) % log !== 0 ? { every, log } : undefined;
}

/** training/arguments.py@core_v0.16.0:843-844, @d98e8a6:1369-1370: memory is reported with the log lines. */
const LOG_CHECKS: ArgCheck[] = [
  {
    when: (m) => (memoryLogOff(m) ? 'log_memory_interval' : undefined),
    message: (m) => `\`--log-memory-interval ${memoryLogOff(m)!.every}\` is not a multiple of \`--log-interval\` (${memoryLogOff(m)!.log}${argAbsent(m, 'log_interval') ? ', the default' : ''}): memory is reported on the iterations that log, and Megatron-LM stops at startup (it asserts \`log_memory_interval % log_interval == 0\`). Use a multiple of the logging interval.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.16.0',
  },
];

const LR_WD_CHECKS: ArgCheck[] = [
  {
    // training.py@core_v0.16.0 and @d98e8a6:5444-5449: the phase boundaries end at `args.train_samples`,
    // which is None when training is counted in iterations, and comparing it fails (a TypeError) when
    // the data loaders are built.
    when: (m) => (argGiven(m, 'phase_transition_iterations') && positive(m, 'train_iters') && argAbsent(m, 'train_samples') ? 'phase_transition_iterations' : undefined),
    message: () => '`--phase-transition-iterations` with `--train-iters`: the phases are measured in samples up to `--train-samples`, which is not set when training counts iterations, and Megatron-LM stops with a TypeError when it builds the data loaders. Count training in samples (`--train-samples` with the sample-based schedule), or drop the phases.',
    formats: MLM_FLAG_FORMATS,
    since: '0.16.0',
  },
  {
    // training/arguments.py@core_v0.16.0:488-492, @core_v0.17.0:556-560 (before the training-length
    // checks, so with `--skip-train` too); gone in core_v0.18.0.
    when: (m) => (argGiven(m, 'phase_transition_iterations') && argGiven(m, 'rampup_batch_size') ? 'rampup_batch_size' : undefined),
    message: () => '`--rampup-batch-size` with `--phase-transition-iterations`: the phases are counted from a fixed global batch size, and Megatron-LM stops at startup ("multi-phase training does not support batch size ramp-up"). Drop the ramp-up, or the phases.',
    formats: MLM_FLAG_FORMATS,
    since: '0.16.0',
    before: '0.18.0',
  },
  {
    when: (m) => {
      const lr = argReal(m, 'lr');
      const min = argReal(m, 'min_lr');
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
  ...DECOUPLED_CHECKS,
];

export default defineRule<MegatronModel>({
  id: 'schedule-config-invalid',
  severity: 'error',
  formats: [...MLM_FLAG_FORMATS, 'megatron-bridge'],
  docs: {
    summary: 'Training-length, learning-rate and weight-decay schedule settings that Megatron-LM or Megatron Bridge rejects together (iteration-based and sample-based settings mixed, a batch-size ramp-up with iteration-based training or training phases (before Megatron Core 0.18), the warmup given twice, a minimum learning rate above `--lr`, a decoupled learning rate without Megatron Core\'s model, start and end weight decays that do not match the decay style, or a weight-decay ramp that shrinks, a memory-logging interval off the logging interval, both scheduler sources chosen, a Bridge epoch count or `scheduler.max_steps` its validation refuses, a WSD schedule without its annealing length, several validation sets without full validation, `--manual-gc` with a negative `--manual-gc-interval`, or `--gpu-sniff-test-interval 0`).',
    why: 'Megatron-LM counts training either in iterations (`--train-iters`, with `--lr-decay-iters` and `--lr-warmup-iters`) or in samples (`--train-samples`, with `--lr-decay-samples` and `--lr-warmup-samples`), and a warmup either as a count or as `--lr-warmup-fraction`. Its argument checks stop at startup when the two kinds are mixed, at every release (from Megatron Core 0.17 not when `--skip-train` leaves training out; before, also then), and before 0.18 also on `--rampup-batch-size` with `--train-iters` (the ramp-up is counted in samples); a script converted from one kind to the other often keeps one setting of the old kind. Megatron Bridge makes checks of its own when it validates an override file\'s config, at every release: `scheduler.override_opt_param_scheduler` beside `scheduler.use_checkpoint_opt_param_scheduler`, and a negative `start_weight_decay` or an `end_weight_decay` below it; from Bridge 0.2 (Megatron Core 0.15) also iteration-based and sample-based `scheduler` fields mixed, `lr_warmup_fraction` beside a warmup count, `train.train_iters` beside `train.train_samples`, a scheduler field of the other kind than the one `train` counts in, and a batch ramp-up or a count of 0 with `train_samples`. From Bridge 0.6 (Megatron Core 0.19) also `train.num_epochs` beside another length, not above 0, with a batch ramp-up or with a `dataset.dataloader_type` other than `batch`, and `scheduler.max_steps` not above 0, with `train_samples`, or below `train.train_iters`. Only what the file writes is judged: a field it leaves out is the recipe\'s. NeMo configures the scheduler itself and is not judged. From Megatron Core 0.16 `--phase-transition-iterations` with `--train-iters` stops when the data loaders are built (the phases end at `--train-samples`, unset there), and in 0.16 and 0.17 Megatron-LM\'s argument checks refuse it with `--rampup-batch-size`. Megatron-LM\'s argument checks also stop, at every release, on a `--min-lr` above `--lr`, on `--start-weight-decay` or `--end-weight-decay` with a constant weight decay (the default `--weight-decay-incr-style`), and on a `linear` or `cosine` style without both of them. Before 0.18 the `--yaml-cfg` reader also refuses a batch-size ramp-up with iteration-based training. From 0.16 `--eval-interval` has no default, and Megatron-LM divides the training iterations by it when it sizes the validation set (unless `--skip-train` or `--full-validation`): training without it stops with a TypeError before the first step, whether it is counted in iterations (`--train-iters`) or in samples (`--train-samples`, which Megatron-LM turns into iterations first). From 0.16 `--log-memory-interval` must also be a multiple of `--log-interval` (100 by default), or the argument checks stop at startup. The separate learning rate of the embedding and output layer (`--decoupled-lr`, `--decoupled-min-lr`) is Megatron Core\'s alone: Megatron-LM refuses it at startup without `--use-mcore-models` in 0.6 and 0.7, with `--use-legacy-models` from 0.8 to 0.17, and in 0.8 beside `--use-dist-ckpt`. When a Megatron-LM `pretrain_*.py` builds the learning-rate scheduler it stops, at every release, on `--override-opt-param-scheduler` beside `--use-checkpoint-opt-param-scheduler`, and from 0.8 on `--lr-decay-style WSD` without the annealing length of the kind training counts in (`--lr-wsd-decay-iters` with `--train-iters`, `--lr-wsd-decay-samples` with `--train-samples`); from 0.14 it stops when it builds the data loaders on `--multiple-validation-sets` without `--full-validation` (unless `--skip-train`). A file that names no entry script gets these as warnings that say what they assume. With `--manual-gc`, training itself (Megatron-LM\'s and Megatron Bridge\'s train loop, at every release) refuses a negative `--manual-gc-interval` as it starts, after start-up and data loading; with `--skip-train` it is never reached. From Megatron Core 0.18, `--gpu-sniff-test-interval 0` stops Megatron-LM after the first training step (it divides the iteration by the interval).',
    bad: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --train-samples: 1000000\n  --eval-interval: 1000\n  --lr-decay-iters: 40000\n  --lr-warmup-samples: 10000\n',
    good: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --train-samples: 1000000\n  --eval-interval: 1000\n  --lr-decay-samples: 900000\n  --lr-warmup-samples: 10000\n',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64 \\\n    --train-iters 50000 --eval-interval 1000 --lr-decay-iters 50000 --lr-warmup-fraction 0.01 --lr-warmup-iters 2000\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64 \\\n    --train-iters 50000 --eval-interval 1000 --lr-decay-iters 50000 --lr-warmup-fraction 0.01\n',
    },
    upstream: [
      { label: 'Megatron Bridge v0.6.0, `training/config.py`: SchedulerConfig.finalize refuses mixed iteration and sample fields, a warmup given twice, both scheduler sources, a shrinking weight decay', url: 'https://github.com/NVIDIA-NeMo/Megatron-Bridge/blob/v0.6.0/src/megatron/bridge/training/config.py#L406-L438' },
      { label: 'Megatron-LM core_v0.15.0, `validate_args`: iteration-based and sample-based training settings are exclusive', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.15.0/megatron/training/arguments.py#L781-L810' },
    ],
  },
  check(ctx) {
    runChecks(ctx, GC_CHECKS);
    if (ctx.format === 'megatron-bridge') {
      runChecks(ctx, BRIDGE_SCHEDULE_CHECKS);
      runChecks(ctx, BRIDGE_RUN_LENGTH_CHECKS);
      return;
    }
    const m = ctx.model;
    // From Megatron Core 0.17.0 the schedule checks are skipped when nothing is trained
    // (arguments.py@core_v0.17.0:1041-1058); earlier releases make them with `--skip-train` too.
    runChecks(ctx, LR_WD_CHECKS);
    runChecks(ctx, LOG_CHECKS);
    runChecks(ctx, BUILDER_ARG_CHECKS);
    // The `--yaml-cfg` reader's checks do not look at --skip-train.
    // (from 0.6.0, the ramp-up check before 0.18.0)
    runChecks(ctx, YAML_CFG_SCHEDULE_CHECKS);
    const skip = m.args.get('skip_train');
    if (skip && (skip.unknown || flag(skip) !== false) && ctx.atLeast('0.17.0')) return;
    runChecks(ctx, CHECKS);
  },
});
