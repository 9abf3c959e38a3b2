/**
 * checkpoint-config-invalid: checkpoint arguments that stop Megatron-LM at startup (its argument
 * checks, STARTUP_CHECKS) or when it saves.
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
import { argAbsent, argGiven, argNum, argOff, argOn, argValue, argWritten, bridgeMegatronFsdpOff, bridgeField, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { named, PRETRAIN_ENTRY, runChecks, type ArgCheck } from '../formats/megatron/checks';
import { primaryFlag } from '../formats/megatron/schema';
import { untracked } from './certain';
import { defineRule, type RuleContext } from './rule';
import { BRIDGE_CHECKPOINT_CHECKS } from './tables/bridge-validate-checks';

/**
 * The first logits-saver setting the saver refuses (logits_saver.py@core_v0.19.0:145-160), with what to
 * say: `fix` is the advice for the setting as the file spells it.
 */
function logitsSaverBad(m: MegatronModel): { dest: string; why: string; quote: string; fix: (setting: string) => string } | undefined {
  const k = argNum(m, 'logits_save_top_k');
  if (k !== undefined && k <= 0) return { dest: 'logits_save_top_k', why: 'the number of log-probabilities kept per token must be positive', quote: '"Number of top log-probabilities to save must be positive"', fix: (x) => `Give ${x} a count of 1 or more.` };
  const p = argNum(m, 'logits_save_top_p');
  if (p !== undefined && !(p > 0 && p <= 1)) return { dest: 'logits_save_top_p', why: 'the top-p mass is a probability in (0, 1]', quote: `"p must be in (0, 1] or None, got ${p}"`, fix: (x) => `Give ${x} a value above 0 and at most 1, or leave it out.` };
  const mk = argNum(m, 'logits_save_top_p_min_k');
  if (mk !== undefined && mk < 1) return { dest: 'logits_save_top_p_min_k', why: 'at least one entry per token must be kept', quote: `"min_k must be >= 1, got ${mk}"`, fix: (x) => `Give ${x} 1 or more, or leave it out (default 1).` };
  return undefined;
}

const SINCE = '0.9.0';

