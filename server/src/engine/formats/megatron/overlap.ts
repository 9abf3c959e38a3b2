/**
 * Where Megatron overlaps the data-parallel collectives by itself, so that the overlap switches a file
 * leaves out are not missing, and where it refuses the parameter all-gather overlap.
 */
import type { RuleContext } from '../../rules/rule';
import { flag } from './args';
import { checkoutHas } from './checkout';
import { flagEra } from './schema';
import { MLM_FLAG_FORMATS, type MegatronModel } from './model';

const MEGATRON_FORMATS: readonly string[] = [...MLM_FLAG_FORMATS, 'megatron-bridge', 'nemo'];

/**
 * Why Megatron already overlaps the gradient reduce-scatter (`grad`) or the parameter all-gather
 * (`param`) here, from the data-parallel sharding strategy; `unknown` when the strategy it runs
 * with is not known. Megatron-LM 0.12–0.13 (`validate_args`, megatron/training/arguments.py) turn
 * both on for `optim_grads_params` and the gradient one for `optim_grads`, FSDP or not; from 0.14.0
 * Megatron-FSDP does (megatron_fsdp.py: both for `optim_grads_params`; for `optim_grads` the gradient
 * one, from 0.16.0 by itself, before that it requires it), and its strategy defaults to
 * `optim_grads_params` from 0.18.0 (`no_shard` before).
 */
export function overlapsByItself(ctx: RuleContext, which: 'grad' | 'param'): string | undefined {
  if (!MEGATRON_FORMATS.includes(ctx.format)) return undefined;
  const args = (ctx.model as MegatronModel | undefined)?.args;
  if (!args?.get) return undefined;
  const written = args.get('data_parallel_sharding_strategy');
  if (written?.unknown) return 'unknown';
  const overlaps = (s: unknown) => s === 'optim_grads_params' || (which === 'grad' && s === 'optim_grads');
  const what = which === 'grad' ? 'the gradient reduce-scatter' : 'the parameter all-gather';
  const mlm = (MLM_FLAG_FORMATS as readonly string[]).includes(ctx.format);
  if (mlm && ctx.atLeast('0.12.0') && !ctx.atLeast('0.14.0')) {
    return overlaps(written?.value) ? `Megatron-LM ${ctx.versionLabel ?? ''} overlaps ${what} by itself with the \`${written!.value}\` sharding strategy` : undefined;
  }
  if (!ctx.atLeast('0.14.0')) return undefined;
  const fsdp = args.get('use_megatron_fsdp');
  if (!fsdp || flag(fsdp) !== true) return undefined;
  if (fsdp.unknown) return 'unknown';
  if (!written && (args.open || args.defaultsUnknown)) return 'unknown';
  const strategy = written?.value ?? (ctx.atLeast('0.18.0') ? 'optim_grads_params' : 'no_shard');
  // 0.14 and 0.15 turn the overlap on only for `optim_grads_params` (and assert it for `optim_grads`: fsdpAssertsGradOverlap).
  if (strategy === 'optim_grads' && !ctx.atLeast('0.16.0')) return undefined;
  return overlaps(strategy) ? `Megatron-FSDP overlaps ${what} by itself with the \`${String(strategy)}\` sharding strategy` : undefined;
}

/**
 * Megatron-FSDP in Megatron-LM 0.14 and 0.15 with the `optim_grads` strategy: neither the argument
 * checks nor the wrapper turn the gradient overlap on (0.13's arguments.py did; 0.16's wrapper does),
 * and the wrapper asserts it (megatron_fsdp.py@core_v0.14.0:263-270): the run stops without
 * `--overlap-grad-reduce`. Whether that is the case here.
 */
export function fsdpAssertsGradOverlap(ctx: RuleContext): boolean {
  if (!(MLM_FLAG_FORMATS as readonly string[]).includes(ctx.format) || !ctx.atLeast('0.14.0') || ctx.atLeast('0.16.0')) return false;
  const args = (ctx.model as MegatronModel | undefined)?.args;
  const fsdp = args?.get('use_megatron_fsdp');
  const strategy = args?.get('data_parallel_sharding_strategy');
  return !!fsdp && !fsdp.unknown && flag(fsdp) === true && !!strategy && !strategy.unknown && strategy.value === 'optim_grads';
}

/**
 * Megatron-LM 0.18.0 and later refuse the parameter all-gather overlap when parameters are saved
 * apart (`--save-params-interval`: `validate_args` asserts `not args.overlap_param_gather`), and
 * 0.19.0 and later turn it off under `--freeze-all-layers`: advising it is pointless there.
 */
export function paramGatherRefused(ctx: RuleContext): boolean {
  if (!(MLM_FLAG_FORMATS as readonly string[]).includes(ctx.format) || !ctx.atLeast('0.18.0')) return false;
  const args = (ctx.model as MegatronModel | undefined)?.args;
  const a = args?.get('save_params_interval');
  if (a && a.value !== null && a.value !== 'None') return true;
  // `--freeze-all-layers` (0.19 on) turns the distributed optimizer and the gather overlap off, with
  // warnings, after the argument checks (arguments.py@core_v0.19.0:1758-1768).
  const frozen = args?.get('freeze_all_layers');
  return !!frozen && !frozen.unknown && flag(frozen) === true;
}

/**
 * Whether the Megatron-LM that reads the file has the switch a rule would advise: the parser of a
 * checkout the script runs that names no release defines it, and the targeted release is not older than the flag (the
 * overlap switches came after Megatron Core 0.2, so a vendored Megatron-LM of mid-2023 refuses them
 * as unrecognized arguments). Bridge and NeMo configs name config fields, which every release the
 * schema covers has.
 */
export function switchAvailable(ctx: RuleContext, flagName: string): boolean {
  if (!(MLM_FLAG_FORMATS as readonly string[]).includes(ctx.format)) return true;
  // A checkout that names its release is judged by that release (newer parsers build some flags
  // from config classes, which no `add_argument` literal shows); an older copy without a version
  // file by the flags its parser writes out.
  const c = ctx.settings.megatronCheckout;
  if (c && !c.version && !checkoutHas(c, flagName)) return false;
  const from = flagEra(flagName).from;
  return !from || ctx.atLeast(from);
}
