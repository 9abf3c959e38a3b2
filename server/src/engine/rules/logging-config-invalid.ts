/**
 * logging-config-invalid: Megatron-LM's logging arguments that stop a run: a Weights & Biases
 * project without an experiment name (the name defaults to an empty string before Megatron Core
 * 0.16) or without a directory for its files, and a TensorBoard logging interval of 0.
 *
 * The W&B writer is set up by every Megatron-LM program when it initializes (set_global_variables,
 * _set_wandb_writer: megatron/global_vars.py@core_v0.4.0:164-184, training/global_vars.py@core_v0.15.0:185-205,
 * @d98e8a6:254-284), on the last rank, only when `--wandb-project` is not empty.
 */
import { argAbsent, argNum, argOn, argValue, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { PRETRAIN_ENTRY, runChecks, type ArgCheck } from '../formats/megatron/checks';
import { defineRule } from './rule';
import { BRIDGE_LOGGING_CHECKS } from './tables/bridge-validate-checks';

/** A text argument as written (a number written for a name is text to argparse). */
function text(m: MegatronModel, dest: string): string | undefined {
  const v = argValue(m, dest);
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
}

/** W&B logging is on: `--wandb-project` written, not empty. */
const wandbOn = (m: MegatronModel): boolean => (text(m, 'wandb_project') ?? '') !== '';
/** The experiment name is written empty (`--wandb-exp-name ""`). */
const nameEmpty = (m: MegatronModel): boolean => argValue(m, 'wandb_exp_name') === '';
/** The experiment name is written, not empty. */
const nameWritten = (m: MegatronModel): boolean => (text(m, 'wandb_exp_name') ?? '') !== '';
/**
 * Left out, so the default (None) applies, or written as null (a `--yaml-cfg` file's `save: null`,
 * which the reader holds as left out; a file of that format that leaves it out altogether stops
 * Megatron-LM earlier, on the missing attribute).
 */
const unset = (m: MegatronModel, dest: string): boolean => argAbsent(m, dest) || argValue(m, dest) === null;
/**
 * No directory for the W&B files: `--wandb-save-dir` unset or empty, and `--save` unset, so that
 * Megatron-LM joins None with 'wandb' (`os.path.join(args.save, 'wandb')`).
 */
const noWandbDir = (m: MegatronModel): boolean => (unset(m, 'wandb_save_dir') || argValue(m, 'wandb_save_dir') === '') && unset(m, 'save');

const NO_NAME = 'stops at startup ("Please specify the wandb experiment name!"). Add `--wandb-exp-name` with a name for the run.';
const NO_DIR = 'W&B logging (`--wandb-project`) without `--wandb-save-dir` or `--save`: Megatron-LM puts the W&B files under the checkpoint directory by default (`<save>/wandb`), and with neither set it stops at startup with a TypeError when it sets up the W&B writer (it joins the unset `--save` with "wandb"). Add `--wandb-save-dir`, or `--save`.';

/** The training entry scripts (`entry` of a check: an unnamed one is an assumption). */
const trains = (m: MegatronModel): boolean => !argOn(m, 'skip_train');
const tbDir = (m: MegatronModel): boolean => (text(m, 'tensorboard_dir') ?? '') !== '';
const tbZero = (m: MegatronModel): boolean => argNum(m, 'tensorboard_log_interval') === 0 && trains(m);
const TB_ZERO = (why: string) => `\`--tensorboard-log-interval 0\` ${why}: Megatron-LM takes the iteration modulo the interval in every training log step, and stops with a ZeroDivisionError at the first iteration. Use an interval of 1 or more (1 is the default).`;

// A `--yaml-cfg` file's arguments are only what it writes (yaml_arguments.py, load_yaml): a name it
// leaves out is no empty default there, so only a written one is judged; the writer is the same.
const CHECKS: ArgCheck[] = [
  {
    // global_vars.py@core_v0.4.0:169-170, training/global_vars.py@core_v0.15.0:190-191: `--wandb-exp-name`
    // defaults to '' (arguments.py@core_v0.15.0:1864), which the writer refuses.
    when: (m) => (wandbOn(m) && argAbsent(m, 'wandb_exp_name') ? 'wandb_project' : undefined),
    message: () => `W&B logging (\`--wandb-project\`) without an experiment name: before Megatron Core 0.16 \`--wandb-exp-name\` defaults to an empty string, and Megatron-LM ${NO_NAME}`,
    formats: MLM_FLAG_FORMATS,
    before: '0.16.0',
  },
  {
    // An empty name written meets the same test at every release (training/global_vars.py@d98e8a6:259-260).
    when: (m) => (wandbOn(m) && nameEmpty(m) ? 'wandb_exp_name' : undefined),
    message: () => `\`--wandb-exp-name\` is empty with W&B logging (\`--wandb-project\`) on: Megatron-LM ${NO_NAME}`,
    formats: MLM_FLAG_FORMATS,
    yamlCfg: true,
  },
  {
    // global_vars.py@core_v0.4.0:173-177, training/global_vars.py@d98e8a6:263-267 (after the name test).
    when: (m) => (wandbOn(m) && nameWritten(m) && noWandbDir(m) ? 'wandb_project' : undefined),
    message: () => NO_DIR,
    formats: MLM_FLAG_FORMATS,
    yamlCfg: true,
    before: '0.16.0',
  },
  {
    // From core_v0.16.0 the name defaults to None (training_config.py@core_v0.16.0:297), which passes.
    when: (m) => (wandbOn(m) && (nameWritten(m) || (argAbsent(m, 'wandb_exp_name') && !m.args.yamlCfg)) && noWandbDir(m) ? 'wandb_project' : undefined),
    message: () => NO_DIR,
    formats: MLM_FLAG_FORMATS,
    yamlCfg: true,
    since: '0.16.0',
  },
  {
    // training.py@core_v0.4.0:558, training/training.py@core_v0.15.0:1467, @d98e8a6:3376: `if writer and
    // (iteration % args.tensorboard_log_interval == 0)`, the writer being set with `--tensorboard-dir`.
    when: (m) => (tbZero(m) && tbDir(m) ? 'tensorboard_log_interval' : undefined),
    entry: PRETRAIN_ENTRY,
    message: () => TB_ZERO('with `--tensorboard-dir`'),
    formats: MLM_FLAG_FORMATS,
    yamlCfg: true,
  },
  {
    // training.py@core_v0.4.0:554-555 to training/training.py@core_v0.14.0:1411: the timers are written
    // on every rank under `args.log_timers_to_tensorboard and (iteration % interval == 0)`; gone in 0.15.0.
    when: (m) => (tbZero(m) && !tbDir(m) && argOn(m, 'log_timers_to_tensorboard') ? 'tensorboard_log_interval' : undefined),
    entry: PRETRAIN_ENTRY,
    message: () => TB_ZERO('with `--log-timers-to-tensorboard`'),
    formats: MLM_FLAG_FORMATS,
    yamlCfg: true,
    before: '0.15.0',
  },
];

export default defineRule<MegatronModel>({
  id: 'logging-config-invalid',
  severity: 'error',
  formats: [...MLM_FLAG_FORMATS, 'megatron-bridge'],
  docs: {
    summary: 'Megatron-LM logging arguments that stop a run: W&B logging without an experiment name (before Megatron Core 0.16, or an empty one at any release) or without a directory for its files, and a TensorBoard logging interval of 0; and the profiling, straggler-detection and MLFlow settings Megatron Bridge refuses in an override file.',
    why: 'With `--wandb-project` set, every Megatron-LM program sets up the Weights & Biases writer when it initializes. It refuses an empty experiment name, and before Megatron Core 0.16 `--wandb-exp-name` defaults to an empty string, so a launch that names only the project stops at startup; from 0.16 the name defaults to unset and W&B picks one. The writer keeps its files in `--wandb-save-dir`, or else in `wandb` under the checkpoint directory `--save`: with neither, it stops with a TypeError. In every training step Megatron-LM takes the iteration modulo `--tensorboard-log-interval` when a TensorBoard writer exists (`--tensorboard-dir`), and before 0.15 also for `--log-timers-to-tensorboard`: an interval of 0 stops the run with a ZeroDivisionError at the first iteration. A `--yaml-cfg` file meets the same W&B writer and training loop, but has no defaults: there only what it writes is judged (an empty `wandb_exp_name`, `save: null`). Megatron Bridge checks an override\'s own sections when it validates the config, on the values the file writes: at every release both profilers on (`profiling.use_pytorch_profiler` and `use_nsys_profiler`), and, with `nvrx_straggler.enabled`, a `report_time_interval` that is not positive, a GPU performance threshold outside 0 to 1, or both performance measures off; from Bridge 0.2 (Megatron Core 0.15) a negative `profiling.profile_step_start` or `profile_step_end`, or an end before the start; from Bridge 0.3 (Megatron Core 0.16) `logger.mlflow_experiment` with an empty `mlflow_run_name`.',
    bad: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --train-iters: 1000\n  --tensorboard-dir: /logs/tb\n  --tensorboard-log-interval: 0\n',
    good: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --train-iters: 1000\n  --tensorboard-dir: /logs/tb\n  --tensorboard-log-interval: 10\n',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64 --train-iters 50000 --eval-interval 1000 \\\n    --wandb-project llama --wandb-exp-name llama-8b-run1\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64 --train-iters 50000 --eval-interval 1000 \\\n    --wandb-project llama --wandb-exp-name llama-8b-run1 --wandb-save-dir /logs/wandb\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.15.0, `global_vars.py`: the W&B writer refuses an empty experiment name and puts its files under `--save` by default', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.15.0/megatron/training/global_vars.py#L185-L205' },
      { label: 'Megatron-LM core_v0.15.0, `training.py`: the TensorBoard interval divides the iteration', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.15.0/megatron/training/training.py#L1467' },
    ],
  },
  check(ctx) {
    runChecks(ctx, CHECKS);
    runChecks(ctx, BRIDGE_LOGGING_CHECKS);
  },
});