const BRIDGE = ['megatron-bridge'] as const;
const on = (m: MegatronModel, dest: string) => argWritten(m, dest) && argOn(m, dest);
const off = (m: MegatronModel, dest: string) => argWritten(m, dest) && !argOn(m, dest);
/** A Bridge field the override writes as null (Bridge's None). */
const isNull = (m: MegatronModel, dotted: string) => bridgeField(m, dotted)?.value === null;
/** `checkpoint.ckpt_format` as written, when the file writes it. */
const format = (m: MegatronModel) => (argWritten(m, 'ckpt_format') ? String(argValue(m, 'ckpt_format')) : undefined);
/** Written, and neither of the distributed formats (torch_dist, fsdp_dtensor). */
const legacyFormat = (m: MegatronModel) => {
  const f = format(m);
  return f !== undefined && f !== 'torch_dist' && f !== 'fsdp_dtensor';
};
/** The file saves or loads a checkpoint: `checkpoint.save` or `checkpoint.load` written with a path. */
const savesOrLoads = (m: MegatronModel) => argWritten(m, 'save') || argWritten(m, 'load');

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
    // The same check before v0.5.0 accepts torch_dist alone (`assert ckpt_format == "torch_dist"`,
    // training/config.py@v0.1.0rc4:1017-1022, @v0.4.2:1179-1184); fsdp_dtensor is accepted from
    // v0.5.0 (@v0.5.0:1297-1304, @067f987:1558-1565).
    when: (m) => (off(m, 'use_gloo_process_groups') && on(m, 'use_distributed_optimizer') && format(m) === 'fsdp_dtensor' ? 'ckpt_format' : undefined),
    formats: BRIDGE,
    before: '0.18.0',
    message: () => '`checkpoint.ckpt_format: fsdp_dtensor` with the distributed optimizer and `dist.use_gloo_process_groups: false`: Megatron Bridge before 0.5 (Megatron Core 0.18) accepts only torch_dist there, and stops when it validates the config (a bare assertion that the format is torch_dist). Keep the Gloo groups, use `ckpt_format: torch_dist` (where Megatron-FSDP is off), or upgrade Megatron Bridge.',
  },
  {
    // ConfigContainer.validate at every release, for a run that saves or loads: fsdp_dtensor needs
    // Megatron-FSDP (`ddp.use_megatron_fsdp`, on when either switch is) and not FSDP2
    // (training/config.py@v0.1.0rc4:1001-1006, @v0.4.0:1133-1138, @067f987:1528-1533). The FSDP2
    // half is fsdp-config-invalid's; here Megatron-FSDP is written off in both places.
    when: (m) => (format(m) === 'fsdp_dtensor' && savesOrLoads(m) && bridgeMegatronFsdpOff(m) && !on(m, 'use_torch_fsdp2') ? 'ckpt_format' : undefined),
    formats: BRIDGE,
    message: () => '`checkpoint.ckpt_format: fsdp_dtensor` with a checkpoint to save or load, and Megatron-FSDP off (`ddp.use_megatron_fsdp` and `dist.use_megatron_fsdp` false): the format is Megatron-FSDP\'s, and Megatron Bridge stops when it validates the config ("fsdp_dtensor checkpoint format only supports Megatron FSDP"). Use `ckpt_format: torch_dist`, or turn Megatron-FSDP on.',
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

/**
 * A Megatron Bridge override that turns non-persistent saving on (`checkpoint.non_persistent_save_interval`)
 * with a type Bridge does not save: `in_memory`, which its CheckpointConfig takes (the field is
 * Megatron-LM's `Literal["global", "local", "in_memory"]`, training_config.py@2a75ac1:448), or null.
 * At every step that is a multiple of the interval and not a persistent save (the `elif` after the
 * persistent save in train.py@v0.1.0rc4:937-940, @067f987:1450-1453, both under `checkpoint.save`),
 * save_checkpoint raises ValueError for any type but global and local (checkpointing.py@v0.1.0rc0:414,
 * @067f987:1164-1168); loading a checkpoint raises too (@067f987:3466-3469). Every Bridge release.
 * A value the override leaves out is the recipe's: the finding is then a warning that says what it assumes.
 */
function bridgeNonPersistentType(ctx: RuleContext<MegatronModel>): void {
  const m = ctx.model;
  const type = bridgeField(m, 'checkpoint.non_persistent_ckpt_type');
  if (!type || (type.value !== 'in_memory' && type.value !== null)) return;
  const every = argWritten(m, 'non_persistent_save_interval') ? argNum(m, 'non_persistent_save_interval') : undefined;
  if (every === undefined || every <= 0 || isNull(m, 'checkpoint.save')) return;
  // Looked up untracked: a field the override leaves out (the recipe's) softens the finding, it does not silence it.
  const raw = untracked(m.args);
  if (raw.get('skip_train') !== undefined && argOn(m, 'skip_train')) return;
  const persistent = argWritten(m, 'save_interval') ? argNum(m, 'save_interval') : isNull(m, 'checkpoint.save_interval') ? 0 : undefined;
  const iters = argWritten(m, 'train_iters') ? argNum(m, 'train_iters') : undefined;
  // The first multiple of the interval that no persistent save takes, within the run when its length is known.
  let first: number | undefined = every;
  if (persistent !== undefined && persistent > 0) {
    // Every multiple of the interval is a persistent save: no non-persistent save is made.
    if (every % persistent === 0) return;
    first = undefined;
    const limit = iters ?? every * persistent;
    for (let step = every; step <= limit; step += every) {
      if (step % persistent !== 0) {
        first = step;
        break;
      }
    }
    if (first === undefined) return;
  }
  if (iters !== undefined && first > iters) return;
  const assumed = [
    ...(!argWritten(m, 'save') ? ['the recipe sets `checkpoint.save` (this file does not)'] : []),
    ...(iters === undefined ? [`training reaches iteration ${first} (the file does not say how many iterations it runs)`] : []),
    ...(persistent === undefined ? ["the recipe's `checkpoint.save_interval` does not fall on the same iterations"] : []),
  ];
  const shown = type.value === null ? 'null' : 'in_memory';
  ctx.report({
    at: type.path,
    severity: assumed.length ? 'warning' : undefined,
    message: `\`checkpoint.non_persistent_ckpt_type: ${shown}\` with \`checkpoint.non_persistent_save_interval: ${every}\`: ${assumed.length ? `if ${assumed.join(', and if ')}, then at iteration ${first}` : `at iteration ${first}`} Megatron Bridge makes a non-persistent save, and it saves only the \`global\` and \`local\` types: ${type.value === null ? 'without a type' : 'with `in_memory`, which its config accepts but nothing saves,'} it stops there ("Invalid non_persistent_ckpt_type … Must be 'local' or 'global'."), and loading a checkpoint with it stops too. Use \`global\` (saved like a normal checkpoint, the previous one removed) or \`local\` (node-local storage), or remove the interval.`,
  });
}

/** The release from which validate_args turns async save off without the persistent worker. */
const ASYNC_WORKER_SINCE = '0.16.0';

function asyncSaveWithoutWorker(ctx: RuleContext<MegatronModel>): void {
  const m = ctx.model;
  // validate_args makes the switch; a --yaml-cfg file never meets it.
  if (m.args.yamlCfg || argGiven(m, 'yaml_cfg') || !argOn(m, 'async_save') || !argOff(m, 'use_persistent_ckpt_worker')) return;
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
/** A count known to be at most zero. */
const notPositive = (m: MegatronModel, dest: string): boolean => {
  const n = argValue(m, dest);
  const v = typeof n === 'number' ? n : typeof n === 'string' && /^-?\d+$/.test(n) ? Number(n) : undefined;
  return v !== undefined && v <= 0;
};

/** A parallel size known to be above 1. */
const above1 = (m: MegatronModel, dest: string): boolean => (argNum(m, dest) ?? 1) > 1;

/**
 * Megatron-LM's argument checks (megatron/arguments.py, training/arguments.py from 0.7), validate_args,
 * on the checkpoint arguments; each stops at startup. Lines at the first release with the check and at d98e8a6.
 */
/** `--disable-gloo-process-groups` given, with the distributed optimizer on as written. */
const glooOffWithDistOptim = (m: MegatronModel) => off(m, 'use_gloo_process_groups') && argOn(m, 'use_distributed_optimizer');

const STARTUP_CHECKS: ArgCheck[] = [
  {
    // training/arguments.py@core_v0.12.0:898-903 to @d98e8a6:1745-1750 (a bare assertion): without
    // Gloo groups the distributed optimizer needs a distributed checkpoint (use_dist_ckpt is
    // `--ckpt-format` other than `torch`; the old `--use-dist-ckpt` switch is left alone).
    when: (m) => (glooOffWithDistOptim(m) && argValue(m, 'ckpt_format') === 'torch' && !argGiven(m, 'use_dist_ckpt_deprecated') ? 'ckpt_format' : undefined),
    message: () => '`--ckpt-format torch` with the distributed optimizer and `--disable-gloo-process-groups`: the legacy checkpoint gathers the optimizer state on one rank over Gloo, and Megatron-LM stops at startup (an assertion that a distributed checkpoint is used). Use `--ckpt-format torch_dist` (the default), or keep the Gloo groups.',
    formats: MLM_FLAG_FORMATS,
    since: '0.12.0',
  },
  {
    // training/arguments.py@core_v0.15.0:1102-1104 to @d98e8a6:1752-1754.
    when: (m) => (glooOffWithDistOptim(m) && argOn(m, 'dist_ckpt_optim_fully_reshardable') && argOn(m, 'distrib_optim_fully_reshardable_mem_efficient') ? 'distrib_optim_fully_reshardable_mem_efficient' : undefined),
    message: () => '`--distrib-optim-fully-reshardable-mem-efficient` with `--dist-ckpt-optim-fully-reshardable` and `--disable-gloo-process-groups`: the memory-efficient reshardable save gathers over Gloo, and Megatron-LM stops at startup ("--distrib-optim-fully-reshardable-mem-efficient requires -enable-gloo-process-groups"). Keep the Gloo groups, or drop `--distrib-optim-fully-reshardable-mem-efficient`.',
    formats: MLM_FLAG_FORMATS,
    since: '0.15.0',
  },
  {
    formats: MLM_FLAG_FORMATS,
    // megatron/arguments.py@core_v0.4.0:283-284, training/arguments.py@d98e8a6:1361-1362; a --yaml-cfg
    // file's validate_yaml asks the same (yaml_arguments.py@core_v0.6.0:255, @d98e8a6:271).
    yamlCfg: true,
    when: (m) => (argGiven(m, 'save') && argAbsent(m, 'save_interval') ? 'save' : undefined),
    message: () => '`--save` without `--save-interval`: Megatron-LM saves a checkpoint every `--save-interval` iterations and has no default for it, so it stops at startup (an assertion that the interval is given with `--save`). Add `--save-interval` (for example 1000), or remove `--save`.',
  },
  {
    formats: MLM_FLAG_FORMATS,
    // training/arguments.py@core_v0.14.0:777-779, @d98e8a6:1361-1363.
    when: (m) => (argGiven(m, 'save') && notPositive(m, 'save_interval') ? 'save_interval' : undefined),
    message: (m) => `\`--save-interval ${String(argValue(m, 'save_interval'))}\` with \`--save\`: the interval must be above zero, and Megatron-LM stops at startup (it asserts \`save_interval > 0\`). Give the number of iterations between saves.`,
    since: '0.14.0',
  },
  {
    formats: MLM_FLAG_FORMATS,
    // training/arguments.py@core_v0.14.0:780-782, @d98e8a6:1364-1366.
    when: (m) => {
      if (!argGiven(m, 'save') || !argGiven(m, 'save_retain_interval')) return undefined;
      if (notPositive(m, 'save_retain_interval')) return 'save_retain_interval';
      const keep = argNum(m, 'save_retain_interval');
      const every = argNum(m, 'save_interval');
      return keep !== undefined && every !== undefined && every > 0 && keep % every !== 0 ? 'save_retain_interval' : undefined;
    },
    message: (m) => `\`--save-retain-interval ${String(argValue(m, 'save_retain_interval'))}\` ${notPositive(m, 'save_retain_interval') ? 'is not above zero' : `is not a multiple of \`--save-interval ${argNum(m, 'save_interval')}\``}: the checkpoints kept must be among those saved, and Megatron-LM stops at startup (it asserts a positive retain interval that is a multiple of the save interval). Use a multiple of the save interval.`,
    since: '0.14.0',
  },
  {
    formats: MLM_FLAG_FORMATS,
    // training/arguments.py@core_v0.18.0:1312-1313, @d98e8a6:1367-1368.
    when: (m) => (argGiven(m, 'save') && argGiven(m, 'save_params_interval') && argOn(m, 'overlap_param_gather') ? 'save_params_interval' : undefined),
    message: () => '`--save-params-interval` with `--overlap-param-gather`: Megatron-LM stops at startup (it asserts that the overlapped parameter all-gather is off when parameters are saved on their own interval). Drop `--overlap-param-gather`, or the parameter saves.',
    since: '0.18.0',
  },
  {
    formats: MLM_FLAG_FORMATS,
    // training/arguments.py@core_v0.14.0:1036-1037, @d98e8a6:1811-1812.
    when: (m) => (argOn(m, 'load_main_params_from_ckpt') && argOff(m, 'no_load_optim') ? 'load_main_params_from_ckpt' : undefined),
    message: () => '`--load-main-params-from-ckpt` without `--no-load-optim`: the main parameters come from the checkpoint in place of the optimizer state, and Megatron-LM stops at startup ("--load-main-params-from-ckpt must be used with --no-load-optim."). Add `--no-load-optim`.',
    since: '0.14.0',
  },
  {
    formats: MLM_FLAG_FORMATS,
    // training/arguments.py@core_v0.11.0:804-805, @d98e8a6:1894-1895.
    when: (m) => (argValue(m, 'non_persistent_ckpt_type') === 'local' && argAbsent(m, 'non_persistent_local_ckpt_dir') ? 'non_persistent_ckpt_type' : undefined),
    message: () => '`--non-persistent-ckpt-type local` without `--non-persistent-local-ckpt-dir`: local checkpoints are written to a node-local directory, and Megatron-LM stops at startup ("Tried to use local checkpointing without specifying --local-ckpt-dir!"). Add `--non-persistent-local-ckpt-dir` with a path on local storage.',
    since: '0.11.0',
  },
  {
    formats: MLM_FLAG_FORMATS,
    // training/arguments.py@core_v0.11.0:806-807, @d98e8a6:1896-1897.
    when: (m) => (argOn(m, 'replication') && argAbsent(m, 'replication_jump') ? 'replication' : undefined),
    message: () => '`--replication` without `--replication-jump`: Megatron-LM stops at startup ("--replication requires the value of --replication-jump!"). Add `--replication-jump` (the rank distance between a node and its replica).',
    since: '0.11.0',
  },
  {
    formats: MLM_FLAG_FORMATS,
    // training/arguments.py@core_v0.11.0:806-808, @d98e8a6:1896-1898.
    when: (m) => {
      if (!argOn(m, 'replication') || !argGiven(m, 'replication_jump')) return undefined;
      const type = argValue(m, 'non_persistent_ckpt_type');
      return argAbsent(m, 'non_persistent_ckpt_type') || (typeof type === 'string' && type !== 'local') ? 'replication' : undefined;
    },
    message: () => '`--replication` without `--non-persistent-ckpt-type local`: replication copies local checkpoints to other nodes, and Megatron-LM stops at startup ("--replication requires args.non_persistent_ckpt_type == \'local\'"). Add `--non-persistent-ckpt-type local` (with `--non-persistent-local-ckpt-dir`), or remove `--replication`.',
    since: '0.11.0',
  },
  {
    formats: MLM_FLAG_FORMATS,
    // training/arguments.py@core_v0.12.0:862-867, @d98e8a6:1667-1672.
    when: (m) => (argValue(m, 'ckpt_format') === 'torch_dcp' && argOff(m, 'use_torch_fsdp2') ? 'ckpt_format' : undefined),
    message: () => '`--ckpt-format torch_dcp` without `--use-torch-fsdp2`: Megatron-LM stops at startup ("--ckpt-format torch_dcp is only tested with FSDP."). Use `--ckpt-format torch_dist`, or train with PyTorch FSDP2.',
    since: '0.12.0',
  },
  {
    formats: MLM_FLAG_FORMATS,
    when: (m) => (argValue(m, 'ckpt_format') === 'torch_dcp' && (above1(m, 'tensor_model_parallel_size') || above1(m, 'pipeline_model_parallel_size')) ? 'ckpt_format' : undefined),
    message: (m) => `\`--ckpt-format torch_dcp\` with ${above1(m, 'tensor_model_parallel_size') ? `TP ${argNum(m, 'tensor_model_parallel_size')}` : `PP ${argNum(m, 'pipeline_model_parallel_size')}`}: Megatron-LM stops at startup ("--ckpt-format torch_dcp is not tested with megatron ${above1(m, 'tensor_model_parallel_size') ? 'tensor' : 'pipeline'} parallelism."). Use \`--ckpt-format torch_dist\`.`,
    since: '0.12.0',
  },
  {
    formats: MLM_FLAG_FORMATS,
    // training/arguments.py@core_v0.14.0:977-978, @d98e8a6:1675-1676.
    when: (m) => (argValue(m, 'ckpt_format') === 'fsdp_dtensor' && argOff(m, 'use_megatron_fsdp') ? 'ckpt_format' : undefined),
    message: () => '`--ckpt-format fsdp_dtensor` without `--use-megatron-fsdp`: Megatron-LM stops at startup ("--ckpt-format fsdp_dtensor is only tested with Megatron FSDP."). Use `--ckpt-format torch_dist`, or train with `--use-megatron-fsdp`.',
    since: '0.14.0',
  },
  {
    formats: MLM_FLAG_FORMATS,
    // training/arguments.py@core_v0.16.0:1187, @core_v0.17.0:1485: under `'muon' in args.optimizer`
    // (muon, dist_muon), the same two formats.
    when: (m) => {
      const o = argValue(m, 'optimizer');
      const f = argValue(m, 'ckpt_format');
      return typeof o === 'string' && o.includes('muon') && typeof f === 'string' && f !== 'torch' && f !== 'torch_dist' ? 'ckpt_format' : undefined;
    },
    message: (m) => `\`--ckpt-format ${String(argValue(m, 'ckpt_format'))}\` with \`--optimizer ${String(argValue(m, 'optimizer'))}\`: Megatron-LM stops at startup ("Muon optimizer supports torch and torch_dist checkpoint format."). Use \`--ckpt-format torch_dist\`.`,
    since: '0.16.0',
    before: '0.18.0',
  },
  {
    formats: MLM_FLAG_FORMATS,
    // training/arguments.py@core_v0.18.0:1567, @d98e8a6:1741: optimizers other than Adam and SGD (Muon
    // and the other emerging ones) save only in the torch and torch_dist formats.
    when: (m) => {
      const o = argValue(m, 'optimizer');
      const f = argValue(m, 'ckpt_format');
      return typeof o === 'string' && o !== 'adam' && o !== 'sgd' && typeof f === 'string' && f !== 'torch' && f !== 'torch_dist' ? 'ckpt_format' : undefined;
    },
    message: (m) => `\`--ckpt-format ${String(argValue(m, 'ckpt_format'))}\` with \`--optimizer ${String(argValue(m, 'optimizer'))}\`: Megatron-LM stops at startup ("Emerging optimizer supports torch and torch_dist checkpoint format."). Use \`--ckpt-format torch_dist\`.`,
    since: '0.18.0',
  },
  {
    formats: MLM_FLAG_FORMATS,
    // training/arguments.py@core_v0.19.0:1751-1756, @d98e8a6:1825-1830: logits go through the async
    // checkpoint queue. --async-save with a distributed format but no persistent worker is turned off
    // just before (@core_v0.19.0:1740-1746; the format defaults to torch_dist).
    when: (m) => {
      if (!argGiven(m, 'logits_save_dir')) return undefined;
      if (argAbsent(m, 'logits_save_top_k')) return 'logits_save_dir';
      if (argOff(m, 'async_save')) return 'logits_save_dir';
      const f = argValue(m, 'ckpt_format');
      const dist = argAbsent(m, 'ckpt_format') || (typeof f === 'string' && f !== 'torch');
      return argOn(m, 'async_save') && argOff(m, 'use_persistent_ckpt_worker') && dist ? 'logits_save_dir' : undefined;
    },
    message: (m) => argAbsent(m, 'logits_save_top_k')
      ? '`--logits-save-dir` without `--logits-save-top-k`: Megatron-LM stops at startup ("--logits-save-top-k is required when --logits-save-dir is set."). Add `--logits-save-top-k` with the number of logits to keep per token.'
      : `\`--logits-save-dir\` ${argOff(m, 'async_save') ? 'without `--async-save`' : 'with `--async-save` but without `--use-persistent-ckpt-worker` (which turns the async save off)'}: logits are written through the asynchronous checkpoint queue, and Megatron-LM stops at startup ("--logits-save-dir requires --async-save (and --use-persistent-ckpt-worker)."). Add \`--async-save\` and \`--use-persistent-ckpt-worker\`.`,
    since: '0.19.0',
  },
  {
    formats: MLM_FLAG_FORMATS,
    // distillation/logits_saver.py@core_v0.19.0:145,153-160 (@d98e8a6:153-159): the saver hooks, built in
    // setup_model_and_optimizer whenever `--logits-save-dir` is set (training.py@core_v0.19.0:2092-2100),
    // refuse a top-k not above 0, a top-p outside (0, 1] and a top-p floor below 1, whatever else is set.
    when: (m) => (argGiven(m, 'logits_save_dir') ? logitsSaverBad(m)?.dest : undefined),
    entry: PRETRAIN_ENTRY,
    yamlCfg: true,
    message: (m) => {
      const b = logitsSaverBad(m)!;
      const flag = primaryFlag(b.dest) ?? b.dest;
      return `${named(m, flag, String(argValue(m, b.dest)))} with ${named(m, '--logits-save-dir')}: ${b.why}, and Megatron-LM stops when it builds the logits saver, before training (${b.quote}). ${b.fix(named(m, flag))}`;
    },
    since: '0.19.0',
  },
  {
    formats: MLM_FLAG_FORMATS,
    // initialize.py@core_v0.4.0:47 to @core_v0.15.0:74 ("--use-checkpoints-args" in the message up to 0.8).
    when: (m) => (argOn(m, 'use_checkpoint_args') && argAbsent(m, 'load') ? 'use_checkpoint_args' : undefined),
    message: () => '`--use-checkpoint-args` without `--load`: the model arguments are read from the checkpoint to load, and Megatron-LM stops at startup ("--use-checkpoint-args requires --load argument"). Add `--load` with the checkpoint directory.',
    before: '0.16.0',
  },
  {
    formats: MLM_FLAG_FORMATS,
    // initialize.py@core_v0.16.0:76-77, arguments.py@core_v0.18.0:103-104 (parse_and_validate_args), @d98e8a6:93-94.
    when: (m) => (argOn(m, 'use_checkpoint_args') && argAbsent(m, 'load') && argAbsent(m, 'pretrained_checkpoint') ? 'use_checkpoint_args' : undefined),
    message: () => '`--use-checkpoint-args` without `--load` or `--pretrained-checkpoint`: the model arguments are read from a checkpoint, and Megatron-LM stops at startup ("--use-checkpoint-args requires --load or --pretrained-checkpoint argument"). Add `--load` (or `--pretrained-checkpoint`) with the checkpoint directory.',
    since: '0.16.0',
  },
  {
    formats: MLM_FLAG_FORMATS,
    // initialize.py@core_v0.11.0:64-65, arguments.py@core_v0.18.0:105, @d98e8a6:95.
    when: (m) => (argOn(m, 'use_checkpoint_args') && argValue(m, 'non_persistent_ckpt_type') === 'local' ? 'use_checkpoint_args' : undefined),
    message: () => '`--use-checkpoint-args` with `--non-persistent-ckpt-type local`: the local checkpoint manager needs every argument before any checkpoint is read, and Megatron-LM stops at startup ("--use-checkpoint-args is not supported with --non_persistent_ckpt_type=local."). Give the model arguments on the command line, or use `global` non-persistent checkpoints.',
    since: '0.11.0',
  },
  {
    formats: MLM_FLAG_FORMATS,
    // training/arguments.py@core_v0.11.0:203-205 to @core_v0.17.0:310-312; the flag is gone from 0.18.
    when: (m) => {
      if (!argOn(m, 'use_legacy_models')) return undefined;
      if (argAbsent(m, 'ckpt_format')) return 'use_legacy_models';
      const f = argValue(m, 'ckpt_format');
      return typeof f === 'string' && f !== 'torch' ? 'ckpt_format' : undefined;
    },
    message: (m) => `\`--use-legacy-models\` with ${argAbsent(m, 'ckpt_format') ? 'the default checkpoint format (`torch_dist`)' : `\`--ckpt-format ${String(argValue(m, 'ckpt_format'))}\``}: the legacy models save only the torch format, and Megatron-LM stops at startup ("legacy model format only supports the 'torch' checkpoint format."). Add \`--ckpt-format torch\`.`,
    since: '0.11.0',
    before: '0.18.0',
  },
  {
    formats: MLM_FLAG_FORMATS,
    // training/arguments.py@d98e8a6:1798-1808: the cache is keyed by the parallelization group.
    when: (m) => {
      if (!argGiven(m, 'ckpt_pg_tensors_cache_path')) return undefined;
      const save = argAbsent(m, 'ckpt_fully_parallel_save_process_group') ? 'dp' : argValue(m, 'ckpt_fully_parallel_save_process_group');
      const load = argAbsent(m, 'ckpt_fully_parallel_load_process_group') ? 'dp' : argValue(m, 'ckpt_fully_parallel_load_process_group');
      return typeof save === 'string' && typeof load === 'string' && save !== load ? 'ckpt_pg_tensors_cache_path' : undefined;
    },
    message: () => '`--ckpt-pg-tensors-cache-path` with different `--ckpt-fully-parallel-save-process-group` and `--ckpt-fully-parallel-load-process-group`: the cache keeps one distribution per parallelization group for both sides, and Megatron-LM stops at startup ("--ckpt-pg-tensors-cache-path requires --ckpt-fully-parallel-save-process-group and --ckpt-fully-parallel-load-process-group to be identical"). Use the same group for both (`dp` is the default of each), or drop the cache path.',
    since: '0.20.0',
  },
  {
    formats: MLM_FLAG_FORMATS,
    // training/arguments.py@core_v0.19.0:1770-1771, @d98e8a6:1851-1852.
    when: (m) => (argGiven(m, 'override_ckpt_iteration') && argOn(m, 'finetune') ? 'override_ckpt_iteration' : undefined),
    message: () => '`--override-ckpt-iteration` with `--finetune`: fine-tuning starts from iteration 0, and Megatron-LM stops at startup ("Cannot override checkpoint iteration together with finetune flag."). Keep one of them.',
    since: '0.19.0',
  },
];

