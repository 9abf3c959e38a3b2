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
 *
 * Which Megatron-LM runs is an input too. A known fork (Megatron-DeepSpeed, a checkout whose parser
 * has many flags of its own) is read only by the rules that check what forks share (`Rule.forks`).
 * A launch that passes flags no release defines and no parser read here defines (`upstreamAssumed`)
 * shows a fork or an extended parser that is not read: every other rule's findings then rest on the
 * assumption that upstream's code runs (at most warnings that say so, their fixes unsafe), as a fork
 * may drop or invert a check (llm-jp/Megatron-LM@nii-geniac:megatron/training/arguments.py:394-397
 * asserts that `--save-interval` is not given, where every release asserts that `--save` needs it).
 */
import type { AccelerateModel } from '../accelerate/model';
import { untracked } from '../../rules/certain';
import { MLM_FLAG_FORMATS, type MegatronModel } from './model';
import type { Path } from '../../types';

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

/** `` `--a` ``, `` `--a` and `--b` ``, `` `--a`, `--b`, `--c` and 2 more ``. */
export function flagList(flags: readonly string[]): string {
  const shown = flags.slice(0, 3).map((f) => `\`${f}\``);
  if (flags.length > 3) return `${shown.join(', ')} and ${flags.length - 3} more`;
  return shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}` : shown.join('');
}

/**
 * The assumption a launch's findings rest on when it passes flags no Megatron-LM release defines
 * (`MegatronArgs.notUpstream`): that upstream Megatron-LM, whose checks the rules report, runs it.
 * Undefined for any other file. Read for the rules that do not check what forks share.
 */
export function upstreamAssumed(format: string | undefined, model: unknown): string | undefined {
  if (format !== 'megatron-args') return undefined;
  const args = (model as MegatronModel | undefined)?.args;
  const flags = args?.notUpstream;
  if (flags?.length) return `upstream Megatron-LM runs this launch (it passes ${flagList(flags)}, which no Megatron-LM release defines: a fork or an entry script that adds flags reads ${flags.length === 1 ? 'it' : 'them'}, and may check otherwise)`;
  // A copy the entry program patches when it starts: not upstream's code, whatever flags are passed.
  if (args?.patched) return `the Megatron-LM at ${args.patched}, which is not read here, does what upstream Megatron-LM does with these arguments (its patches may change that)`;
  return undefined;
}

/** Words of a flag that say nothing of its setting. */
// Words that name no setting of their own (`num` counts what the rest names: `--recompute-num-layers` is about recomputed layers).
const FILLER = new Set(['enable', 'disable', 'use', 'no', 'per', 'the', 'of', 'to', 'for', 'with', 'is', 'in', 'and', 'num']);
function flagWords(flag: string): string[] {
  return [...new Set(flag.replace(/^-+/, '').toLowerCase().split(/[-_.]+/).filter((w) => w && !FILLER.has(w)).map((w) => (w.length > 3 ? w.replace(/s$/, '') : w)))];
}

/**
 * Where the assumption that upstream runs a launch (`upstreamAssumed`) is contradicted for one
 * finding: a flag no release defines, passed in the same launch, names the setting the finding points
 * at or rests on (it holds every word of that flag but the filler ones: MindSpeed-LLM's
 * `--enable-recompute-layers-per-pp-rank` beside `--recompute-num-layers`, `--num-layer-list` beside
 * `--num-layers`; not `--sglang-pipeline-parallel-size` beside `--tensor-model-parallel-size`). The fork or patch that reads that flag gives the setting a meaning of its own, which is not
 * known here. Undefined when no such flag is passed.
 */
export function upstreamRedefined(format: string | undefined, model: unknown, paths: readonly Path[]): string | undefined {
  if (format !== 'megatron-args') return undefined;
  const args = (model as MegatronModel | undefined)?.args;
  const own = args?.ownFlags ?? args?.notUpstream;
  if (!own?.length) return undefined;
  for (const path of paths) {
    const key = path[path.length - 1];
    if (typeof key !== 'string' || !key.startsWith('-')) continue;
    const words = flagWords(key);
    const flag = own.find((f) => {
      const theirs = new Set(flagWords(f));
      const shared = words.filter((w) => theirs.has(w)).length;
      return words.length > 0 && shared === words.length;
    });
    if (flag) return `what \`${key}\` means here: the launch also passes \`${flag}\`, which no Megatron-LM release defines and which is about the same setting, so the fork or patch that reads it may count \`${key}\` its own way`;
  }
  return undefined;
}

/**
 * The file sets Megatron Core's config fields rather than command-line flags: a `--yaml-cfg` file, a
 * Megatron Bridge override, a NeMo config. argparse's choices and conversions do not apply there.
 */
export function setsConfigFields(format: string | undefined, model: unknown): boolean {
  return format === 'megatron-bridge' || format === 'nemo' || argumentChecks(format, model) === 'validate_yaml';
}
