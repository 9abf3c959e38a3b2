/**
 * What the four Megatron formats share: reading flag maps into argument sites, the MegatronArgs
 * view the Plan is built from, and the environment variables a file sets.
 */
import type { InstanceView } from '../../schema/view';
import type { SourceDoc } from '../../syntax/sourcedoc';
import type { MapNode } from '../../syntax/tree';
import type { Path } from '../../types';
import type { Field } from '../../plan/plan';
import type { ArgValue, EnvValue, MegatronArgs } from './args';
import { formatDefault } from './args';
import type { ArgSite, UnknownArg } from './instance';
import { CLASSIFY } from '../../certainty';
import type { RepositoryFlags } from '../../settings';
import { flagCandidates, repositoryHas, repositorySearched } from './checkout';
import { flagTarget, primaryFlag } from './schema';

/**
 * How a flag Megatron-LM's own arguments do not have is judged: an error where the entry point is
 * Megatron-LM's (argparse stops), a warning where the entry script may define it, not at all where a
 * fork reads the flags; flags an entry script is known to add are accepted.
 */
export interface UnknownFlags {
  effect: 'error' | 'warning' | 'none';
  /** Flags the entry script adds to Megatron-LM's (`x-entrypoint-flags`). */
  extra?: ReadonlySet<string>;
  /** Flags the entry script adds only from a later release than its first (`x-entrypoint-flags-since`): flag → release. */
  extraSince?: ReadonlyMap<string, string>;
  consequence?: string;
  /**
   * Schema flags (by dest) the entry script's parser never adds, with the scripts that do
   * (`x-entrypoints`): written there they are as unknown as a misspelling.
   */
  notAdded?: ReadonlyMap<string, { scripts: string[]; until?: string }>;
  /**
   * The release from which the entry script is Megatron-LM's own (`train_rl.py`, shipped from 0.15.0):
   * before it a script of that name is someone else's, whose flags are not known.
   */
  from?: string;
  /** The file's repository was searched for parsers: a flag one defines is accepted, and an unknown one's message says what was searched. */
  repository?: RepositoryFlags;
}

/**
 * The judgement with the repository's parsers taken into account: a flag one of them defines is
 * accepted; nothing else changes (the index only ever removes an unknown flag, never adds one).
 */
export function withRepository(judged: UnknownFlags, repository: RepositoryFlags | undefined): UnknownFlags {
  return repository && judged.effect !== 'none' ? { ...judged, repository } : judged;
}

const ARGPARSE_STOPS = 'Megatron-LM stops at startup (argparse: "unrecognized arguments").';

/** The entries of a map whose keys are Megatron flags (a script's arguments, a MODEL_ARGS map). */
export function flagSites(map: MapNode | undefined, base: Path, where: string, judged: UnknownFlags = { effect: 'error' }): { sites: ArgSite[]; unknown: UnknownArg[] } {
  const sites: ArgSite[] = [];
  const unknown: UnknownArg[] = [];
  if (!map) return { sites, unknown };
  for (const e of map.entries) {
    if (e.merged) continue;
    const target = flagTarget(e.key);
    const path = [...base, e.key];
    const flag = e.key.replace(/=.*$/, '');
    const dated = judged.effect === 'error' ? judged.extraSince?.get(flag) : undefined;
    const others = target && judged.effect === 'error' ? (dated ? { scripts: [], until: dated } : judged.notAdded?.get(target.dest)) : undefined;
    if (target && others && !judged.extra?.has(e.key.replace(/=.*$/, '')) && !repositoryHas(judged.repository, e.key)) {
      const consequence = others.until
        ? `The entry script adds this flag to Megatron-LM's parser only from Megatron Core ${others.until}, so before it ${ARGPARSE_STOPS}`
        : `Only the parsers of ${others.scripts.map((o) => `\`${o}\``).join(', ')} add this flag to Megatron-LM's parser, so ${ARGPARSE_STOPS}`;
      unknown.push({ path, key: e.key, candidates: [], effect: 'error', where, consequence, until: others.until, from: judged.from });
      // From that release on it is one of the script's flags, read as any other.
      if (others.until) sites.push({ dest: target.dest, negate: target.negate, path, keySpan: e.keySpan, node: e.value });
    } else if (target) {
      sites.push({ dest: target.dest, negate: target.negate, path, keySpan: e.keySpan, node: e.value });
    } else if (dated && !repositoryHas(judged.repository, e.key)) {
      unknown.push({ path, key: e.key, candidates: [], effect: 'error', where, consequence: `The entry script adds this flag only from Megatron Core ${dated}, so before it ${ARGPARSE_STOPS}`, until: dated, from: judged.from });
    } else if (e.key.startsWith('-') && judged.effect !== 'none' && !judged.extra?.has(flag) && !repositoryHas(judged.repository, e.key)) {
      // Where the script reading the flags may define its own, even a near-spelling of one of
      // Megatron-LM's (`--data-path2`, `--freeze-llm`) may be its: a warning then, never a guess.
      const searched = judged.repository ? `${where}, ${repositorySearched(judged.repository)}` : where;
      unknown.push({ path, key: e.key, candidates: flagCandidates(judged.repository), effect: judged.effect === 'error' ? 'error' : 'ignored', where: searched, consequence: judged.consequence ?? ARGPARSE_STOPS, from: judged.from });
    }
  }
  return { sites, unknown };
}

