/**
 * The environment a launch script exports for `--deterministic-mode`: the values Megatron refuses there.
 *
 * From Megatron Core 0.19 validate_args hands the deterministic mode to apply_determinism_to_args
 * (training/arguments.py@core_v0.19.0:1653-1656, @d98e8a6:1708-1711), which checks the variables it
 * finds set (training/determinism.py@core_v0.19.0:87-111, @d98e8a6:88-113): each `NCCL_ALGO` token must
 * be Ring, CollnetDirect, CollnetChain or ^NVLS; `NVTE_ALLOW_NONDETERMINISTIC_ALGO` must be `0`;
 * `CUBLAS_WORKSPACE_CONFIG` `:4096:8` or `:16:8`; a non-empty `MAMBA_DETERMINISTIC` (and after 0.19
 * `CAUSAL_CONV1D_DETERMINISTIC`) must start with `1`. A variable left unset is filled in there, so only
 * a value the script exports as written is judged (one it leaves out may still come from the
 * environment that runs it, which is also why no variable is asked for).
 *
 * Before 0.19 (from 0.8) validate_args refuses an `NCCL_ALGO` that is not one of NCCL_WHOLE, and
 * Transformer Engine's attention refuses a non-zero
 * `NVTE_ALLOW_NONDETERMINISTIC_ALGO` in deterministic mode when the layers are built
 * (transformer/custom_layers/transformer_engine.py@core_v0.8.0:470-476, extensions/transformer_engine.py@core_v0.18.2:1697-1703;
 * still there at d98e8a6:2155-2161, after the check above).
 */
import { argAbsent, argOn, argValue, MLM_FLAG_FORMATS, type MegatronModel } from '../../formats/megatron/model';
import { envLiteral, envMentioned } from '../../formats/megatron/checks';
import type { RuleContext } from '../rule';

const NCCL_TOKENS = ['Ring', 'CollnetDirect', 'CollnetChain', '^NVLS'];
/**
 * Before 0.19 (from 0.8) validate_args asserts that `NCCL_ALGO` is set and is, as a whole, one of these
 * (training/arguments.py@core_v0.8.0:556-561, @core_v0.15.0:1073-1079, @core_v0.18.2:1536-1542): no list,
 * and an unset variable is refused too.
 */
const NCCL_WHOLE = ['Tree', 'Ring', 'CollnetDirect', 'CollnetChain', '^NVLS'];
const NCCL_WHOLE_QUOTE = "NCCL_ALGO must be one of ['Tree', 'Ring', 'CollnetDirect', 'CollnetChain', '^NVLS'].";
const NVTE_QUOTE = 'deterministic_mode is on and we are using DotProductAttention from Transformer Engine, but NVTE_ALLOW_NONDETERMINISTIC_ALGO is not 0.';
const CUBLAS = [':4096:8', ':16:8'];

interface EnvRule {
  name: string;
  since: string;
  /** The value as the script exports it is refused: why, in words. */
  refused(value: string): string | undefined;
  quote(value: string): string;
  fix: string;
}

const RULES: EnvRule[] = [
  {
    name: 'NCCL_ALGO',
    since: '0.19.0',
    refused: (v) => {
      const tokens = v.split(',').map((t) => t.trim()).filter((t) => t);
      const bad = tokens.filter((t) => !NCCL_TOKENS.includes(t));
      return !tokens.length ? 'names no algorithm' : bad.length ? `names ${bad.map((t) => `\`${t}\``).join(', ')}, which the deterministic mode does not accept` : undefined;
    },
    quote: (v) => `NCCL_ALGO='${v}': each token must be in ['CollnetChain', 'CollnetDirect', 'Ring', '^NVLS'].`,
    fix: 'Use `NCCL_ALGO=Ring` (the value Megatron sets when the variable is unset), or leave it out.',
  },
  {
    name: 'NVTE_ALLOW_NONDETERMINISTIC_ALGO',
    since: '0.19.0',
    refused: (v) => (v !== '0' ? 'lets Transformer Engine pick non-deterministic kernels' : undefined),
    quote: (v) => `NVTE_ALLOW_NONDETERMINISTIC_ALGO='${v}' is not a deterministic setting. Accepted: ['0'].`,
    fix: 'Export `NVTE_ALLOW_NONDETERMINISTIC_ALGO=0`, or leave it out (Megatron then sets 0).',
  },
  {
    name: 'CUBLAS_WORKSPACE_CONFIG',
    since: '0.19.0',
    refused: (v) => (!CUBLAS.includes(v) ? 'is not one of cuBLAS\'s two deterministic workspace settings' : undefined),
    quote: (v) => `CUBLAS_WORKSPACE_CONFIG='${v}' is not a deterministic setting. Accepted: [':16:8', ':4096:8'].`,
    fix: 'Use `:4096:8` or `:16:8`, or leave it out (Megatron then sets `:4096:8`).',
  },
  ...(['MAMBA_DETERMINISTIC', 'CAUSAL_CONV1D_DETERMINISTIC'] as const).map(
    (name): EnvRule => ({
      name,
      since: name === 'MAMBA_DETERMINISTIC' ? '0.19.0' : '0.20.0',
      refused: (v) => (v !== '' && v[0] !== '1' ? 'turns the SSM kernels\' determinism off' : undefined),
      quote: (v) => (name === 'MAMBA_DETERMINISTIC' ? `MAMBA_DETERMINISTIC='${v}' disables` : `${name}='${v}' disables SSM determinism under --deterministic-mode.`),
      fix: `Set \`${name}=1\`, or leave it out (it then follows the deterministic mode).`,
    }),
  ),
];

