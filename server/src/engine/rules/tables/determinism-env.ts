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
 * Before 0.19 (from 0.8) Transformer Engine's attention refuses a non-zero
 * `NVTE_ALLOW_NONDETERMINISTIC_ALGO` in deterministic mode when the layers are built
 * (transformer/custom_layers/transformer_engine.py@core_v0.8.0:470-476, extensions/transformer_engine.py@core_v0.18.2:1697-1703;
 * still there at d98e8a6:2155-2161, after the check above).
 */
import { argAbsent, argOn, argValue, MLM_FLAG_FORMATS, type MegatronModel } from '../../formats/megatron/model';
import { envLiteral } from '../../formats/megatron/checks';
import type { RuleContext } from '../rule';

const NCCL_TOKENS = ['Ring', 'CollnetDirect', 'CollnetChain', '^NVLS'];
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
        message: `\`${r.name}=${value}\` with \`--deterministic-mode\`: Transformer Engine's attention then may pick non-deterministic kernels, and Megatron Core stops when it builds the attention layers ("deterministic_mode is on and we are using DotProductAttention from Transformer Engine, but NVTE_ALLOW_NONDETERMINISTIC_ALGO is not 0."). Export \`${r.name}=0\`.`,
      });
    }
  });
}
