/**
 * Switches Megatron-LM's argument checks (`validate_args`, megatron/training/arguments.py; before
 * Megatron Core 0.6 megatron/arguments.py) set by themselves from other arguments, before the checks
 * (and the model config built after them) read them: a check that reads such a switch as the file
 * writes it reports a refusal that never happens, or misses one.
 *
 * Each entry says which switch is set to what, on which inputs, at which releases. A rule reads a
 * switch through `switchOn` / `switchOff` (given the rule's context) and gets the value the check
 * it mirrors sees; where the release matters and none is named, reading it makes the finding an
 * assumption (at most a warning that names it), as any read of the release does.
 */
import type { RuleContext } from '../../rules/rule';
import { argAbsent, argNum, argOff, argOn, argValue, argWritten, MLM_FLAG_FORMATS, type MegatronModel } from './model';

interface Derivation {
  dest: string;
  value: boolean;
  /** The inputs that make validate_args set it (read first: a file without them never reads the release). */
  when(m: MegatronModel): boolean;
  /** Releases that set it: from `since`, before `before`. */
  since?: string;
  before?: string;
  /** The `--yaml-cfg` reader (validate_yaml) sets it too. */
  yamlCfg?: boolean;
  /** Why, for messages. */
  why(m: MegatronModel): string;
}

// Whether the file writes a strategy is looked up untracked: one that writes none leaves the switches as written.
const strategy = (m: MegatronModel): unknown => (argWritten(m, 'data_parallel_sharding_strategy') ? argValue(m, 'data_parallel_sharding_strategy') : undefined);

const DERIVED: readonly Derivation[] = [
  {
    // training/arguments.py@core_v0.12.0:495-500, @core_v0.13.0:587-592; the asserts on the overlap
    // switches follow (:502-507, :530-534). Megatron-FSDP does it itself from 0.14 (after these checks).
    dest: 'overlap_grad_reduce',
    value: true,
    when: (m) => strategy(m) === 'optim_grads' || strategy(m) === 'optim_grads_params',
    since: '0.12.0',
    before: '0.14.0',
    why: (m) => `\`--data-parallel-sharding-strategy ${String(strategy(m))}\` turns \`--overlap-grad-reduce\` on before the check`,
  },
  {
    dest: 'overlap_param_gather',
    value: true,
    when: (m) => strategy(m) === 'optim_grads_params',
    since: '0.12.0',
    before: '0.14.0',
    why: () => '`--data-parallel-sharding-strategy optim_grads_params` turns `--overlap-param-gather` on before the check',
  },
  {
    // arguments.py@core_v0.4.0:335-336 … training/arguments.py@d98e8a6:1433-1439, and
    // yaml_arguments.py (@core_v0.15.0:305): sequence parallelism is off at TP 1, before the model
    // config is built from the arguments.
    dest: 'sequence_parallel',
    value: false,
    when: (m) => argAbsent(m, 'tensor_model_parallel_size') || argNum(m, 'tensor_model_parallel_size') === 1,
    yamlCfg: true,
    why: () => 'Megatron-LM turns sequence parallelism off at TP 1 before it builds the model config',
  },
];

/**
 * The value Megatron-LM's argument checks give a switch by themselves in this file, at the release
 * that reads it, with why; undefined where they leave it as written (or the format is not one whose
 * arguments they check).
 */
export function derivedSwitch(ctx: RuleContext, m: MegatronModel, dest: string, value?: boolean): { value: boolean; why: string } | undefined {
  if (!(MLM_FLAG_FORMATS as readonly string[]).includes(ctx.format)) return undefined;
  for (const d of DERIVED) {
    if (d.dest !== dest || (value !== undefined && d.value !== value) || (m.args.yamlCfg && !d.yamlCfg) || !d.when(m)) continue;
    if ((d.since && !ctx.atLeast(d.since)) || (d.before && ctx.atLeast(d.before))) continue;
    return { value: d.value, why: d.why(m) };
  }
  return undefined;
}

/**
 * A switch known to be on when Megatron-LM's checks read it: written on and not turned off by them,
 * or turned on by them. What is written is read first: the inputs of a derivation that could not
 * change the answer are not read.
 */
export function switchOn(ctx: RuleContext, m: MegatronModel, dest: string): boolean {
  if (argOn(m, dest)) return !derivedSwitch(ctx, m, dest, false);
  return !!derivedSwitch(ctx, m, dest, true);
}

/** A switch known to be off when Megatron-LM's checks read it: written off (or left at its default, off) and not turned on by them, or turned off by them. */
export function switchOff(ctx: RuleContext, m: MegatronModel, dest: string): boolean {
  if (argOff(m, dest)) return !derivedSwitch(ctx, m, dest, true);
  return !!derivedSwitch(ctx, m, dest, false);
}