/** Transformer Engine attention (the default implementation from 0.6, in Megatron Core's model, the default from 0.8). */
function teAttention(m: MegatronModel): boolean {
  const impl = argValue(m, 'transformer_impl');
  return (impl === 'transformer_engine' || argAbsent(m, 'transformer_impl')) && !argOn(m, 'use_legacy_models');
}

export function determinismEnv(ctx: RuleContext<MegatronModel>): void {
  const m = ctx.model;
  const env = m.args.env;
  if (!env || m.args.yamlCfg || !(MLM_FLAG_FORMATS as readonly string[]).includes(ctx.format)) return;
  if (!ctx.atLeast('0.8.0') || !argOn(m, 'deterministic_mode')) return;
  const from19 = ctx.atLeast('0.19.0');
  // Each variable on its own: what one of them rests on (a branch the script does not decide) does not weigh on another's finding.
  ctx.each(RULES, (r) => {
    const v = env.get(r.name);
    // Only a value the processes are known to see: exported, as written (not `${X:-…}`, not unknown).
    if (!v || v.unknown || !v.exported || v.value === undefined || !envLiteral(ctx.doc.text, v)) return;
    const value = v.value;
    if (from19) {
      if (!ctx.atLeast(r.since)) return;
      const why = r.refused(value);
      if (!why) return;
      ctx.report({
        at: v.span ?? v.path,
        on: 'value',
        message: `\`${r.name}=${value}\` with \`--deterministic-mode\`: it ${why}, and from Megatron Core 0.19 Megatron-LM checks the deterministic mode's environment at startup and stops ("${r.quote(value)}"). ${r.fix}`,
      });
    } else if (r.name === 'NVTE_ALLOW_NONDETERMINISTIC_ALGO' && /^\s*[+-]?\d+\s*$/.test(value) && Number(value) !== 0 && teAttention(m)) {
      ctx.report({
        at: v.span ?? v.path,
        on: 'value',
        message: `\`${r.name}=${value}\` with \`--deterministic-mode\`: Transformer Engine's attention then may pick non-deterministic kernels, and Megatron Core stops when it builds the attention layers ("${NVTE_QUOTE}"). Export \`${r.name}=0\`.`,
      });
    } else if (r.name === 'NCCL_ALGO' && !NCCL_WHOLE.includes(value)) {
      ctx.report({
        at: v.span ?? v.path,
        on: 'value',
        message: `\`NCCL_ALGO=${value}\` with \`--deterministic-mode\`: before Megatron Core 0.19 Megatron-LM's argument checks take the variable as a whole (no list, and the letter case counts) and accept only Tree, Ring, CollnetDirect, CollnetChain or ^NVLS, so they stop at startup ("${NCCL_WHOLE_QUOTE}"). Export \`NCCL_ALGO=Ring\`.`,
      });
    }
  });
  if (!from19) ctx.separately(() => unsetBefore19(ctx));
}

/**
 * Before 0.19 nothing fills the deterministic mode's variables in (training/determinism.py, which sets
 * the ones left unset, arrives in 0.19): a launch that does not give `NCCL_ALGO` stops in validate_args,
 * and under Transformer Engine attention one that does not give `NVTE_ALLOW_NONDETERMINISTIC_ALGO=0`
 * stops when the attention layers are built, since Transformer Engine's attention takes the unset
 * variable as 1 (custom_layers/transformer_engine.py@core_v0.8.0:470-476, extensions/transformer_engine.py@core_v0.18.2:1697-1703).
 * The environment that runs the file may set them, so each is a warning that names that assumption.
 */
function unsetBefore19(ctx: RuleContext<MegatronModel>): void {
  const m = ctx.model;
  const env = m.args.env!;
  const script = ctx.doc.syntax === 'shell';
  const at = m.args.get('deterministic_mode')?.path ?? [];
  // Not set by the file, nor named elsewhere in it (`mpirun -x NAME`, `env NAME=…`, a runtime-env JSON,
  // through which the processes may get it).
  const missing = (name: string): boolean => env.get(name) === undefined && !envMentioned(ctx.doc.text, name);
  const where = script ? 'this script' : 'this file\'s environment';
  const assumed = `this assumes the environment that runs ${script ? 'the script' : 'the file'} does not set it either`;
  const add = (name: string, value: string) => (script ? `Add \`export ${name}=${value}\` before the launch.` : `Set \`${name}: ${value}\` in the environment of the run.`);
  if (missing('NCCL_ALGO')) {
    ctx.report({
      at,
      severity: 'warning',
      message: `\`--deterministic-mode\`, and ${where} does not set \`NCCL_ALGO\`: before Megatron Core 0.19 Megatron-LM's argument checks stop at startup unless the training processes get it set to one of Tree, Ring, CollnetDirect, CollnetChain or ^NVLS ("${NCCL_WHOLE_QUOTE}"); ${assumed}. ${add('NCCL_ALGO', 'Ring')}`,
    });
  }
  if (teAttention(m) && missing('NVTE_ALLOW_NONDETERMINISTIC_ALGO')) {
    ctx.report({
      at,
      severity: 'warning',
      message: `\`--deterministic-mode\` with Transformer Engine attention, and ${where} does not set \`NVTE_ALLOW_NONDETERMINISTIC_ALGO\`: before Megatron Core 0.19 nothing sets it, Transformer Engine's attention takes an unset variable as 1 (non-deterministic kernels allowed), and Megatron Core stops when it builds the attention layers ("${NVTE_QUOTE}"); ${assumed}. ${add('NVTE_ALLOW_NONDETERMINISTIC_ALGO', '0')}`,
    });
  }
}
