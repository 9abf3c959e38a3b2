/**
 * missing-cuda-device-max-connections: TP/CP/SP without `CUDA_DEVICE_MAX_CONNECTIONS=1`, or FSDP with it.
 *
 * When Megatron-LM's argument checks (megatron/training/arguments.py, validate_args) refuse to start
 * without the variable at 1, which depends on the release:
 *   - 0.4–0.11: whenever sequence parallelism is on (after it is turned off at TP 1) or the async
 *     tensor-parallel all-reduce is (on unless `--no-async-tensor-model-parallel-allreduce`), so with
 *     the default flags even at TP 1; no hardware or FSDP exception.
 *   - 0.12: TP > 1 on any GPU, CP > 1 before Blackwell (the condition is written without parentheses),
 *     unless Torch FSDP2 or custom FSDP is on (a warning then).
 *   - 0.13 and later: TP > 1 or CP > 1, before Blackwell, unless FSDP (or, from 0.14, EP all-to-all
 *     overlap) is on: upstream only warns then.
 *   - FSDP from 0.12 asserts the opposite: the variable must not be 1.
 * Megatron Bridge does not run those checks: Megatron Core only warns that the overlap is slower
 * (megatron/core/tensor_parallel/layers.py), and Bridge itself asserts only the FSDP case, for
 * Megatron-FSDP from Bridge 0.5 (Megatron Core 0.18; src/megatron/bridge/training/config.py@v0.5.0:1136-1137,
 * absent at v0.4.2). For TP/CP a Bridge override gets advice only where it writes what decides
 * whether a single queue is wanted (FSDP and the EP all-to-all overlap off): the recipe decides the rest.
 */
import { checkoutSays } from '../formats/megatron/checkout';
import { MLM_FLAG_FORMATS, argNum, argOn, argValue, type MegatronModel } from '../formats/megatron/model';
import { hardwareById } from '../plan/hardware';
import { allKnown } from '../plan/layout';
import type { Path, Severity } from '../types';
import { envLiteral, envMentioned } from '../formats/megatron/checks';
import { defineRule, type RuleContext } from './rule';

const BLACKWELL = ['b200', 'gb200-nvl72', 'gb300-nvl72'];
const VAR = 'CUDA_DEVICE_MAX_CONNECTIONS';

/** What upstream does when the variable is not 1. */
interface Need {
  /** `stop`: the argument checks refuse to start; `slow`: only the overlap loses its ordering. */
  effect: 'stop' | 'slow';
  /** The effect holds only before Blackwell (so only as sure as the hardware is known). */
  preBlackwell: boolean;
  /** What needs it, for the message ("TP 8", "sequence parallelism"). */
  what: string;
  /** Upstream's own words when it stops. */
  quote?: string;
  /** Why it applies here, when that is not obvious. */
  note?: string;
  at: Path;
}

function fieldAt(f: { from: { kind: string; path?: Path } }): Path | undefined {
  return f.from.kind === 'written' ? f.from.path : undefined;
}