/** `--ckpt-format` as written, when the file writes it as text. */
const writtenFormat = (m: MegatronModel): string | undefined => {
  const f = argValue(m, 'ckpt_format');
  return typeof f === 'string' ? f : undefined;
};

/** The run saves: `--save` given, training not skipped, and not known to stop before its first iteration. */
const saves = (m: MegatronModel): boolean => argGiven(m, 'save') && argOff(m, 'skip_train') && argNum(m, 'train_iters') !== 0;

/**
 * Asynchronous saving in a format save_checkpoint cannot write asynchronously: it raises
 * NotImplementedError at the first save (a periodic one, or the one at the end of training). The legacy
 * `torch` format at every release with the format flag (checkpointing.py@core_v0.9.0:385-386,
 * @d98e8a6:764-767); the other distributed formats than torch_dist up to 0.16 (@core_v0.9.0:387-388,
 * @core_v0.16.0:578), torch_dcp and fsdp_dtensor allowed from 0.17 (@core_v0.17.0:596-597). At 0.16
 * validate_args first turns async save off for a distributed format without the persistent worker
 * (asyncSaveWithoutWorker), so only a run with the worker gets there.
 */
const ASYNC_FORMAT_CHECKS: ArgCheck[] = [
  {
    // Before --ckpt-format (0.7 and 0.8) the distributed checkpoint is `--use-dist-ckpt`, off by default:
    // checkpointing.py@core_v0.7.0:302-304, @core_v0.8.0:323-325.
    when: (m) => (saves(m) && argOn(m, 'async_save') && argOff(m, 'use_dist_ckpt_deprecated') ? 'async_save' : undefined),
    message: () => '`--async-save` without `--use-dist-ckpt`: Megatron-LM 0.7 and 0.8 save the legacy torch format unless `--use-dist-ckpt` is given, write it only synchronously, and stop at the first checkpoint save ("Async checkpoint save not implemented for legacy checkpoints"). Add `--use-dist-ckpt`, or remove `--async-save`.',
    formats: MLM_FLAG_FORMATS,
    since: '0.7.0',
    before: SINCE,
  },
  {
    // checkpointing.py@core_v0.7.0:305-306, @core_v0.8.0:326-327: only torch_dist (the default of
    // --dist-ckpt-format) is saved asynchronously.
    when: (m) => (saves(m) && argOn(m, 'async_save') && argOn(m, 'use_dist_ckpt_deprecated') && argValue(m, 'dist_ckpt_format_deprecated') === 'zarr' ? 'async_save' : undefined),
    message: () => '`--async-save` with `--dist-ckpt-format zarr`: Megatron-LM 0.7 and 0.8 save asynchronously only in torch_dist, and stop at the first checkpoint save ("Async checkpoint save not implemented for zarr distributed checkpoint format"). Use `--dist-ckpt-format torch_dist` (the default), or remove `--async-save`.',
    formats: MLM_FLAG_FORMATS,
    since: '0.7.0',
    before: SINCE,
  },
  {
    when: (m) => (saves(m) && argOn(m, 'async_save') && writtenFormat(m) === 'torch' ? 'async_save' : undefined),
    message: () => '`--async-save` with `--ckpt-format torch`: Megatron-LM writes the legacy torch format only synchronously, and it stops at its first checkpoint save ("Async checkpoint save not implemented for legacy checkpoints"). Use `--ckpt-format torch_dist` (the default), or remove `--async-save`.',
    formats: MLM_FLAG_FORMATS,
    since: SINCE,
  },
  {
    when: (m) => {
      const f = writtenFormat(m);
      return saves(m) && argOn(m, 'async_save') && f !== undefined && f !== 'torch' && f !== 'torch_dist' ? 'async_save' : undefined;
    },
    message: (m) => `\`--async-save\` with \`--ckpt-format ${writtenFormat(m)}\`: before Megatron Core 0.17, Megatron-LM saves asynchronously only in torch_dist, and it stops at its first checkpoint save ("Async checkpoint save not implemented for ${writtenFormat(m)} distributed checkpoint format"). Use \`--ckpt-format torch_dist\`, or remove \`--async-save\`.`,
    formats: MLM_FLAG_FORMATS,
    since: SINCE,
    before: ASYNC_WORKER_SINCE,
  },
  {
    when: (m) => {
      const f = writtenFormat(m);
      return saves(m) && argOn(m, 'async_save') && argOn(m, 'use_persistent_ckpt_worker') && (f === 'torch_dcp' || f === 'fsdp_dtensor') ? 'async_save' : undefined;
    },
    message: (m) => `\`--async-save\` with \`--ckpt-format ${writtenFormat(m)}\`: Megatron-LM 0.16 saves asynchronously only in torch_dist, and it stops at its first checkpoint save ("Async checkpoint save not implemented for ${writtenFormat(m)} distributed checkpoint format"). Use \`--ckpt-format torch_dist\`, remove \`--async-save\`, or use Megatron Core 0.17 or later.`,
    formats: MLM_FLAG_FORMATS,
    since: ASYNC_WORKER_SINCE,
    before: '0.17.0',
  },
];

