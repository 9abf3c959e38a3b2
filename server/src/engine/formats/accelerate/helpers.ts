/** Helpers for rules over Accelerate configs. */
import type { SourceDoc } from '../../syntax/sourcedoc';
import type { Path } from '../../types';
import type { AccelerateModel } from './model';
import type { RuleContext } from '../../rules/rule';
import { appliesTo, requiredBefore, since } from '../../schema/vocabulary';
import schemaJson from '../../../../../schemas/accelerate.schema.json';
import type { JsonSchema } from '../../schema/types';
import { compareVersions } from '../../version';

/** Where a canonical path was written (falls back to the canonical path, e.g. for inserts). */
export function src(m: AccelerateModel, path: Path): Path {
  return m.view.source(path) ?? path;
}

/**
 * The `accelerate launch` switch that picks each distributed type over the file's (commands/launch.py
 * takes the type from the file only when the command line names none).
 */
export const LAUNCH_TYPE_SWITCH: Readonly<Record<string, string>> = { FSDP: 'use_fsdp', DEEPSPEED: 'use_deepspeed', MEGATRON_LM: 'use_megatron_lm', MULTI_GPU: 'multi_gpu', XLA: 'tpu', NO: 'cpu', MULTI_CPU: 'cpu' };

/** The two spellings `accelerate launch` takes for an option (`--num_processes`, `--num-processes`). */
export function launchSpellings(option: string): [string, string] {
  const flag = option.startsWith('--') ? option : `--${option}`;
  return [flag, flag.replace(/_/g, '-')];
}

/** The distributed types that run one process per device through torchrun. */
export const MULTI_DEVICE = ['MULTI_GPU', 'MULTI_NPU', 'MULTI_MLU', 'MULTI_SDAA', 'MULTI_MUSA', 'MULTI_XPU', 'MULTI_HPU', 'MULTI_NEURON'];

export const PARALLEL_SIZES = ['dp_replicate', 'dp_shard', 'tp', 'cp', 'sp'] as const;
export type ParallelDim = (typeof PARALLEL_SIZES)[number];

export function pcKey(dim: ParallelDim): string {
  return `parallelism_config_${dim}_size`;
}

/** The sizes of `parallelism_config` (1 where absent), or undefined when the section is empty. */
export function parallelSizes(m: AccelerateModel): Record<ParallelDim, number> | undefined {
  if (!m.hasSection('parallelism_config')) return undefined;
  const out = {} as Record<ParallelDim, number>;
  for (const d of PARALLEL_SIZES) {
    const v = m.view.num(['parallelism_config', pcKey(d)]);
    out[d] = v !== undefined && Number.isInteger(v) && v >= 1 ? v : 1;
  }
  return out;
}

export function total(sizes: Record<ParallelDim, number>): number {
  return PARALLEL_SIZES.reduce((p, d) => p * sizes[d], 1);
}

/** The release that first reads `fsdp_version` (FSDP2); before it, every FSDP config runs FSDP1. */
const FSDP2_SINCE = '1.6.0';

/**
 * The FSDP version that runs: the file's `fsdp_version` where the release reads it, FSDP1 before
 * (an older release ignores the key). `atLeast` answers for the targeted release.
 */
export function fsdpVersionAt(m: AccelerateModel, atLeast: (version: string) => boolean): number {
  return m.fsdpVersion !== 1 && !atLeast(FSDP2_SINCE) ? 1 : m.fsdpVersion;
}

/** Is FSDP (of this version, at the release `atLeast` answers for) the distributed type? */
export function isFsdp(m: AccelerateModel, version?: number, atLeast?: (version: string) => boolean): boolean {
  if (m.distributedType !== 'FSDP') return false;
  if (version === undefined) return true;
  return (atLeast ? fsdpVersionAt(m, atLeast) : m.fsdpVersion) === version;
}

/** FSDP's `fsdp_cpu_ram_efficient_loading` as the launcher exports it (default true). */
export function ramEfficientLoading(m: AccelerateModel): boolean {
  return m.view.bool(['fsdp_config', 'fsdp_cpu_ram_efficient_loading']) ?? true;
}

/**
 * The DeepSpeed JSON the config names, when the release reads `deepspeed_config_file` (from its
 * `x-since`): an older Accelerate ignores the key, and the config's own DeepSpeed keys are what runs.
 */
export function deepspeedFileRead(ctx: RuleContext<AccelerateModel>): AccelerateModel['deepspeedFile'] {
  const file = ctx.model.deepspeedFile;
  const from = since((schemaJson as unknown as JsonSchema).definitions?.deepspeed_config?.properties?.deepspeed_config_file);
  return file && (!from || ctx.atLeast(from)) ? file : undefined;
}