export default defineRule<MegatronModel>({
  id: 'missing-cuda-device-max-connections',
  severity: 'warning',
  formats: ['megatron-args', 'megatron-yaml', 'megatron-bridge'],
  docs: {
    summary: 'Tensor, context or sequence parallelism without `CUDA_DEVICE_MAX_CONNECTIONS=1` (before Blackwell), or FSDP with it.',
    why: 'Megatron overlaps TP/CP communication with computation by relying on the order in which kernels reach the GPU, which only holds with a single hardware work queue: `CUDA_DEVICE_MAX_CONNECTIONS=1` (needed on Hopper and earlier). FSDP needs the opposite: several queues, and Megatron stops when the variable is 1 ("FSDP always requires CUDA_DEVICE_MAX_CONNECTIONS value large than one"). Megatron-LM checks it at startup: from 0.4 to 0.11 whenever sequence parallelism or the asynchronous TP all-reduce is on (TP 1 included), from 0.12 for TP > 1 (and CP > 1 before Blackwell), from 0.13 for TP or CP > 1 before Blackwell; a file that shows its environment without the variable is then an error. Megatron Bridge does not stop on TP or CP, so there it is advice, given only where the override itself turns off what wants several queues (FSDP, the expert-parallel all-to-all overlap), which the recipe decides otherwise: a warning where the override sets the variable to another value, a note where it leaves it out (the recipe or the launcher may still set it). Bridge stops on Megatron-FSDP with the variable at 1 from Bridge 0.5 (Megatron Core 0.18) only. In a shell script it must be exported to reach the training processes, and a script that does not set it may be run from an environment that does (a warning).',
    bad: '# shardwise: format=megatron-yaml world_size=8 hardware=h100-sxm\nENV_VARS:\n  NCCL_DEBUG: WARN\nMODEL_ARGS:\n  --tensor-model-parallel-size: 4\n  --sequence-parallel: true\n',
    good: '# shardwise: format=megatron-yaml world_size=8 hardware=h100-sxm\nENV_VARS:\n  CUDA_DEVICE_MAX_CONNECTIONS: 1\nMODEL_ARGS:\n  --tensor-model-parallel-size: 4\n  --sequence-parallel: true\n',
    shell: {
      bad: '#!/bin/bash\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 8 --sequence-parallel \\\n    --micro-batch-size 1 --global-batch-size 64\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 8 --sequence-parallel \\\n    --micro-batch-size 1 --global-batch-size 64\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.15.3, `tensor_parallel/layers.py`: the sequence-parallel all-gather relies on `CUDA_DEVICE_MAX_CONNECTIONS=1` for its order', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.15.3/megatron/core/tensor_parallel/layers.py#L512-L519' },
    ],
  },
  check(ctx) {
    const m = ctx.model;
    const p = ctx.plan;
    const env = m.args.env;
    // No environment in this file (a `--yaml-cfg` file, an override without `env_vars`): nothing to check.
    if (!p || !env) return;
    const cdmc = env.get(VAR);
    // A value the file cannot know (`$CDMC`, `$(...)`, set in a loop): nothing to say about it.
    if (cdmc?.unknown) return;
    // A value that goes through a variable (`${CDMC:-8}`) is the script's default: the environment
    // that runs it may still override it.
    const literal = envLiteral(ctx.doc.text, cdmc);
    const mlm = (MLM_FLAG_FORMATS as readonly string[]).includes(ctx.format);
    const v = ctx.schemaVersion;
    const before = (release: string) => !ctx.atLeast(release);
    const release = v ? `${ctx.versions} ${v}` : `current ${ctx.versions} releases`;

    // FSDP: the variable must not be 1 (Megatron-LM from 0.12; Bridge for Megatron-FSDP from Bridge
    // 0.5, i.e. Megatron Core 0.18, where its experimental version 2 skips the check).
    const mlmFsdp = () => argOn(m, 'use_torch_fsdp2') || argOn(m, 'use_megatron_fsdp') || argOn(m, 'use_custom_fsdp');
    const fsdp = mlm ? mlmFsdp() && !before('0.12.0') : argOn(m, 'use_megatron_fsdp') || argOn(m, 'use_torch_fsdp2');
    if (fsdp) {
      // Megatron-FSDP version 2 (from Megatron Core 0.20, Bridge after 0.6) takes another path, without
      // the check, and the recipe may choose it: there the file must write version 1 for a finding.
      const v2 = () => ctx.atLeast('0.20.0') && argNum(m, 'megatron_fsdp_version') !== 1;
      const asserts = mlm || (argOn(m, 'use_megatron_fsdp') && ctx.atLeast('0.18.0') && !v2());
      if (asserts && cdmc?.value === '1') {
        // megatron/training/arguments.py words it one way for Torch FSDP2 (and, before 0.18, for every FSDP).
        const quote = mlm && (argOn(m, 'use_torch_fsdp2') || before('0.18.0')) ? `FSDP always requires ${VAR} value large than one` : `FSDP requires ${VAR} > 1 or unset.`;
        if (mlm && checkoutSays(ctx.settings.megatronCheckout, quote) === false) return;
        const caveat = !cdmc.exported ? '; here only if the environment running the script already exports the variable, since this assignment is not exported' : !literal ? '; here unless the environment overrides this default' : '';
        ctx.report({
          at: cdmc.span ?? cdmc.path,
          on: 'value',
          severity: cdmc.exported && literal ? 'error' : 'warning',
          message: `FSDP needs several CUDA work queues, and \`${VAR}\` is 1: ${ctx.tool} stops at startup ("${quote}"${caveat}). Remove it or set it above 1 (e.g. 8).`,
        });
      }
      return;
    }

    // The hardware is read only where the answer depends on it (a check that holds before Blackwell).
    const hw = () => p.hardware.profile.id;
    const blackwell = () => BLACKWELL.includes(hw());
    const hint = m.args.hardwareHint;
    const need = mlm ? megatronLmNeed(m, p, before, blackwell) : bridgeNeed(m, p, blackwell);
    if (!need) return;
    // The checkout that runs has its own copy of the argument checks: one that dropped this check (a
    // fork that comments it out to run with several queues) does not stop, and what it does instead
    // is its authors' choice.
    if (mlm && need.quote && checkoutSays(ctx.settings.megatronCheckout, need.quote) === false) return;
    const stops = need.effect === 'stop';
    // Whether "before Blackwell" is known to hold (the hardware is named, not assumed).
    const hwKnown = need.preBlackwell && (p.hardware.from.kind === 'setting' || p.hardware.from.kind === 'derived' || (!!hint && !hint.assumed && !hint.unknown && !ctx.settings.hardware && hardwareById(hint.id)?.id === hw()));
    const archSure = !need.preBlackwell || hwKnown;
    const on = need.preBlackwell ? ` on ${hw()}` : '';
    const consequence = stops
      ? `${release} stop${v ? 's' : ''} at startup${need.preBlackwell ? (hwKnown ? ` on ${hw()}, as on any GPU before Blackwell` : ' on any GPU before Blackwell') : ''}${need.quote ? ` ("${need.quote}")` : ''}`
      : `Megatron Core only warns, but its TP communication overlap${on} depends on kernels running in the order they are issued, which needs a single CUDA work queue`;
    const script = ctx.doc.syntax === 'shell';

    // Not assigned as a shell variable, but named elsewhere in the script (a Ray runtime-env JSON,
    // `mpirun -x NAME=1`, `env NAME=1`): the processes may get it that way, so nothing is known.
    if (!cdmc && script && envMentioned(ctx.doc.text, VAR)) return;
    if (!cdmc) {
      // Not set by this file. A script is run from an environment Shardwise does not see; a Bridge
      // override is merged onto a recipe whose `env_vars` may set it. `ENV_VARS` of a Megatron-LM
      // test config is the environment the run gets.
      const envKnown = ctx.format === 'megatron-yaml';
      const severity: Severity = !stops ? (envKnown ? 'warning' : 'information') : envKnown && archSure ? 'error' : 'warning';
      const unless = envKnown ? '' : script ? ' in this script (the environment that runs it may still export it)' : ' in this override (the recipe or the launcher may still set it)';
      ctx.report({
        at: need.at,
        severity,
        message: `${need.what} without \`${VAR}=1\`${unless}: ${consequence}.${need.note ? ` ${need.note}` : ''} ${script ? `Add \`export ${VAR}=1\` before the launch.` : `Set \`${VAR}: 1\` in the environment of the run.`}`,
      });
    } else if (cdmc.value !== undefined && cdmc.value !== '1') {
      // A value other than 1 written here: exported or not, the processes do not get 1 (an
      // assignment to an inherited variable changes what is exported).
      const sure = stops && archSure && literal && (mlm || cdmc.exported);
      ctx.report({
        at: cdmc.span ?? cdmc.path,
        on: 'value',
        severity: sure ? 'error' : 'warning',
        message: `${need.what} with \`${VAR}=${cdmc.value}\`${literal ? '' : ' (a default the environment may override)'}: ${consequence}.${need.note ? ` ${need.note}` : ''} Set it to 1.`,
      });
    } else if (!cdmc.exported) {
      ctx.report({
        at: cdmc.nameSpan ?? cdmc.span ?? cdmc.path,
        severity: 'warning',
        message: `\`${VAR}=1\` is set but not exported, so the training processes get it only if the environment that runs the script already exports the variable; otherwise ${stops ? consequence : 'the overlap loses its ordering'}. Write \`export ${VAR}=1\`.`,
      });
    }
  },
});