/**
 * The dump intervals train_step tests with `(iteration + 1) % interval` at every iteration, whatever
 * else is set: 0 divides by zero at the first one (training.py@core_v0.16.0:1609-1612 for the weight
 * and data gradients, @core_v0.18.0:2168-2177 for all five, @d98e8a6:3028-3037). A negative interval
 * runs (as its absolute value), and nothing checks the value at startup.
 */
const DUMP_INTERVALS: [string, string][] = [
  ['save_wgrads_interval', '0.16.0'],
  ['save_dgrads_interval', '0.16.0'],
  ['save_params_interval', '0.18.0'],
  ['save_activations_interval', '0.18.0'],
  ['save_tokens_per_expert_interval', '0.18.0'],
];
/** The run trains: not skipped, and not known to run no iteration. */
const trains = (m: MegatronModel): boolean => argOff(m, 'skip_train') && argNum(m, 'train_iters') !== 0;
const DUMP_CHECKS: ArgCheck[] = DUMP_INTERVALS.map(([dest, since]) => ({
  when: (m) => (trains(m) && argGiven(m, dest) && argNum(m, dest) === 0 ? dest : undefined),
  message: () => `\`--${dest.replace(/_/g, '-')} 0\`: Megatron-LM tests every iteration against the interval with a modulo, and it stops at the first training iteration (ZeroDivisionError). Leave the flag out to dump nothing, or give a positive interval.`,
  formats: MLM_FLAG_FORMATS,
  since,
}));

