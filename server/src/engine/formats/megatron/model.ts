/** What the Megatron rules read: the arguments (by dest) and the environment of any Megatron format. */
import type { SchemaIssue } from '../../schema/check';
import type { Path } from '../../types';
import { formatDefault, type MegatronArgs } from './args';
import type { Field } from '../../plan/plan';
import { untracked } from '../../rules/certain';
import { argparseOnlyReader, configRefusal } from '../../schema/vocabulary';

export interface MegatronModel {
  args: MegatronArgs;
  /**
   * NeMo only: whether the model is built with Megatron Core (`model.mcore_gpt`), whose argument
   * checks the Megatron rules report; NeMo's own model makes other checks. Absent for the formats
   * that always build with Megatron Core.
   */
  mcore?: Field<boolean>;
  /** The DeepSpeed JSON a Megatron-DeepSpeed launch names (`--deepspeed_config`), for its document link. */
  deepspeedConfig?: { ref: string; at: Path; target?: string };
  /**
   * Megatron Bridge only: every field the override writes, by its dotted path (`checkpoint.load_optim`,
   * nested or flat spelling), `null` values included, for Bridge's own fields that are no Megatron
   * argument. A value written as an OmegaConf interpolation carries `unknown`, so a check that reads
   * it through the rule's tracked model is silenced. A Megatron argument is read through `args`.
   */
  bridgeFields?: ReadonlyMap<string, BridgeField>;
}

/** A field a Megatron Bridge override writes (see `MegatronModel.bridgeFields`). */
export interface BridgeField {
  value: unknown;
  path: Path;
  /** Why the value is not known here (an OmegaConf interpolation). */
  unknown?: string;
}

/** The Bridge field the override writes at `dotted` (`profiling.use_nsys_profiler`), read tracked; undefined where it does not write it. */
export function bridgeField(m: MegatronModel, dotted: string): BridgeField | undefined {
  return m.bridgeFields?.get(dotted);
}

/**
 * Megatron Bridge's two Megatron-FSDP switches. ConfigContainer.validate turns both on when either is
 * (training/config.py@v0.1.0rc4:982-985, @067f987:1484 with :1068-1069), and its checks then read
 * `ddp.use_megatron_fsdp`. The model config has no such field (the provider's `use_megatron_fsdp` is an
 * argument of provide_distributed_model, which Bridge passes from `dist`).
 */
const BRIDGE_MEGATRON_FSDP = ['ddp.use_megatron_fsdp', 'dist.use_megatron_fsdp'] as const;

/** Megatron-FSDP on in a Bridge override: one of its two switches written true (the other is then not read). */
export function bridgeMegatronFsdpOn(m: MegatronModel): boolean {
  return BRIDGE_MEGATRON_FSDP.some((p) => bridgeField(m, p)?.value === true);
}

/** Megatron-FSDP known off in a Bridge override: both switches written false (one left to the recipe is not known). */
export function bridgeMegatronFsdpOff(m: MegatronModel): boolean {
  return BRIDGE_MEGATRON_FSDP.every((p) => bridgeField(m, p)?.value === false);
}

export const MEGATRON_FORMATS = ['megatron-args', 'megatron-yaml', 'megatron-bridge', 'nemo'] as const;
/** Formats that pass flags to Megatron-LM's own argparse (where its flag quirks apply). */
export const MLM_FLAG_FORMATS = ['megatron-args', 'megatron-yaml'] as const;

/** Where a format writes the argument a schema path names (the format's own spelling). */
export function megatronWritePath(m: { args: MegatronArgs }, schemaPath: Path): Path | undefined {
  return schemaPath.length === 1 ? m.args.pathFor(String(schemaPath[0])) : undefined;
}

/**
 * Arguments an older release read under another flag with the same meaning (the schema's
 * `x-removed.replacement`, where the old flag took the same values): today's dest → the older dest,
 * its flag, and the first release without it. Megatron-LM's argument checks of those releases test
 * the older dest where today's test the new one (`--use-custom-fsdp` up to 0.13 for
 * `--use-megatron-fsdp`); runChecks reads the older one in its place at those releases.
 */