/** Megatron-LM's argument checks (launch scripts and MODEL_ARGS files go through them). */
function megatronLmNeed(m: MegatronModel, p: NonNullable<RuleContext<MegatronModel>['plan']>, before: (r: string) => boolean, isBlackwell: () => boolean): Need | undefined {
  const tp = p.tp.value;
  const cp = p.cp.value;
  const tpAt = fieldAt(p.tp) ?? [];
  if (before('0.12.0')) {
    // Sequence parallelism is turned off at TP 1 first; then either it or the async all-reduce
    // (on unless the flag turns it off; turned off by sequence parallelism) needs the variable.
    if (p.sp.value && tp > 1) {
      return { effect: 'stop', preBlackwell: false, what: `TP ${tp} with sequence parallelism`, quote: `Using sequence parallelism requires setting the environment variable ${VAR} to 1`, at: tpAt };
    }
    if (argValue(m, 'async_tensor_model_parallel_allreduce') !== false) {
      return {
        effect: 'stop',
        preBlackwell: false,
        what: tp > 1 ? `TP ${tp}` : 'A run at TP 1',
        quote: `Using async gradient all reduce requires setting the environment variable ${VAR} to 1`,
        note: `Before 0.12 the check covers the async tensor-parallel all-reduce, which is on at any TP unless \`--no-async-tensor-model-parallel-allreduce\` is passed.`,
        at: tpAt,
      };
    }
    return undefined;
  }
  if (tp <= 1 && cp <= 1) return undefined;
  const what = [tp > 1 && `TP ${tp}`, cp > 1 && `CP ${cp}`].filter(Boolean).join(', ');
  const quote = `Using tensor model parallelism or context parallelism require setting the environment variable ${VAR} to 1`;
  const at = fieldAt(p.tp) ?? fieldAt(p.cp) ?? [];
  if (before('0.13.0')) {
    // 0.12 tests `TP > 1 or CP > 1 and arch < 10`: TP > 1 on any GPU, CP > 1 only before Blackwell.
    if (tp > 1) return { effect: 'stop', preBlackwell: false, what, quote, at, note: isBlackwell() ? 'In 0.12 the check applies to TP > 1 on Blackwell too (its condition lacks parentheses; 0.13 exempts Blackwell).' : undefined };
    return isBlackwell() ? undefined : { effect: 'stop', preBlackwell: true, what, quote, at };
  }
  // From 0.14 EP all-to-all overlap wants several queues: upstream only warns, either value is defensible.
  if (isBlackwell() || (!before('0.14.0') && argOn(m, 'overlap_moe_expert_parallel_comm'))) return undefined;
  return { effect: 'stop', preBlackwell: true, what, quote, at };
}

/** Megatron Bridge: no startup check; the overlap only loses its kernel ordering. */
function bridgeNeed(m: MegatronModel, p: NonNullable<RuleContext<MegatronModel>['plan']>, isBlackwell: () => boolean): Need | undefined {
  const tp = p.tp.value;
  // CP is read only where it decides (a recipe may set what the override leaves out).
  const cp = () => (tp > 1 && !allKnown(p.cp) ? 1 : p.cp.value);
  if ((tp <= 1 && cp() <= 1) || isBlackwell() || argOn(m, 'overlap_moe_expert_parallel_comm')) return undefined;
  const what = [tp > 1 && `TP ${tp}`, cp() > 1 && `CP ${cp()}`, allKnown(p.sp) && p.sp.value && 'sequence parallelism'].filter(Boolean).join(', ');
  return { effect: 'slow', preBlackwell: true, what, at: fieldAt(p.tp) ?? fieldAt(p.cp) ?? [] };
}