/**
 * megatron/training/arguments.py, validate_args: the non-persistent checkpoint types it saves
 * (`global` only at core_v0.9.0:158-159 and core_v0.10.0:189-190; `global` or `local` from
 * core_v0.11.0:190-191, the same at d98e8a6:398-399), though `--non-persistent-ckpt-type` also offers
 * `in_memory`; and a checkpoint conversion needs where to save and what to load (initialize.py@core_v0.9.0:54-56,
 * moved into validate_args at core_v0.18.0, d98e8a6:392-394).
 */
const CHECKS: ArgCheck[] = [
  {
    when: (m) => (argValue(m, 'non_persistent_ckpt_type') === 'in_memory' ? 'non_persistent_ckpt_type' : undefined),
    message: () => '`--non-persistent-ckpt-type in_memory`: the flag offers it, but Megatron-LM saves only global and local non-persistent checkpoints and stops at startup ("Currently only global and local checkpoints are supported"). Use `global` (or `local`, with NVIDIA Resiliency Extension installed).',
    formats: MLM_FLAG_FORMATS,
    since: '0.11.0',
  },
  {
    when: (m) => (['in_memory', 'local'].includes(String(argValue(m, 'non_persistent_ckpt_type'))) ? 'non_persistent_ckpt_type' : undefined),
    message: (m) => `\`--non-persistent-ckpt-type ${argValue(m, 'non_persistent_ckpt_type')}\`: before Megatron Core 0.11 the flag offers it, but Megatron-LM saves only global non-persistent checkpoints and stops at startup ("Currently only global checkpoints are supported"). Use \`global\`.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.9.0',
    before: '0.11.0',
  },
  {
    when: (m) => (argGiven(m, 'ckpt_convert_format') ? (argAbsent(m, 'ckpt_convert_save') ? 'ckpt_convert_format' : argAbsent(m, 'load') ? 'ckpt_convert_format' : undefined) : undefined),
    message: (m) => `\`--ckpt-convert-format\` without ${argAbsent(m, 'ckpt_convert_save') ? `\`--ckpt-convert-save\`${argAbsent(m, 'load') ? ' and `--load`' : ''}` : '`--load`'}: a conversion loads a checkpoint and saves it in the new format under \`--ckpt-convert-save\`, and Megatron-LM stops at startup (an assertion that both are given). Add ${argAbsent(m, 'ckpt_convert_save') ? `\`--ckpt-convert-save DIR\`${argAbsent(m, 'load') ? ' and `--load DIR`' : ''}` : '`--load DIR`'}, or drop \`--ckpt-convert-format\`.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.9.0',
  },
];

export default defineRule<MegatronModel>({
  id: 'checkpoint-config-invalid',
  severity: 'error',
  formats: [...MLM_FLAG_FORMATS, 'megatron-bridge'],
  docs: {
    summary: 'Checkpoint arguments that stop Megatron-LM at startup or when it saves (`--save` without `--save-interval`, save or retain intervals it refuses, local checkpoints or replication without their settings, a checkpoint format without the FSDP it needs, a legacy or memory-efficient reshardable save without Gloo groups, a non-persistent save interval without a non-persistent checkpoint type, a non-persistent type it does not save, a checkpoint conversion without a place to save or a checkpoint to load, `--use-checkpoint-args` without a checkpoint or with local checkpoints, the legacy models in a distributed format, a tensor-distribution cache with different save and load groups, a logits dump (from 0.19) without its top-k or the async save, or with a top-k not above 0, a top-p outside (0, 1] or a top-p floor below 1, which the logits saver refuses before training) or that stop it at the first save (asynchronous saving in a format it cannot write asynchronously) or at the first iteration (a dump interval of 0) or that it switches off at startup (async save without the persistent checkpoint worker), or that stop Megatron Bridge when it validates the config (asynchronous or Gloo-less saving in a format it does not take there, fsdp_dtensor checkpoints without Megatron-FSDP, asynchronous saving without a save directory, the main parameters from a checkpoint with its optimizer state, a checkpoint step without a checkpoint to load, the Hugging Face export beside fsdp_dtensor or local non-persistent checkpoints) or at its first non-persistent save (a non-persistent save interval with the type `in_memory`, which its config accepts, or null).',
    why: '`--non-persistent-save-interval` makes Megatron-LM save a non-persistent checkpoint every N iterations (unless a persistent save falls on the same one), and from Megatron Core 0.9, where the interval appeared, that save stops the run unless `--non-persistent-ckpt-type` is `global` or `local`; the type has no default. The run fails at its first non-persistent save, after N iterations of work. It is an error when the file runs that many iterations (`--train-iters`), a warning when it does not say. From Megatron Core 0.16, `--async-save` with a distributed checkpoint format (the default `torch_dist`) needs `--use-persistent-ckpt-worker`: without it Megatron-LM prints a warning and turns async save off, so every save blocks training (a warning). Megatron Bridge checks an override file\'s checkpoint settings when it validates the config, at every release: `async_save` writes only the distributed formats (`torch_dist`; also `fsdp_dtensor` from Bridge 0.5) and needs `use_persistent_ckpt_worker`, and with `dist.use_gloo_process_groups: false` the distributed optimizer cannot save the legacy `torch` format (nor, before Bridge 0.5, `fsdp_dtensor`); a run that saves or loads `fsdp_dtensor` checkpoints needs Megatron-FSDP, judged here where the file writes both `ddp.use_megatron_fsdp` and `dist.use_megatron_fsdp` false (either one on turns both on; the PyTorch FSDP2 case is fsdp-config-invalid\'s); at every release it also refuses `async_save` with `save: null` and `load_main_params_from_ckpt` with `load_optim: true`; from Bridge 0.2 (Megatron Core 0.15) `dist_ckpt_optim_fully_reshardable` beside `distrib_optim_fully_reshardable_mem_efficient`, and `ckpt_step` with `load: null`; from Bridge 0.6 (Megatron Core 0.19) `also_save_hf_checkpoint` with `ckpt_format: fsdp_dtensor` or `non_persistent_ckpt_type: local`. Only the fields the file writes are judged. Bridge has no startup check of the non-persistent checkpoint type: with `checkpoint.non_persistent_save_interval` set, its first non-persistent save (a multiple of the interval that is not a persistent save) stops unless the type is `global` or `local`, so `in_memory`, which its config accepts, and an explicit null fail after that many iterations (an error when the file writes the save directory, the persistent interval and the run length; otherwise a warning that names what the recipe must supply). Megatron-LM\'s argument checks refuse other combinations at startup: `--save` without `--save-interval` (every release); from 0.14 a save interval that is not above zero and a `--save-retain-interval` that is not a positive multiple of it, and `--load-main-params-from-ckpt` without `--no-load-optim`; from 0.18 `--save-params-interval` with `--overlap-param-gather`; from 0.11 `--non-persistent-ckpt-type local` without `--non-persistent-local-ckpt-dir`, and `--replication` without `--replication-jump` or without local checkpoints; from 0.12, with the distributed optimizer and `--disable-gloo-process-groups`, `--ckpt-format torch` (and from 0.15 `--distrib-optim-fully-reshardable-mem-efficient` with `--dist-ckpt-optim-fully-reshardable`); from 0.12 `--ckpt-format torch_dcp` without PyTorch FSDP2 or with tensor or pipeline parallelism; from 0.14 `--ckpt-format fsdp_dtensor` without `--use-megatron-fsdp`; from 0.16 Muon, and from 0.18 any optimizer other than Adam or SGD, with a format other than `torch` or `torch_dist`; from 0.19 `--override-ckpt-iteration` with `--finetune`, and `--logits-save-dir` without `--logits-save-top-k` or without an asynchronous save that stays on. At startup, Megatron-LM refuses `--non-persistent-ckpt-type in_memory`, which the flag offers but nothing saves (and `local` too before Megatron Core 0.11), and `--ckpt-convert-format` without both `--ckpt-convert-save` and `--load`; `--use-checkpoint-args` without `--load` (from 0.16 `--pretrained-checkpoint` also serves), and from 0.11 with `--non-persistent-ckpt-type local`; from 0.11 to 0.17 `--use-legacy-models` without `--ckpt-format torch` (the default is `torch_dist`); and from 0.20 `--ckpt-pg-tensors-cache-path` unless the fully parallel save and load groups are the same. `--async-save` stops the run at its first checkpoint save (periodic or at the end of training) in the legacy `torch` format at every release (in 0.7 and 0.8, where the format is chosen by `--use-dist-ckpt` and `--dist-ckpt-format`, without `--use-dist-ckpt` or with the `zarr` format), and before Megatron Core 0.17 in any format but `torch_dist` (at 0.16 only where the persistent worker keeps async save on). An interval of 0 for the gradient dumps (`--save-wgrads-interval`, `--save-dgrads-interval`, from 0.16) or the parameter, activation and tokens-per-expert dumps (from 0.18) stops the run at its first training iteration (a division by zero). A `--yaml-cfg` file meets only the `--save-interval` check of these argument checks (the reader\'s own validate_yaml); the others are not made for it.',
    bad: '# shardwise: format=megatron-yaml world_size=8 megatron_core=0.19.0\nMODEL_ARGS:\n  --num-layers: 32\n  --train-iters: 1000\n  --eval-interval: 1000\n  --save: /ckpt\n  --save-interval: 1000\n  --non-persistent-save-interval: 100\n',
    good: '# shardwise: format=megatron-yaml world_size=8 megatron_core=0.19.0\nMODEL_ARGS:\n  --num-layers: 32\n  --train-iters: 1000\n  --eval-interval: 1000\n  --save: /ckpt\n  --save-interval: 1000\n  --non-persistent-save-interval: 100\n  --non-persistent-ckpt-type: global\n',
    upstream: [
      { label: 'Megatron-LM core_v0.14.0, `validate_args`: `--save` needs a positive `--save-interval`, and the retain interval a multiple of it', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.14.0/megatron/training/arguments.py#L777-L782' },
      { label: 'Megatron-LM core_v0.9.0, `save_checkpoint`: a non-persistent save needs a global or local type', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.9.0/megatron/training/checkpointing.py#L337-L353' },
      { label: 'Megatron-LM core_v0.16.0, `validate_args`: async save turned off without the persistent checkpoint worker', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.16.0/megatron/training/arguments.py#L1138-L1143' },
    ],
  },
  check(ctx) {
    if (ctx.format === 'megatron-bridge') {
      ctx.separately(() => bridgeNonPersistentType(ctx));
      runChecks(ctx, BRIDGE_CHECKS);
      runChecks(ctx, BRIDGE_CHECKPOINT_CHECKS);
      return;
    }
    ctx.separately(() => nonPersistentWithoutType(ctx));
    ctx.separately(() => asyncSaveWithoutWorker(ctx));
    runChecks(ctx, STARTUP_CHECKS);
    runChecks(ctx, CHECKS);
    runChecks(ctx, ASYNC_FORMAT_CHECKS);
    runChecks(ctx, DUMP_CHECKS);
  },
});