export const OLDER_NAMES: Readonly<Record<string, { dest: string; flag: string; newFlag: string; until: string }>> = {
  use_megatron_fsdp: { dest: 'use_custom_fsdp', flag: '--use-custom-fsdp', newFlag: '--use-megatron-fsdp', until: '0.14.0' },
  keep_fp8_transpose_cache: { dest: 'keep_fp8_transpose_cache_when_using_custom_fsdp', flag: '--keep-fp8-transpose-cache-when-using-custom-fsdp', newFlag: '--keep-fp8-transpose-cache', until: '0.14.0' },
  muon_nesterov: { dest: 'muon_use_nesterov', flag: '--muon-use-nesterov', newFlag: '--muon-nesterov', until: '0.18.0' },
};

export function argValue(m: MegatronModel, dest: string): unknown {
  return m.args.get(dest)?.value;
}

/** The argument is given with a value (argparse leaves an absent one None), whatever the value. */
export function argGiven(m: MegatronModel, dest: string): boolean {
  const a = m.args.get(dest);
  return a !== undefined && a.value !== undefined && a.value !== null;
}

/**
 * The file writes the argument with a value. Whether it does is looked up untracked (an argument
 * a Bridge or NeMo override leaves out is the recipe's, unknown, and a check that asks only about
 * what is written must not rest on it); one that is written is then read tracked, so that where
 * its value comes from (the environment, an interpolation) still weighs on the finding.
 */
export function argWritten(m: MegatronModel, dest: string): boolean {
  const a = untracked(m.args).get(dest);
  return a !== undefined && a.value !== undefined && a.value !== null && argGiven(m, dest);
}

/**
 * The argument is not written, so Megatron's default applies. A value the file takes from the
 * environment or a checkpoint is written; in an override file (a Bridge or NeMo recipe's overrides)
 * nothing is absent, since the recipe decides what the file leaves out.
 */
export function argAbsent(m: MegatronModel, dest: string): boolean {
  if (m.args.get(dest) !== undefined || m.args.defaultsUnknown) return false;
  // A format whose reader gives the argument no default that can be known: not known to be absent.
  const own = formatDefault(m.args, dest);
  return !(own && 'unknown' in own);
}

/**
 * The default of an argument the file leaves out, in the file's format: the format's own where its
 * reader gives one (`x-default-in`, formatDefault), else `cli` (Megatron-LM's command line's, which the
 * caller names). Only meaningful where argAbsent holds.
 */
export function absentDefault(m: MegatronModel, dest: string, cli: unknown): unknown {
  const own = formatDefault(m.args, dest);
  return own && 'value' in own ? own.value : cli;
}

/** A switch's value that turns it on: true, or text such as `true`, `1`, `yes`, `on` (a YAML string, a flag's word). */
export const truthy = (v: unknown): boolean => v === true || (typeof v === 'string' && /^(true|1|yes|on)$/i.test(v));

/**
 * An argument that Megatron-LM's command-line builder (core_transformer_config_from_args) passes on
 * to a TransformerConfig field under another name (`x-config-field`: `--fp8-param-gather` is
 * `fp8_param`): on for that field as written, except in a `--yaml-cfg` file, whose TransformerConfig
 * comes from its `language_model` keys alone (yaml_arguments.py), so that the top-level argument
 * does not reach the field there.
 */
export function cliTranslatedOn(m: MegatronModel, dest: string): boolean {
  return !m.args.yamlCfg && argOn(m, dest);
}

export function argOn(m: MegatronModel, dest: string): boolean {
  return truthy(argValue(m, dest));
}

/** A switch known to be off: written off, or left out where its default is off (Megatron-LM's, or the file's format's: absentDefault). */
export function argOff(m: MegatronModel, dest: string): boolean {
  if (argAbsent(m, dest)) return !truthy(absentDefault(m, dest, false));
  const v = argValue(m, dest);
  return v === false || (typeof v === 'string' && /^(false|0|no|off)$/i.test(v));
}

/** A parallel size as written, or 1 where the file leaves it out and the default applies. */
export function parallelSize(m: MegatronModel, dest: string): number | undefined {
  return argAbsent(m, dest) ? 1 : argNum(m, dest);
}

/** The expert TP size as written, or the TP size where the file leaves it out (Megatron's default). */
export function expertTpSize(m: MegatronModel): number | undefined {
  return argAbsent(m, 'expert_tensor_parallel_size') ? parallelSize(m, 'tensor_model_parallel_size') : argNum(m, 'expert_tensor_parallel_size');
}

/** The value as written, or where the file leaves it out and defaults are known its default: the format's own (absentDefault), else `fallback` (Megatron-LM's command line's); undefined otherwise. */
export function argOr(m: MegatronModel, dest: string, fallback: unknown): unknown {
  const v = argValue(m, dest);
  if (v !== undefined && v !== null) return v;
  return argAbsent(m, dest) ? absentDefault(m, dest, fallback) : undefined;
}

