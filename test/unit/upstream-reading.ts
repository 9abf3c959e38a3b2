/**
 * What upstream reads from a document: every setting the tool that loads the file takes from it,
 * under the name that tool reads it by, with the value the run gets. It is the yardstick a fix called
 * safe is held to: applied to a file upstream accepts, such a fix must leave this reading unchanged.
 *
 * It is written from the loaders' and the schemas' facts, not from the rules: the document as PyYAML,
 * `json` or argparse load it (the engine's instance of it), then, per key, whether the release knows
 * it (`x-since`, `x-removed`; the keys of a list's items too), what a deprecated key turns into (`x-deprecated`: ignored, or carried
 * over to its replacement), which sections the run reads (`x-applies-to`, `x-requires-stage`), and a
 * value equal to the release's default counted as unwritten (`x-default-before`, `default`). The few
 * run-time rewrites no schema keyword states are written out below, each with the upstream line that
 * makes it.
 */
import type { DocAnalysis } from '../../server/src/engine';
import { bridgePaths, bridgeSince } from '../../server/src/engine/formats/megatron/schema';
import { appliesTo, defaultAt, deprecatedValues, deprecation, identityRead, normalized, readTruthy, removal, requiredStage, since, unreadBeside } from '../../server/src/engine/schema/vocabulary';
import type { JsonSchema } from '../../server/src/engine/schema/types';
import { deepEqual } from '../../server/src/engine/schema/navigate';
import { compareVersions } from '../../server/src/engine/version';
import { releaseOf } from '../../server/src/engine/rules/release';

export type Reading = Map<string, unknown>;

interface Walk {
  d: DocAnalysis;
  version: string | undefined;
  atLeast: (v: string) => boolean;
  root: Record<string, unknown>;
  out: Reading;
}

/** The release's reading of the document, keyed by dotted path. Documents of no format read as their loaded value. */
export function upstreamReading(d: DocAnalysis): Reading {
  const value = d.instance?.value ?? d.doc.value([]);
  const out: Reading = new Map();
  if (!d.format || !d.nav || !isMap(value)) {
    out.set('', value);
    return out;
  }
  const version = releaseOf(d).value;
  const w: Walk = { d, version, atLeast: (v) => version === undefined || compareVersions(version, v) >= 0, root: value, out };
  walk(w, value, d.nav.resolve(d.nav.root, value), []);
  rewrite(w);
  return out;
}