/** The DeepSpeed JSON the config links to, as the other file of a related location (when it was read). */
export function linkedJson(m: AccelerateModel): { path: string; doc: SourceDoc } | undefined {
  const linked = m.deepspeedFile?.linked;
  return linked?.path && linked.analysis?.doc ? { path: linked.path, doc: linked.analysis.doc } : undefined;
}

/** FSDP1's sharding strategies, in the order accelerate numbers them (`fsdp_sharding_strategy: 1` is FULL_SHARD). */
export const FSDP_STRATEGIES = ['FULL_SHARD', 'SHARD_GRAD_OP', 'NO_SHARD', 'HYBRID_SHARD', 'HYBRID_SHARD_ZERO2'] as const;

/** Whether each FSDP1 strategy reshards parameters after forward: its FSDP2 `fsdp_reshard_after_forward` (as `accelerate to-fsdp2` maps it). */
export const RESHARDS_AFTER_FORWARD: Readonly<Record<string, boolean>> = { FULL_SHARD: true, HYBRID_SHARD: true, SHARD_GRAD_OP: false, HYBRID_SHARD_ZERO2: false, NO_SHARD: false };

/** The strategy an `fsdp_sharding_strategy` value names: by number, or by name in any case. */
export function fsdpStrategyName(v: unknown): string | undefined {
  return typeof v === 'number' ? FSDP_STRATEGIES[v - 1] : typeof v === 'string' ? v.toUpperCase() : undefined;
}

/** How the scripts that launch the config are named in a message, when they are known. */
export function launchedBy(via: string | undefined, key: string): string {
  return via ? ` (${via} launch${via.includes(',') ? '' : 'es'} it without \`--${key}\`)` : '';
}

/**
 * Whether the launch of the file's `distributed_type` passes `parallelism_config` on to the run at
 * the targeted release (the section's `x-applies-to`, dated by `x-applies-to-since`): the launcher
 * exports it only from some launch paths (accelerate utils/launch.py), and without the export the
 * Accelerator builds no `ParallelismConfig`, so none of its checks runs. Reading the release counts
 * as an assumption where the release is assumed, unless `floor` (the first release the finding's
 * facts exist at, e.g. the key's) already settles it; false without a type or a schema.
 */
export function parallelismPassedOn(ctx: RuleContext<AccelerateModel>, floor?: string): boolean {
  const dt = ctx.model.distributedType;
  if (!dt || !ctx.nav) return false;
  const section = ctx.nav.resolve(ctx.nav.child(ctx.nav.resolve(ctx.nav.root, ctx.doc.value([])), 'parallelism_config'));
  const applies = appliesTo(section, (v) => (floor !== undefined && compareVersions(v, floor) <= 0) || ctx.atLeast(v));
  return !applies || applies.includes(dt);
}

/**
 * Whether `accelerate launch` hands this config to a launcher that splits the processes over the
 * machines (torchrun's `--nproc_per_node`/`--node_rank`, DeepSpeed's runner, or `mpirun` with a
 * hostfile), as opposed to the simple or TPU launcher, which start the script once per invocation
 * and read neither `num_machines` for a split nor `machine_rank` (commands/launch.py, launch_command).
 * `torchrun` only: leaves `mpirun` out (it never reads the rank).
 */
export function splitsOverMachines(m: AccelerateModel, atLeast: (v: string) => boolean, torchrunOnly = false): boolean {
  const t = m.distributedType;
  if (!t || m.sagemaker) return false;
  if (t === 'DEEPSPEED' || t === 'FSDP' || t === 'MEGATRON_LM') return true;
  if (t === 'MULTI_CPU') return !torchrunOnly && !!m.view.str(['mpirun_config', 'mpirun_hostfile'])?.trim();
  if (!MULTI_DEVICE.includes(t)) return false; // NO, XLA/TPU (tpu_launcher), MPS
  // The launcher's multi-device tuple: MULTI_GPU alone up to 0.20.x, although MULTI_XPU was a type from 0.20.0.
  if (t === 'MULTI_XPU' && !atLeast('0.21.0')) return false;
  // 0.13.0 to 0.16.x: a single `gpu_ids` entry turns the multi-GPU launch into the simple one.
  const ids = m.view.str(['gpu_ids']);
  if (ids && ids !== 'all' && ids.split(',').length === 1 && atLeast('0.13.0') && !atLeast('0.17.0')) return false;
  return true;
}

/**
 * What `accelerate launch` does with a `num_processes` written as text (`gpu`, `auto`), which the
 * config loader keeps as a string: where the launcher then divides it by `num_machines` or compares
 * it with a number, Python stops with a TypeError, and this returns the operation; elsewhere the
 * launcher hands the text on (`torchrun --nproc_per_node`, which has its own words for it) or the
 * outcome is not settled, and this returns undefined (commands/launch.py and utils/launch.py).
 */
