/**
 * checkpoint-config-invalid: checkpoint arguments that stop Megatron-LM's training when it saves.
 *
 * `--non-persistent-save-interval N` with `--save`: at every N-th iteration that is not also a
 * persistent save (`--save-interval`; the persistent save comes first, training.py@core_v0.9.0:1364-1376,
 * @d98e8a6:4074-4099) train() calls save_checkpoint(..., non_persistent_ckpt=True), which stops unless
 * `--non-persistent-ckpt-type` is `global` or `local` (an assertion at checkpointing.py@core_v0.9.0:352-353,
 * a NotImplementedError at @d98e8a6:688-690). The type's default is None (arguments.py@core_v0.9.0:1381,
 * the same at d98e8a6), so the interval alone stops the run at its first non-persistent save.
 */
import { argAbsent, argGiven, argNum, argValue, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { runChecks, type ArgCheck } from '../formats/megatron/checks';
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
  formats: MLM_FLAG_FORMATS,
  docs: {
    summary: 'Checkpoint arguments that stop Megatron-LM: a non-persistent save interval without a non-persistent checkpoint type (when it saves), a non-persistent type it does not save, or a checkpoint conversion without a place to save or a checkpoint to load (at startup).',
    why: '`--non-persistent-save-interval` makes Megatron-LM save a non-persistent checkpoint every N iterations (unless a persistent save falls on the same one), and from Megatron Core 0.9, where the interval appeared, that save stops the run unless `--non-persistent-ckpt-type` is `global` or `local`; the type has no default. The run fails at its first non-persistent save, after N iterations of work. It is an error when the file runs that many iterations (`--train-iters`), a warning when it does not say. At startup, Megatron-LM refuses `--non-persistent-ckpt-type in_memory`, which the flag offers but nothing saves (and `local` too before Megatron Core 0.11), and `--ckpt-convert-format` without both `--ckpt-convert-save` and `--load`.',
    bad: '# shardwise: format=megatron-yaml world_size=8 megatron_core=0.19.0\nMODEL_ARGS:\n  --num-layers: 32\n  --train-iters: 1000\n  --save: /ckpt\n  --non-persistent-save-interval: 100\n',
    good: '# shardwise: format=megatron-yaml world_size=8 megatron_core=0.19.0\nMODEL_ARGS:\n  --num-layers: 32\n  --train-iters: 1000\n  --save: /ckpt\n  --non-persistent-save-interval: 100\n  --non-persistent-ckpt-type: global\n',
    upstream: [
      { label: 'Megatron-LM core_v0.9.0, `save_checkpoint`: a non-persistent save needs a global or local type', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.9.0/megatron/training/checkpointing.py#L337-L353' },
    ],
  },
  check(ctx) {
    ctx.separately(() => nonPersistentWithoutType(ctx));
    runChecks(ctx, CHECKS);
  },
});