function isMap(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

function walk(w: Walk, value: Record<string, unknown>, schema: JsonSchema | undefined, path: string[]): void {
  const nav = w.d.nav!;
  for (const [written, v] of Object.entries(value)) {
    const key = nav.canonicalKey(schema ?? {}, written, w.version);
    const child = nav.resolve(nav.child(schema, written, w.version), v);
    // A key the release does not know is ignored, or the file is refused: either way none of it runs.
    if (!child || !known(w, child, written, path)) continue;
    const at = [...path, key];
    // A section the release skips when the file writes another key (`x-unread-beside`: the legacy
    // `bfloat16` beside `bf16`, runtime/config.py@v0.6.0 get_bfloat16_enabled).
    const beside = unreadBeside(child);
    if (beside && (!beside.since || w.atLeast(beside.since)) && value[beside.key] !== undefined) continue;
    const dep = deprecation(child, w.atLeast);
    if (dep && (!dep.since || w.atLeast(dep.since))) {
      // Ignored, or refused where it is read (the file then does not run): no run reads it.
      if (dep.effect === 'ignored' || dep.effect === 'no-effect' || dep.effect === 'error') continue;
      // Read only beside another top-level key's value (`readWith`: `allgather_size` only with the
      // boolean `zero_optimization: true`, runtime/zero/config.py@v0.19.5:60-64,71-75): elsewhere not at all.
      if (dep.readWith && !Object.entries(dep.readWith).some(([k, vs]) => vs.some((x) => deepEqual(x, w.root[k])))) continue;
      if (dep.effect === 'migrated' && dep.replacement) {
        const target = dep.replacement.includes('.') ? dep.replacement.split('.') : [...path, dep.replacement];
        const carried = dep.replacementValue ? dep.replacementValue[JSON.stringify(v)] : v;
        if (carried !== null && carried !== undefined) record(w, target, carried, nav.at(target, w.root, w.version));
        continue;
      }
    }
    if (!sectionRead(w, at, child)) continue;
    // A list of sections (DeepSpeed's `layer_specs`): each item is read key by key, as a section is.
    const items = child.items;
    if (Array.isArray(v) && items && items.properties) {
      v.forEach((item, i) => (isMap(item) ? walk(w, item, nav.resolve(items, item), [...at, String(i)]) : record(w, [...at, String(i)], item, items)));
      continue;
    }
    if (isMap(v) && (child.properties || typeof child.additionalProperties === 'object')) walk(w, v, child, at);
    else record(w, at, v, child);
  }
}

/**
 * The release reads the key under the spelling written: not before its `x-since` (an argument a
 * Megatron Bridge file sets: the Bridge date, `x-bridge-since`, of the `section.field` it is written
 * at), not from its `x-removed`.
 */
function known(w: Walk, schema: JsonSchema, written: string, path: string[]): boolean {
  const raw = w.d.doc.value([]);
  const at = w.d.format?.id === 'megatron-bridge' && path.length === 0 && isMap(raw) ? bridgePaths(schema).filter((p) => p in raw || (isMap(raw[p.split('.')[0]]) && p.split('.')[1] in (raw[p.split('.')[0]] as Record<string, unknown>))) : [];
  const from = at.length ? at.map((p) => bridgeSince(schema, p)).reduce((a, b) => (a === undefined || b === undefined ? undefined : compareVersions(a, b) <= 0 ? a : b)) : since(schema, written);
  if (from && !w.atLeast(from)) return false;
  const gone = removal(schema)?.version;
  return !(gone && w.atLeast(gone));
}

function record(w: Walk, path: string[], value: unknown, schema: JsonSchema | undefined): void {
  // A section carried over whole (`cpu_offload: true` → `offload_optimizer: {device: cpu}`) reads as its keys.
  if (isMap(value) && schema && (schema.properties || typeof schema.additionalProperties === 'object')) {
    const nav = w.d.nav!;
    for (const [k, v] of Object.entries(value)) record(w, [...path, nav.canonicalKey(schema, k, w.version)], v, nav.resolve(nav.child(schema, k, w.version), v));
    return;
  }
  let v = value;
  if (typeof v === 'string' && schema) v = normalized(schema, v, w.version);
  // A value the release still takes under its old spelling (`fsdp_sharding_strategy: 1`) is the value it
  // stands for; so is one it only warns about and runs as its replacement (`--model-provider mamba`
  // builds the `hybrid` model, megatron/inference/utils.py@core_v0.18.0:45-56).
  const old = schema && deprecatedValues(schema)?.[typeof v === 'string' ? v : JSON.stringify(v)];
  if ((old?.effect === 'migrated' || old?.effect === 'warned') && old.replacement !== undefined && (!old.since || w.atLeast(old.since))) v = old.replacement;
  // A switch the tool only tests with `if` (DeepSpeed's `torch_adam`, engine.py@v0.14.0:1287) is the truth of what is written.
  if (schema && readTruthy(schema) && (typeof v === 'string' || typeof v === 'number')) v = typeof v === 'string' ? v.length > 0 : v !== 0;
  // A switch tested by identity (`pipeline.use_reentrant`, `is False`, runtime/pipe/engine.py@v0.19.5:218) is the opposite of its one literal for any other value.
  const identity = schema && identityRead(schema);
  if (identity && (typeof v === 'string' || typeof v === 'number')) v = !identity.literal;
  if (schema && deepEqual(v, defaultAt(schema, w.version))) return;
  w.out.set(path.join('.'), v);
}

/** Whether the run reads the section or key at `path`, given the rest of the document. */
function sectionRead(w: Walk, path: string[], schema: JsonSchema): boolean {
  const format = w.d.format!.id;
  if (format === 'accelerate' && path.length === 1) {
    const types = appliesTo(schema, w.atLeast);
    const dt = w.root.distributed_type === false ? 'NO' : String(w.root.distributed_type ?? '').toUpperCase();
    if (types && dt && !types.includes(dt)) return false;
    // The FP8 recipe is built only for `mixed_precision: fp8` (src/accelerate/accelerator.py@v1.14.0, `fp8_recipe_handler`).
    if (path[0] === 'fp8_config' && w.root.mixed_precision !== 'fp8') return false;
  }
  if (format === 'accelerate' && path[0] === 'fsdp_config' && path.length === 2) return fsdpKeyRead(w, path[1]);
  if (format === 'deepspeed') {
    const needs = requiredStage(schema);
    if (needs !== undefined) {
      const stage = zeroStage(w.root);
      if (Array.isArray(needs) ? !needs.includes(stage) : stage < needs) return false;
    }
  }
  return true;
}

/** FSDP2 reads none of FSDP1's knobs, FSDP1 none of FSDP2's (src/accelerate/utils/dataclasses.py@v1.14.0, `FullyShardedDataParallelPlugin.__post_init__`). */
const FSDP1_ONLY = new Set(['fsdp_backward_prefetch', 'fsdp_forward_prefetch', 'fsdp_use_orig_params', 'fsdp_sync_module_states', 'fsdp_sharding_strategy']);
const FSDP2_ONLY = new Set(['fsdp_reshard_after_forward']);

function fsdpKeyRead(w: Walk, key: string): boolean {
  const section = isMap(w.root.fsdp_config) ? w.root.fsdp_config : {};
  // `fsdp_version` is read from Accelerate 1.6.0; before it every file runs FSDP1.
  const version = w.atLeast('1.6.0') ? Number(section.fsdp_version ?? 1) : 1;
  if (version === 2) return !FSDP1_ONLY.has(key);
  return !FSDP2_ONLY.has(key) || !w.atLeast('1.6.0');
}

function zeroStage(root: Record<string, unknown>): number {
  const z = root.zero_optimization;
  if (z === true) return 1;
  return isMap(z) ? Number(z.stage ?? 0) : 0;
}

const FROM_JSON = ['gradient_accumulation_steps', 'gradient_clipping', 'zero_stage', 'offload_optimizer_device', 'offload_param_device', 'offload_param_nvme_path', 'offload_optimizer_nvme_path', 'zero3_save_16bit_model'];

/** Rewrites the run makes itself after loading, which no schema keyword states. */
function rewrite(w: Walk): void {
  const { out } = w;
  const format = w.d.format!.id;
  if (format === 'accelerate') {
    // A boolean `False` distributed type is matched against no type and launches one process, as 'NO'
    // does (src/accelerate/commands/config/config_args.py@v1.14.0 `process_config`).
    if (out.get('distributed_type') === false) out.set('distributed_type', 'NO');
    // 0.19 to 0.33 turn a boolean `False` precision back into 'no' when loading (config_args.py@v0.19.0 `from_yaml_file`).
    if (out.get('mixed_precision') === false && w.atLeast('0.19.0') && !w.atLeast('0.34.0')) out.delete('mixed_precision');
    // Below ZeRO-3 the DeepSpeed plugin turns `zero3_init_flag` off (src/accelerate/utils/dataclasses.py@v1.14.0, `DeepSpeedPlugin.__post_init__`).
    // With a DeepSpeed JSON named (and read by the release) the stage is the JSON's.
    const json = (w.d.model as { deepspeedFile?: { model?: { stage?: number } } } | undefined)?.deepspeedFile?.model;
    const named = out.has('deepspeed_config.deepspeed_config_file');
    const stage = named ? json?.stage : Number(out.get('deepspeed_config.zero_stage') ?? 2);
    if (stage !== 3) out.delete('deepspeed_config.zero3_init_flag');
    // With a DeepSpeed JSON named, the plugin takes these settings from the JSON: written here as
    // well, Accelerate refuses the config or leaves them unread (src/accelerate/utils/dataclasses.py@v1.14.0,
    // `DeepSpeedPlugin.__post_init__`, the keys it fills from `hf_ds_config`).
    if (out.has('deepspeed_config.deepspeed_config_file')) for (const key of FROM_JSON) out.delete(`deepspeed_config.${key}`);
    // Accelerate hands the sequence-parallel switch to Megatron, which turns it off at TP 1 (megatron/training/arguments.py@core_v0.19.0, `validate_args`).
    if (Number(out.get('megatron_lm_config.megatron_lm_tp_degree') ?? 1) === 1) out.delete('megatron_lm_config.megatron_lm_sequence_parallelism');
    // Without a port the launchers use 29500 (src/accelerate/commands/launch.py@v1.14.0, torch.distributed.run's `--master_port`).
    if (out.get('main_process_port') === 29500) out.delete('main_process_port');
  }
  if (format === 'deepspeed' && zeroStage(w.root) < 3) {
    // ZeRO 1 and 2 offload the optimizer for any device they are given (stage_1_and_2.py@v0.10.1
    // `cpu_offload`, the offload config present): NVMe runs as CPU memory there, and its path is unused.
    if (out.get('zero_optimization.offload_optimizer.device') === 'nvme') out.set('zero_optimization.offload_optimizer.device', 'cpu');
    out.delete('zero_optimization.offload_optimizer.nvme_path');
  }
  if (w.d.format!.id.startsWith('megatron') || format === 'nemo') {
    // At TP 1 Megatron turns sequence parallelism off (megatron/training/arguments.py@core_v0.19.0, `validate_args`).
    if (Number(out.get('tensor_model_parallel_size') ?? 1) === 1) out.delete('sequence_parallel');
  }
}
