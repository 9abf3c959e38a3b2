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
 *
 * Megatron Bridge's own checkpoint checks in an override file (CheckpointConfig.finalize and
 * ConfigContainer.validate, training/config.py), on the fields the file writes.
 */
import { argAbsent, argGiven, argNum, argOff, argOn, argValue, argWritten, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { runChecks, type ArgCheck } from '../formats/megatron/checks';
import { untracked } from './certain';
import { defineRule, type RuleContext } from './rule';

const SINCE = '0.9.0';

const BRIDGE = ['megatron-bridge'] as const;
const on = (m: MegatronModel, dest: string) => argWritten(m, dest) && argOn(m, dest);
const off = (m: MegatronModel, dest: string) => argWritten(m, dest) && !argOn(m, dest);
/** `checkpoint.ckpt_format` as written, when the file writes it. */
const format = (m: MegatronModel) => (argWritten(m, 'ckpt_format') ? String(argValue(m, 'ckpt_format')) : undefined);
/** Written, and neither of the distributed formats (torch_dist, fsdp_dtensor). */
const legacyFormat = (m: MegatronModel) => {
  const f = format(m);
  return f !== undefined && f !== 'torch_dist' && f !== 'fsdp_dtensor';
};

const BRIDGE_CHECKS: ArgCheck[] = [
  {
    // ConfigContainer.validate at every release: torch_dist only (training/config.py@v0.1.0rc4:1008-1012
    // to @v0.4.0), torch_dist or fsdp_dtensor from v0.5.0 (@067f987:1535-1539).
    when: (m) => (on(m, 'async_save') && legacyFormat(m) ? 'ckpt_format' : undefined),
    formats: BRIDGE,
    message: (m) => `\`checkpoint.async_save\` writes only distributed checkpoints, and \`checkpoint.ckpt_format\` is \`${format(m)}\`: Megatron Bridge stops when it validates the config ("async_save is only supported with ckpt_format='torch_dist'…"). Use \`ckpt_format: torch_dist\`, or turn \`async_save\` off.`,
  },
  {
    when: (m) => (on(m, 'async_save') && format(m) === 'fsdp_dtensor' ? 'ckpt_format' : undefined),
    formats: BRIDGE,
    before: '0.18.0',
    message: () => '`checkpoint.async_save` with `checkpoint.ckpt_format: fsdp_dtensor`: Megatron Bridge before 0.5 (Megatron Core 0.18) saves asynchronously only in torch_dist and stops when it validates the config ("async_save is only supported with ckpt_format=\'torch_dist\'"). Turn `async_save` off, or upgrade Megatron Bridge.',
  },
  {
    // CheckpointConfig.finalize at every release (training/config.py@v0.1.0rc4:567, @067f987:603).
    when: (m) => (on(m, 'async_save') && off(m, 'use_persistent_ckpt_worker') ? 'use_persistent_ckpt_worker' : undefined),
    formats: BRIDGE,
    message: () => '`checkpoint.async_save` with `checkpoint.use_persistent_ckpt_worker: false`: Megatron Bridge stops when it validates the config ("async_save requires use_persistent_ckpt_worker=True."). Turn the persistent worker on, or `async_save` off.',
  },
  {
    // ConfigContainer.validate at every release: without Gloo groups the distributed optimizer needs
    // a distributed checkpoint format (training/config.py@v0.1.0rc4:1015-1022, a bare assertion;
    // @067f987:1557-1565, "Legacy checkpointing requires …" from v0.5.0). The DDP and optimizer
    // switches are kept in step (either on turns both on) from v0.2.0; v0.1 asserts they match.
    when: (m) => (off(m, 'use_gloo_process_groups') && on(m, 'use_distributed_optimizer') && legacyFormat(m) ? 'ckpt_format' : undefined),
    formats: BRIDGE,
    message: (m) => `\`checkpoint.ckpt_format: ${format(m)}\` with the distributed optimizer and \`dist.use_gloo_process_groups: false\`: the legacy checkpoint gathers the optimizer state over Gloo, and Megatron Bridge stops when it validates the config ("Legacy checkpointing requires ckpt_format='torch_dist' or 'fsdp_dtensor'"; a bare assertion before Bridge 0.5). Use \`ckpt_format: torch_dist\`, or keep the Gloo groups.`,
  },
  {
    // CheckpointConfig.finalize from v0.2.0 (@067f987:625-628); the message names another field than the one it checks.
    when: (m) => (on(m, 'dist_ckpt_optim_fully_reshardable') && on(m, 'distrib_optim_fully_reshardable_mem_efficient') ? 'distrib_optim_fully_reshardable_mem_efficient' : undefined),
    formats: BRIDGE,
    since: '0.15.0',
    message: () => '`checkpoint.distrib_optim_fully_reshardable_mem_efficient` with `checkpoint.dist_ckpt_optim_fully_reshardable`: Megatron Bridge refuses the pair when it validates the config ("distrib_optim_fully_reshardable_mem_efficient requires use_gloo_process_groups", although it checks only that the two are not both on). Turn one off.',
  },
];

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
  formats: [...MLM_FLAG_FORMATS, 'megatron-bridge'],
  docs: {
    summary: 'Checkpoint arguments that stop Megatron-LM when it saves (a non-persistent save interval without a non-persistent checkpoint type) or that it switches off at startup (async save without the persistent checkpoint worker), or that stop Megatron Bridge when it validates the config (asynchronous or Gloo-less saving in a legacy format).',
    why: '`--non-persistent-save-interval` makes Megatron-LM save a non-persistent checkpoint every N iterations (unless a persistent save falls on the same one), and from Megatron Core 0.9, where the interval appeared, that save stops the run unless `--non-persistent-ckpt-type` is `global` or `local`; the type has no default. The run fails at its first non-persistent save, after N iterations of work. It is an error when the file runs that many iterations (`--train-iters`), a warning when it does not say. From Megatron Core 0.16, `--async-save` with a distributed checkpoint format (the default `torch_dist`) needs `--use-persistent-ckpt-worker`: without it Megatron-LM prints a warning and turns async save off, so every save blocks training (a warning). Megatron Bridge checks an override file\'s checkpoint settings when it validates the config, at every release: `async_save` writes only the distributed formats (`torch_dist`; also `fsdp_dtensor` from Bridge 0.5) and needs `use_persistent_ckpt_worker`, and with `dist.use_gloo_process_groups: false` the distributed optimizer cannot save the legacy `torch` format; from Bridge 0.2 (Megatron Core 0.15) it also refuses `dist_ckpt_optim_fully_reshardable` beside `distrib_optim_fully_reshardable_mem_efficient`. Only the fields the file writes are judged.',
    bad: '# shardwise: format=megatron-yaml world_size=8 megatron_core=0.19.0\nMODEL_ARGS:\n  --num-layers: 32\n  --train-iters: 1000\n  --save: /ckpt\n  --non-persistent-save-interval: 100\n',
    good: '# shardwise: format=megatron-yaml world_size=8 megatron_core=0.19.0\nMODEL_ARGS:\n  --num-layers: 32\n  --train-iters: 1000\n  --save: /ckpt\n  --non-persistent-save-interval: 100\n  --non-persistent-ckpt-type: global\n',
    upstream: [
      { label: 'Megatron-LM core_v0.9.0, `save_checkpoint`: a non-persistent save needs a global or local type', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.9.0/megatron/training/checkpointing.py#L337-L353' },
      { label: 'Megatron-LM core_v0.16.0, `validate_args`: async save turned off without the persistent checkpoint worker', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.16.0/megatron/training/arguments.py#L1138-L1143' },
    ],
  },
  check(ctx) {
    if (ctx.format === 'megatron-bridge') {
      runChecks(ctx, BRIDGE_CHECKS);
      return;
    }
    ctx.separately(() => nonPersistentWithoutType(ctx));
    ctx.separately(() => asyncSaveWithoutWorker(ctx));
  },
});
