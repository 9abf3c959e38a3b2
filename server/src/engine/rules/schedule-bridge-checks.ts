/**
 * Megatron Bridge's own checks of the training length and the learning-rate schedule, made when it
 * validates an override file's config (training/config.py): SchedulerConfig.finalize, TrainingConfig.finalize
 * and ConfigContainer._validate_training_scheduler_compatibility. Each fires only on values the file
 * writes: a field it leaves out is the recipe's.
 *
 * Releases: Bridge 0.1 (Megatron Core 0.14) has the weight-decay and override checks only; the
 * iteration/sample checks arrive in Bridge 0.2 (its pyproject pins Megatron Core 0.15), hence `since: '0.15.0'`.
 */
import { argNum, argOn, argValue, argWritten, type MegatronModel } from '../formats/megatron/model';
import type { ArgCheck } from '../formats/megatron/checks';
import { untracked } from './certain';

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
const bySamples = (m: MegatronModel): boolean => written(m, 'train_samples') && !written(m, 'train_iters');
/** Training counted in iterations: `train_iters` written, and `train_samples` not written with a value. */
const byIters = (m: MegatronModel): boolean => written(m, 'train_iters') && !written(m, 'train_samples');
/**
 * The other length, when the file leaves it to the recipe: a recipe that sets it stops Bridge
 * earlier, on both lengths set (TrainingConfig.finalize), so the file is refused either way.
 */
function otherLength(m: MegatronModel, dest: 'train_iters' | 'train_samples'): string {
  const a = untracked(m.args).get(dest);
  return a === undefined ? ` (or earlier, on both lengths set, if the recipe sets \`train.${dest}\`: write \`train.${dest}: null\`)` : '';
}

const show = (m: MegatronModel, dest: string): string => String(argValue(m, dest));

export const BRIDGE_SCHEDULE_CHECKS: ArgCheck[] = [
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
    when: (m) => (bySamples(m) && (argNum(m, 'train_samples') ?? 1) <= 0 ? 'train_samples' : undefined),
    formats: BRIDGE,
    since: '0.15.0',
    message: (m) => `\`train.train_samples: ${show(m, 'train_samples')}\` trains on no samples: ${STOPS} ("train_samples must be positive")${otherLength(m, 'train_iters')}. Give the number of samples to train on.`,
  },
  {
    // TrainingConfig.finalize (training/config.py@v0.2.0:106, @067f987:488).
    when: (m) => (bySamples(m) && written(m, 'rampup_batch_size') ? 'rampup_batch_size' : undefined),
    formats: BRIDGE,
    since: '0.15.0',
    message: (m) => `\`train.rampup_batch_size\` with sample-based training (\`train.train_samples\`): ${STOPS} ("Batch size rampup not supported with sample-based training yet")${otherLength(m, 'train_iters')}. Remove the ramp-up, or train by iterations with \`train.train_iters\`.`,
  },
  // ConfigContainer._validate_training_scheduler_compatibility (training/config.py@v0.2.0,
  // @067f987:1699-1728): the scheduler's kind must be the kind training counts in. A file that mixes
  // kinds inside `scheduler` is reported by the first check alone.
  {
    when: (m) => (bySamples(m) && !mixed(m) && written(m, 'lr_decay_iters') ? 'lr_decay_iters' : undefined),
    formats: BRIDGE,
    since: '0.15.0',
    message: (m) => `\`scheduler.lr_decay_iters\` with sample-based training (\`train.train_samples\`): ${STOPS} ("Use lr_decay_samples for sample-based training, not lr_decay_iters")${otherLength(m, 'train_iters')}. Use \`scheduler.lr_decay_samples\`.`,
  },
  {
    when: (m) => (bySamples(m) && !mixed(m) && nonzero(m, 'lr_warmup_iters') ? 'lr_warmup_iters' : undefined),
    formats: BRIDGE,
    since: '0.15.0',
    message: (m) => `\`scheduler.lr_warmup_iters\` with sample-based training (\`train.train_samples\`): ${STOPS} ("Use lr_warmup_samples for sample-based training, not lr_warmup_iters")${otherLength(m, 'train_iters')}. Use \`scheduler.lr_warmup_samples\` or \`scheduler.lr_warmup_fraction\`.`,
  },
  {
    // Iteration-based: train_iters written; a recipe's train_samples beside it stops TrainingConfig first.
    when: (m) => (byIters(m) && !mixed(m) && written(m, 'lr_decay_samples') ? 'lr_decay_samples' : undefined),
    formats: BRIDGE,
    since: '0.15.0',
    message: (m) => `\`scheduler.lr_decay_samples\` with iteration-based training (\`train.train_iters\`): ${STOPS} ("Use lr_decay_iters for iteration-based training, not lr_decay_samples")${otherLength(m, 'train_samples')}. Use \`scheduler.lr_decay_iters\`.`,
  },
  {
    when: (m) => (byIters(m) && !mixed(m) && nonzero(m, 'lr_warmup_samples') ? 'lr_warmup_samples' : undefined),
    formats: BRIDGE,
    since: '0.15.0',
    message: (m) => `\`scheduler.lr_warmup_samples\` with iteration-based training (\`train.train_iters\`): ${STOPS} ("Use lr_warmup_iters for iteration-based training, not lr_warmup_samples")${otherLength(m, 'train_samples')}. Use \`scheduler.lr_warmup_iters\` or \`scheduler.lr_warmup_fraction\`.`,
  },
];