/**
 * What `--use-checkpoint-args` takes from the checkpoint (megatron/training/checkpointing.py,
 * load_args_from_checkpoint): `force` ones replace what the command line says, the others fill only
 * what it leaves unset. With `--use-mp-args-from-checkpoint-args` the parallel sizes come from it too.
 */
const FROM_CHECKPOINT = {
  force: ['num_query_groups', 'group_query_attention', 'position_embedding_type', 'add_position_embedding', 'use_rotary_position_embeddings', 'rotary_base', 'rotary_percent', 'rotary_interleaved', 'add_bias_linear', 'add_qkv_bias', 'squared_relu', 'swiglu', 'untie_embeddings_and_output_weights', 'normalization', 'mtp_num_layers', 'spec', 'num_moe_experts', 'moe_layer_freq', 'moe_ffn_hidden_size', 'moe_router_topk', 'moe_grouped_gemm', 'moe_shared_expert_intermediate_size', 'mamba_state_dim', 'mamba_head_dim', 'mamba_num_groups', 'mamba_num_heads', 'heterogeneous_layers_config_path', 'heterogeneous_layers_config_encoded_json', 'tokenizer_type', 'tokenizer_model'],
  unset: ['num_layers', 'hidden_size', 'ffn_hidden_size', 'seq_length', 'num_attention_heads', 'kv_channels', 'max_position_embeddings', 'hybrid_layer_pattern', 'padded_vocab_size'],
  parallel: ['tensor_model_parallel_size', 'pipeline_model_parallel_size', 'virtual_pipeline_model_parallel_size', 'expert_model_parallel_size'],
  parallelUnset: ['num_layers_per_virtual_pipeline_stage'],
};
const CHECKPOINT_WHY = 'read from the checkpoint (`--use-checkpoint-args`)';

/** MegatronArgs over a validated instance: values by dest, where each was written, where to add one. */
export function argsFromView(view: InstanceView, options: { runtime: string; pathFor: (dest: string) => Path | undefined; world?: Field<number>; nodes?: Field<number>; env?: Map<string, EnvValue>; etpDefault?: 'tp' | 'one-with-ep'; notes?: string[] }): MegatronArgs {
  const fromCheckpoint = view.get(['use_checkpoint_args']) === true;
  const mpFromCheckpoint = fromCheckpoint && view.get(['use_mp_args_from_checkpoint_args']) === true;
  const force = new Set([...(fromCheckpoint ? FROM_CHECKPOINT.force : []), ...(mpFromCheckpoint ? FROM_CHECKPOINT.parallel : [])]);
  const unset = new Set([...(fromCheckpoint ? FROM_CHECKPOINT.unset : []), ...(mpFromCheckpoint ? FROM_CHECKPOINT.parallelUnset : [])]);
  const args: MegatronArgs = {
    // How a rule's read is known (rules/certain.ts): an argument not seen is absent, with Megatron's
    // default, only where every argument is visible and the default is the runtime's.
    [CLASSIFY]: (key: string | symbol, params: readonly unknown[] | undefined, result: unknown) => {
      if (key !== 'get' || !params || result !== undefined) return undefined;
      const dest = String(params[0]);
      const why = args.defaultsUnknown ?? args.unknownDefaults?.[dest] ?? args.open;
      if (why) return { certainty: 'unknown' as const, note: why };
      // The file's format gives the argument no default that can be known (formatDefault).
      const own = formatDefault(args, dest);
      return own && 'unknown' in own ? { certainty: 'unknown' as const, note: own.unknown } : { certainty: 'defaulted' as const };
    },
    runtime: options.runtime,
    get(dest: string): ArgValue | undefined {
      const unknown = view.instance.unknown?.get(dest);
      if (unknown) return { value: undefined, path: unknown.path, unknown: unknown.why };
      const v = view.get([dest]);
      const path = view.source([dest]);
      const checkpointPath = view.source(['use_checkpoint_args']) ?? [];
      if (force.has(dest) || (unset.has(dest) && v === undefined)) return { value: undefined, path: path ?? checkpointPath, unknown: CHECKPOINT_WHY };
      if (v === undefined || !path) return undefined;
      const assumed = view.instance.assumed?.get(dest);
      return assumed ? { value: v, path, assumed } : { value: v, path };
    },
    pathFor: options.pathFor,
    world: options.world,
    nodes: options.nodes,
    env: options.env,
    etpDefault: options.etpDefault,
    notes: options.notes,
  };
  return args;
}

/**
 * An `ENV_VARS` / `env_vars` map of a YAML file; undefined when the file has none (the environment
 * then comes from wherever the run is launched, which this file does not show).
 */
export function envFromMap(doc: SourceDoc, key: string): Map<string, EnvValue> | undefined {
  const out = new Map<string, EnvValue>();
  const node = doc.node([key]);
  if (node?.kind !== 'map') return undefined;
  for (const e of node.entries) {
    const v = doc.value([key, e.key]);
    out.set(e.key, { value: v === null || v === undefined ? undefined : String(v), path: [key, e.key], exported: true });
  }
  return out;
}

export { primaryFlag };
