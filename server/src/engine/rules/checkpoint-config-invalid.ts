/**
 * checkpoint-config-invalid: checkpoint arguments that stop Megatron-LM's training when it saves.
 *
 * `--non-persistent-save-interval N` with `--save`: at every N-th iteration that is not also a
 * persistent save (`--save-interval`; the persistent save comes first, training.py@core_v0.9.0:1364-1376,
 * @d98e8a6:4074-4099) train() calls save_checkpoint(..., non_persistent_ckpt=True), which stops unless
 * `--non-persistent-ckpt-type` is `global` or `local` (an assertion at checkpointing.py@core_v0.9.0:352-353,
 * a NotImplementedError at @d98e8a6:688-690). The type's default is None (arguments.py@core_v0.9.0:1381,
 * the same at d98e8a6), so the interval alone stops the run at its first non-persistent save.
 *
 * `--async-save` with a distributed checkpoint format (`--ckpt-format` other than `torch`; its default
 * is `torch_dist`) and no `--use-persistent-ckpt-worker`: from Megatron Core 0.16 validate_args prints a
 * warning and turns async save off (arguments.py@core_v0.16.0:1138-1143, @d98e8a6:1814-1820); the run
 * goes on with blocking saves. A warning: nothing stops.
 */
import { argAbsent, argGiven, argNum, argOff, argOn, argValue, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { untracked } from './certain';
import { defineRule, type RuleContext } from './rule';

const SINCE = '0.9.0';

function nonPersistentWithoutType(ctx: RuleContext<MegatronModel>): void {
  const m = ctx.model;
  const interval = argNum(m, 'non_persistent_save_interval');
  if (interval === undefined || interval <= 0 || !argGiven(m, 'save') || !argAbsent(m, 'non_persistent_ckpt_type')) return;
  // A persistent save at the same iterations takes its place (the `elif` in train_step's caller).
  if (!argAbsent(m, 'save_interval')) {
    const persistent = argNum(m, 'save_interval');
    if (persistent === undefined || (persistent > 0 && interval % persistent === 0)) return;
  }
  if (!ctx.atLeast(SINCE)) return;
  // Whether training gets that far only softens the finding: read on its own, an unknown length keeps the warning.
  const written = untracked(m.args).get('train_iters')?.value;
  const iters = typeof written === 'number' ? written : typeof written === 'string' && /^\d+$/.test(written) ? Number(written) : undefined;
  if (iters !== undefined && iters < interval) return;
  const reached = iters !== undefined && argNum(m, 'train_iters') === iters;
  const at = m.args.get('non_persistent_save_interval')?.path ?? [];
  const quote = 'Please use local or global non-persistent checkpoints';
  ctx.report({
    at,
    severity: reached ? undefined : 'warning',
    message: `\`--non-persistent-save-interval ${interval}\` with \`--save\` but no \`--non-persistent-ckpt-type\`: ${reached ? `at iteration ${interval}` : `if training reaches iteration ${interval} (the file does not say how many iterations it runs)`}, Megatron-LM makes a non-persistent save, and without a type it stops there ("${quote}"). Add \`--non-persistent-ckpt-type global\` (saved like a normal checkpoint, the previous one removed), or remove the interval.`,
  });
}

/** The release from which validate_args turns async save off without the persistent worker. */
const ASYNC_WORKER_SINCE = '0.16.0';

function asyncSaveWithoutWorker(ctx: RuleContext<MegatronModel>): void {
  const m = ctx.model;
  if (!argOn(m, 'async_save') || !argOff(m, 'use_persistent_ckpt_worker')) return;
  // A distributed format: left out (the default torch_dist), or written as anything but `torch`.
  const format = argAbsent(m, 'ckpt_format') ? 'torch_dist' : argValue(m, 'ckpt_format');
  if (typeof format !== 'string' || format === 'torch') return;
  if (!ctx.atLeast(ASYNC_WORKER_SINCE)) return;
  ctx.report({
    at: m.args.get('async_save')?.path ?? [],
    severity: 'warning',
    message: `\`--async-save\` without \`--use-persistent-ckpt-worker\`: with a distributed checkpoint format (\`--ckpt-format ${format}\`${argAbsent(m, 'ckpt_format') ? ', the default' : ''}), Megatron-LM turns async save off at startup and only prints a warning ("--async-save is not supported without --use-persistent-ckpt-worker"), so every save blocks training. Add \`--use-persistent-ckpt-worker\` to keep saves in the background, or remove \`--async-save\`.`,
  });
}

export default defineRule<MegatronModel>({
  id: 'checkpoint-config-invalid',
  severity: 'error',
  formats: MLM_FLAG_FORMATS,
  docs: {
    summary: 'Checkpoint arguments that stop Megatron-LM when it saves (a non-persistent save interval without a non-persistent checkpoint type), or that it switches off at startup (async save without the persistent checkpoint worker).',
    why: '`--non-persistent-save-interval` makes Megatron-LM save a non-persistent checkpoint every N iterations (unless a persistent save falls on the same one), and from Megatron Core 0.9, where the interval appeared, that save stops the run unless `--non-persistent-ckpt-type` is `global` or `local`; the type has no default. The run fails at its first non-persistent save, after N iterations of work. It is an error when the file runs that many iterations (`--train-iters`), a warning when it does not say. From Megatron Core 0.16, `--async-save` with a distributed checkpoint format (the default `torch_dist`) needs `--use-persistent-ckpt-worker`: without it Megatron-LM prints a warning and turns async save off, so every save blocks training (a warning).',
    bad: '# shardwise: format=megatron-yaml world_size=8 megatron_core=0.19.0\nMODEL_ARGS:\n  --num-layers: 32\n  --train-iters: 1000\n  --save: /ckpt\n  --non-persistent-save-interval: 100\n',
    good: '# shardwise: format=megatron-yaml world_size=8 megatron_core=0.19.0\nMODEL_ARGS:\n  --num-layers: 32\n  --train-iters: 1000\n  --save: /ckpt\n  --non-persistent-save-interval: 100\n  --non-persistent-ckpt-type: global\n',
    upstream: [
      { label: 'Megatron-LM core_v0.9.0, `save_checkpoint`: a non-persistent save needs a global or local type', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.9.0/megatron/training/checkpointing.py#L337-L353' },
      { label: 'Megatron-LM core_v0.16.0, `validate_args`: async save turned off without the persistent checkpoint worker', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.16.0/megatron/training/arguments.py#L1138-L1143' },
    ],
  },
  check(ctx) {
    ctx.separately(() => nonPersistentWithoutType(ctx));
    ctx.separately(() => asyncSaveWithoutWorker(ctx));
  },
});
