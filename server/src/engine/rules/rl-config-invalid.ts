/**
 * rl-config-invalid: Megatron-LM's reinforcement-learning arguments that its argument checks refuse
 * together once `--perform-rl-step` is on.
 *
 * megatron/training/arguments.py, validate_args, inside `if args.perform_rl_step:`
 * (@core_v0.19.0:448, 526-541; @d98e8a6:450, 540-559): rollouts cannot be consumed one by one, groups
 * cannot be consumed when whole batches are submitted (`--rl-submission-granularity` defaults to `B`),
 * a generation lag above zero needs partial rollouts, and so does a submission granularity finer
 * than a batch (`R` from 0.19.0; `G` too from 0.20.0).
 */
import { argAbsent, argOn, argValue, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { runChecks, type ArgCheck } from '../formats/megatron/checks';
import { defineRule } from './rule';

/** The first release with the RL granularity and lag flags and the checks on them. */
const RL_CHECKS_SINCE = '0.19.0';

/** `--perform-rl-step` is on: the checks below run only then. */
const rl = (m: MegatronModel): boolean => argOn(m, 'perform_rl_step');

/** The submission granularity: as written, or the default `B` where the file leaves it out and defaults are known. */
function submission(m: MegatronModel): unknown {
  return argAbsent(m, 'rl_submission_granularity') ? 'B' : argValue(m, 'rl_submission_granularity');
}

/** Partial rollouts are off: not written (default False), or `--no-rl-partial-rollouts`. */
function partialOff(m: MegatronModel): boolean {
  return argAbsent(m, 'rl_partial_rollouts') || argValue(m, 'rl_partial_rollouts') === false;
}

/** The generation lag as a known number. */
function lag(m: MegatronModel): number | undefined {
  const v = argValue(m, 'rl_generation_lag');
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*[-+]?(\d+\.?\d*|\.\d+)\s*$/.test(v) ? Number(v) : undefined;
  return n !== undefined && Number.isFinite(n) ? n : undefined;
}

const CHECKS: ArgCheck[] = [
  {
    when: (m) => (rl(m) && argValue(m, 'rl_consumption_granularity') === 'R' ? 'rl_consumption_granularity' : undefined),
    message: () => '`--rl-consumption-granularity R` with `--perform-rl-step`: the trainer cannot consume rollouts one by one yet, and Megatron-LM stops at startup ("--rl-consumption-granularity R is not currently supported."). Use `G` (groups, with a finer `--rl-submission-granularity` and `--rl-partial-rollouts`) or `B`, the default.',
    formats: MLM_FLAG_FORMATS,
    since: RL_CHECKS_SINCE,
  },
  {
    when: (m) => (rl(m) && argValue(m, 'rl_consumption_granularity') === 'G' && submission(m) === 'B' ? 'rl_consumption_granularity' : undefined),
    message: (m) => `\`--rl-consumption-granularity G\` with \`--rl-submission-granularity B\`${argAbsent(m, 'rl_submission_granularity') ? ' (the default)' : ''}: generation work submitted a whole batch at a time cannot be consumed group by group, and Megatron-LM stops at startup ("--rl-submission-granularity B with --rl-consumption-granularity G is not supported."). Submit finer work (\`--rl-submission-granularity G\` or \`R\`, with \`--rl-partial-rollouts\`), or consume whole batches (\`B\`, the default).`,
    formats: MLM_FLAG_FORMATS,
    since: RL_CHECKS_SINCE,
  },
  {
    when: (m) => (rl(m) && (lag(m) ?? 0) > 0 && partialOff(m) ? 'rl_generation_lag' : undefined),
    message: (m) => `\`--rl-generation-lag ${lag(m)}\` without \`--rl-partial-rollouts\`: letting generation run ahead of the trainer needs rollouts that can stop and resume across steps, and Megatron-LM stops at startup ("--rl-generation-lag requires --rl-partial-rollouts."). Add \`--rl-partial-rollouts\`, or leave the lag at 0.`,
    formats: MLM_FLAG_FORMATS,
    since: RL_CHECKS_SINCE,
  },
  {
    when: (m) => (rl(m) && argValue(m, 'rl_submission_granularity') === 'R' && partialOff(m) ? 'rl_submission_granularity' : undefined),
    message: () => '`--rl-submission-granularity R` without `--rl-partial-rollouts`: submitting single rollouts needs streaming grouped rollouts, and Megatron-LM stops at startup ("Rollout submission granularity requires streaming grouped rollouts."; from 0.20.0 "--rl-submission-granularity R requires --rl-partial-rollouts."). Add `--rl-partial-rollouts`, or submit whole batches (`B`, the default).',
    formats: MLM_FLAG_FORMATS,
    since: RL_CHECKS_SINCE,
  },
  {
    when: (m) => (rl(m) && argValue(m, 'rl_submission_granularity') === 'G' && partialOff(m) ? 'rl_submission_granularity' : undefined),
    message: () => '`--rl-submission-granularity G` without `--rl-partial-rollouts`: from Megatron Core 0.20.0 any submission finer than a batch needs partial rollouts, and Megatron-LM stops at startup ("--rl-submission-granularity G requires --rl-partial-rollouts."). Add `--rl-partial-rollouts`, or submit whole batches (`B`, the default).',
    formats: MLM_FLAG_FORMATS,
    since: '0.20.0',
  },
];

export default defineRule<MegatronModel>({
  id: 'rl-config-invalid',
  severity: 'error',
  formats: MLM_FLAG_FORMATS,
  docs: {
    summary: 'Reinforcement-learning arguments that Megatron-LM rejects together with `--perform-rl-step`: rollouts consumed one by one, groups consumed from whole-batch submissions, or a generation lag or finer submission without `--rl-partial-rollouts`.',
    why: 'With `--perform-rl-step`, Megatron-LM\'s argument checks (from Megatron Core 0.19, where these flags appeared) refuse `--rl-consumption-granularity R` ("not currently supported"), `--rl-consumption-granularity G` while the submission granularity is `B` (its default), a `--rl-generation-lag` above 0 without `--rl-partial-rollouts`, and `--rl-submission-granularity R` without it; from 0.20 `G` submission needs it too. Each stops the job at startup, before any GPU work. A `--yaml-cfg` file is not checked this way and is not judged.',
    bad: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --perform-rl-step: true\n  --rl-consumption-granularity: G\n',
    good: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --perform-rl-step: true\n  --rl-partial-rollouts: true\n  --rl-submission-granularity: G\n  --rl-consumption-granularity: G\n',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 train_rl.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64 \\\n    --perform-rl-step --rl-consumption-granularity G\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 train_rl.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64 \\\n    --perform-rl-step --rl-partial-rollouts --rl-submission-granularity G --rl-consumption-granularity G\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.19.0, `validate_args` under `--perform-rl-step`: generation lag, submission and consumption granularity', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.19.0/megatron/training/arguments.py#L526-L541' },
    ],
  },
  check(ctx) {
    runChecks(ctx, CHECKS);
  },
});