/** A switch known to be on: written on, or left out where its default is on (Megatron-LM's, or the file's format's: absentDefault). */
export function argOnByDefault(m: MegatronModel, dest: string): boolean {
  return argOn(m, dest) || (argAbsent(m, dest) && truthy(absentDefault(m, dest, true)));
}

/** The words of a list argument: one string split on commas and spaces, or a list of strings; [] when not given, undefined when an item is not text. */
export function listWords(v: unknown): string[] | undefined {
  if (v === undefined || v === null) return [];
  if (Array.isArray(v)) return v.every((x) => typeof x === 'string') ? (v as string[]) : undefined;
  return typeof v === 'string' ? v.split(/[,\s]+/).filter(Boolean) : undefined;
}

/** A list argument's words as written (see listWords). */
export function argWords(m: MegatronModel, dest: string): string[] | undefined {
  return listWords(argValue(m, dest));
}

/**
 * The recompute granularity validate_args sees: `--recompute-activations` makes it selective; null
 * when it is known to be none, undefined when unknown.
 */
export function recomputeGranularity(m: MegatronModel): string | null | undefined {
  // Looked up untracked first: a file that does not write the switch (a Bridge override has none) is
  // judged on the granularity it writes.
  if (untracked(m.args).get('recompute_activations') !== undefined && argOn(m, 'recompute_activations')) return 'selective';
  if (argAbsent(m, 'recompute_granularity')) return argOff(m, 'recompute_activations') ? null : undefined;
  const v = argValue(m, 'recompute_granularity');
  return typeof v === 'string' ? v : undefined;
}

/** A number as written (an argparse `type=float`), when known. */
export function argReal(m: MegatronModel, dest: string): number | undefined {
  const v = argValue(m, dest);
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

export function argNum(m: MegatronModel, dest: string): number | undefined {
  const v = argValue(m, dest);
  return typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : undefined;
}

/**
 * Arguments whose meaning and spelling are the same in Megatron Bridge and NeMo as in Megatron-LM
 * (degrees, sizes, batch, the overlap switches): the only ones whose values are checked against the
 * Megatron-LM schema in those formats. Others (NeMo's boolean `fp8`, lower-case `normalization`...)
 * differ by framework and are left alone.
 */
export const SHARED_DESTS = new Set([
  'tensor_model_parallel_size', 'pipeline_model_parallel_size', 'virtual_pipeline_model_parallel_size', 'context_parallel_size',
  'expert_model_parallel_size', 'expert_tensor_parallel_size', 'sequence_parallel', 'micro_batch_size', 'global_batch_size',
  'num_layers', 'hidden_size', 'ffn_hidden_size', 'num_attention_heads', 'num_query_groups', 'seq_length',
  'max_position_embeddings', 'num_moe_experts', 'use_distributed_optimizer', 'overlap_grad_reduce', 'overlap_param_gather',
  'tp_comm_overlap', 'overlap_p2p_comm', 'recompute_num_layers',
  // A TransformerConfig list whose allowed values __post_init__ checks (the same set at Bridge's pin).
  'gtp_remat_opt_in_modules',
  // Counts Megatron Core's config checks while their switch is on (`x-values-checked-when-enabled`):
  // transformer_config.py@core_v0.6.0:301-306, model_parallel_config.py@core_v0.8.0:315-318.
  'cpu_offloading_num_layers', 'wgrad_deferral_limit',
]);

/**
 * For Bridge and NeMo: keeps every issue except invalid values of arguments whose meaning differs
 * from Megatron-LM's (only SHARED_DESTS are checked against its schema).
 */
export function keepSharedIssue(issue: SchemaIssue): boolean {
  if (issue.kind !== 'invalid-value') return true;
  const dest = issue.schemaPath?.[0];
  // A value Megatron Core's config dataclass itself refuses (`x-yaml-cfg-refused.core`: its
  // __post_init__ asserts the choices) is refused whoever builds the config.
  // So is one the code that usually reads the field refuses (`x-enum-argparse-only.effect`), as a warning.
  return typeof dest === 'string' && (SHARED_DESTS.has(dest) || (issue.schemaPath?.length === 1 && (configRefusal(issue.schema) ?? argparseOnlyReader(issue.schema)) !== undefined));
}
