/**
 * Which argument checks a file meets before anything runs, by the runtime that reads it. A check
 * of one runtime is no fact about another: Megatron-LM's `validate_args` refuses
 * `--overlap-param-gather` without the distributed optimizer, but NeMo, which never runs it, reads
 * `model.optim.overlap_param_sync` only with its distributed optimizers and otherwise ignores it.
 *
 * - `validate_args`: Megatron-LM's argument checks (megatron/training/arguments.py; megatron/arguments.py
 *   before Megatron Core 0.6), made where Megatron-LM parses the arguments: its launch scripts, the
 *   `MODEL_ARGS` of its test configs, and Accelerate's Megatron-LM plugin, which parses and checks
 *   them with the Megatron-LM installed beside it (accelerate utils/megatron_lm.py@v1.14.0:883-899).
 * - `validate_yaml`: the `--yaml-cfg` reader's own checks (megatron/training/yaml_arguments.py, from
 *   Megatron Core 0.6.0), which replace validate_args for the whole launch: the flags given beside
 *   `--yaml-cfg` meet neither.
 * - none: Megatron Bridge (its ConfigContainer.validate) and NeMo (its model classes) build Megatron
 *   Core's configs themselves and run neither. Megatron Core's own checks (TransformerConfig and the
 *   other config dataclasses, parallel_state, the schedules) run under every runtime.
 *
 * A rule that reports one of these checks declares it (`Rule.runtime`) and is run only on the files
 * of a runtime that makes it; a table check says the same with `formats: MLM_FLAG_FORMATS` and
 * `yamlCfg` (checks.ts), which runChecks reads through `argumentChecks` too.
 */
import type { AccelerateModel } from '../accelerate/model';
import { untracked } from '../../rules/certain';
import { MLM_FLAG_FORMATS, type MegatronModel } from './model';

export type ArgumentChecks = 'validate_args' | 'validate_yaml';

/** The argument checks the runtime that reads a file of this format (and model) makes, if any. */
export function argumentChecks(format: string | undefined, model: unknown): ArgumentChecks | undefined {
  if (format === 'accelerate') return (model as AccelerateModel | undefined)?.distributedType === 'MEGATRON_LM' ? 'validate_args' : undefined;
  if (!format || !(MLM_FLAG_FORMATS as readonly string[]).includes(format)) return undefined;
  const args = (model as MegatronModel | undefined)?.args;
  if (!args) return undefined;
  if (args.yamlCfg) return 'validate_yaml';
  // A launch that passes `--yaml-cfg` has its arguments replaced by that file's: looked up untracked,
  // as the format is (nearly every launch passes none).
  const y = untracked(args).get('yaml_cfg')?.value;
  return y === undefined || y === null ? 'validate_args' : undefined;
}

/** Whether a rule that declares the argument checks it reports (`Rule.runtime`) runs on this file. */
export function runtimeMakes(declared: readonly ArgumentChecks[] | undefined, format: string | undefined, model: unknown): boolean {
  if (!declared) return true;
  const made = argumentChecks(format, model);
  return made !== undefined && declared.includes(made);
}

/**
 * The file sets Megatron Core's config fields rather than command-line flags: a `--yaml-cfg` file, a
 * Megatron Bridge override, a NeMo config. argparse's choices and conversions do not apply there.
 */
export function setsConfigFields(format: string | undefined, model: unknown): boolean {
  return format === 'megatron-bridge' || format === 'nemo' || argumentChecks(format, model) === 'validate_yaml';
}