export function textProcessCountFails(m: AccelerateModel, atLeast: (v: string) => boolean): string | undefined {
  const t = m.distributedType;
  if (!t || m.sagemaker) return undefined;
  if (m.numMachines > 1 && splitsOverMachines(m, atLeast, true)) {
    if (t !== 'DEEPSPEED') return 'divides it by `num_machines` for the per-node count';
    // DeepSpeed's own multi-node runner gets the per-node count (`--num_gpus`) unless a host filter replaces it.
    const filtered = ['deepspeed_inclusion_filter', 'deepspeed_exclusion_filter'].some((k) => m.view.has(['deepspeed_config', k]));
    return atLeast('0.12.0') && !filtered ? 'divides it by `num_machines` for the per-node count' : undefined;
  }
  // With `use_cpu: true` (copied onto the arguments for a local launch) the thread-count default compares the count with 1, from 0.14.0.
  if (m.view.bool(['use_cpu']) === true && atLeast('0.14.0')) return 'compares it with 1 to set the CPU threads per process';
  // The simple launch compares the count with 1 to decide on a rendezvous address.
  const simple = t === 'NO' || (t === 'MULTI_CPU' && !m.view.str(['mpirun_config', 'mpirun_hostfile'])?.trim());
  if (simple && m.numMachines <= 1 && atLeast('0.13.0')) return 'compares it with 1 (`num_processes > 1`)';
  return undefined;
}

/** The wrap keys each policy reads. */
export const WRAP_KEY_POLICY: readonly [string, string][] = [
  ['fsdp_transformer_layer_cls_to_wrap', 'TRANSFORMER_BASED_WRAP'],
  ['fsdp_min_num_params', 'SIZE_BASED_WRAP'],
];

/**
 * Whether the FSDP plugin never reads the wrap key at `path` (`fsdp_config.<key>`): the chosen policy
 * is not the one that reads it (from 0.11.0 for the threshold, which alone turned size-based
 * wrapping on before). Then no value written there is converted or refused.
 */
export function wrapKeyUnread(ctx: RuleContext<AccelerateModel>, path: Path): boolean {
  const m = ctx.model;
  if (ctx.format !== 'accelerate' || !m || m.distributedType !== 'FSDP' || path.length !== 2 || path[0] !== 'fsdp_config') return false;
  const needs = WRAP_KEY_POLICY.find(([k]) => k === path[1])?.[1];
  if (!needs || m.view.str(['fsdp_config', 'fsdp_auto_wrap_policy']) === needs) return false;
  return path[1] !== 'fsdp_min_num_params' || ctx.atLeast('0.11.0');
}

/**
 * The ZeRO stage an Accelerate config without a DeepSpeed JSON runs: `zero_stage` as written, 2 when
 * absent (undefined before the release from which an absent stage defaults, where the launch stops on
 * it first and missing-required-key says so), undefined when it is not a number.
 */
export function pluginZeroStage(ctx: RuleContext<AccelerateModel>): { stage: number; written: boolean } | undefined {
  const stage = ctx.model.view.get(['deepspeed_config', 'zero_stage']);
  const required = requiredBefore((schemaJson as JsonSchema).definitions?.deepspeed_config?.properties?.zero_stage);
  if (stage === undefined) return required && !ctx.atLeast(required) ? undefined : { stage: 2, written: false };
  return typeof stage === 'number' ? { stage, written: true } : undefined;
}

/**
 * The launcher that hands the environment it builds straight to `subprocess.Popen` (no `str()` over
 * the values, as torchrun's `patch_environment` does), when the config launches through one: the
 * simple launcher (`distributed_type: 'NO'`, `MULTI_CPU`, `use_cpu`) or DeepSpeed's multi-node
 * runner (commands/launch.py@v1.5.0:1171-1194, 776, 847). Undefined otherwise or when not known.
 */
export function popenLauncher(m: AccelerateModel): string | undefined {
  if (m.sagemaker || !m.distributedType) return undefined;
  if (m.view.get(['use_cpu']) === true || m.distributedType === 'NO' || m.distributedType === 'MULTI_CPU') return "`accelerate launch`'s simple launcher";
  const runner = m.view.str(['deepspeed_config', 'deepspeed_multinode_launcher']) ?? 'pdsh';
  if (m.distributedType === 'DEEPSPEED' && m.numMachines > 1 && runner !== 'standard') return `DeepSpeed's multi-node runner (\`${runner}\`)`;
  return undefined;
}
