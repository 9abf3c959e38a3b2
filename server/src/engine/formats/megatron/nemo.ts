/**
 * NeMo YAML: NeMo 1.x Hydra configs (`trainer:` + `model:`, as `megatron_gpt_config.yaml` and the
 * NeMo-Framework-Launcher `conf/training/*` files), and the NeMo 2.x dotted overrides of a
 * functional-test `MODEL_ARGS` map (`trainer.strategy.tensor_model_parallel_size: 2`). The world
 * is `trainer.devices × trainer.num_nodes`; NeMo passes Megatron arguments under `model:` by name.
 */
import type { SchemaNav } from '../../schema/navigate';
import { closest, editDistance } from '../../suggest';
import type { SourceDoc } from '../../syntax/sourcedoc';
import type { EngineSettings } from '../../settings';
import type { Entry, MapNode } from '../../syntax/tree';
import type { Path } from '../../types';
import { derived, written, type Field } from '../../plan/plan';
import type { Precision } from '../../plan/memory';
import { mapKeys, weigh, type Evidence, type EvidenceRules } from '../evidence';
import type { FormatSupport, ModelInput } from '../format';
import { megatronPlan, type MegatronArgs } from './args';
import { keepSharedIssue, megatronWritePath } from './model';
import { argsFromView } from './common';
import { argsInstance, type ArgSite, type UnknownArg } from './instance';
import { MEGATRON_SCHEMA, megatronIndexes, MEGATRON_VALIDATE, nemoRecordKeys } from './schema';

export interface NemoModel {
  args: MegatronArgs;
  mcore?: Field<boolean>;
}

/**
 * Whether NeMo builds the model with Megatron Core: `model.mcore_gpt`, which its GPT model reads with
 * `cfg.get('mcore_gpt', False)` (megatron_gpt_model.py, v1.21.0 to v2.0.0; older releases have no
 * Megatron Core model). Not written: only a base config this file is merged onto could turn it on.
 */
function mcoreOf(doc: SourceDoc, path: Path): Field<boolean> {
  const v = doc.value(path);
  if (v === true || v === 'true' || v === 'True') return { value: true, from: { kind: 'written', path } };
  if (v === false || v === 'false' || v === 'False') return { value: false, from: { kind: 'written', path } };
  if (v !== undefined) return { value: false, from: { kind: 'unknown', note: `\`model.mcore_gpt\` is \`${String(v).slice(0, 40)}\`, whose value is not known here, so whether NeMo builds the model with Megatron Core is not known` } };
  // Not written: NeMo reads false, its own model (and releases before 1.21 have no other), unless a
  // config this file is merged onto sets it; what NeMo reads is the assumption, not the other branch.
  return { value: false, from: { kind: 'assumed', note: 'NeMo builds this model with its own implementation, not Megatron Core: `model.mcore_gpt` is not written here, and NeMo reads it as false unless a config this file is merged onto sets it' } };
}

/** NeMo spellings that are not Megatron argument names, to the argument they set. */
const NEMO_ALIASES: Record<string, string> = {
  encoder_seq_length: 'seq_length',
  activations_checkpoint_granularity: 'recompute_granularity',
  activations_checkpoint_method: 'recompute_method',
  activations_checkpoint_num_layers: 'recompute_num_layers',
  ub_tp_comm_overlap: 'tp_comm_overlap',
};
/** Names NeMo uses with another meaning or type than Megatron-LM (a boolean `fp8`, lower-case norms). */
const NEMO_OWN_MEANING = new Set(['fp8', 'normalization', 'position_embedding_type']);
/** NeMo 2.x dotted prefixes whose last segment is a Megatron argument name. */
const NEMO2_PREFIXES = ['trainer.strategy.', 'model.config.', 'data.', 'model.'];

/** Flattens the document into dotted paths (one entry per leaf), keeping where each was written. */
function leaves(doc: SourceDoc): { dotted: string; path: Path; entry: Entry }[] {
  const out: { dotted: string; path: Path; entry: Entry }[] = [];
  const walk = (map: MapNode, base: Path, depth: number) => {
    for (const e of map.entries) {
      if (e.merged) continue;
      const path = [...base, e.key];
      if (e.value.kind === 'map' && depth < 4) walk(e.value, path, depth + 1);
      else out.push({ dotted: path.join('.'), path, entry: e });
    }
  };
  const root = doc.root;
  if (root?.kind !== 'map') return out;
  const modelArgs = root.entries.find((e) => e.key === 'MODEL_ARGS');
  if (modelArgs?.value.kind === 'map') walk(modelArgs.value, ['MODEL_ARGS'], 0);
  else walk(root, [], 0);
  return out;
}

/** The dotted path relative to the config (without `MODEL_ARGS.` or the launcher's `training.`). */
function relative(dotted: string): string {
  return dotted.replace(/^MODEL_ARGS\./, '').replace(/^training\./, '');
}

function destOf(rel: string): string | undefined {
  const idx = megatronIndexes();
  const props = MEGATRON_SCHEMA.properties ?? {};
  const viaIndex = idx.nemo.get(rel);
  if (viaIndex) return viaIndex;
  for (const prefix of NEMO2_PREFIXES) {
    if (!rel.startsWith(prefix)) continue;
    const name = rel.slice(prefix.length);
    if (name.includes('.')) continue;
    // A record NeMo writes under `model:` itself (`tokenizer_model: nemo:…`, an artifact of NeMo 1.5
    // to 1.7) is not the Megatron argument of that name, unless NeMo also reads the key there.
    if (prefix === 'model.' && nemoRecordKeys().has(name) && !nemoModelKeys().set.has(name)) return undefined;
    const alias = NEMO_ALIASES[name] ?? name;
    if (props[alias] && !NEMO_OWN_MEANING.has(alias)) return alias;
  }
  return undefined;
}

/** Suggestions for a `model.*` key, remembered: configs repeat the same keys on every keystroke. */
const suggestionCache = new Map<string, string[]>();
function suggestModelKey(key: string, candidates: string[]): string[] {
  let hit = suggestionCache.get(key);
  if (!hit) {
    // Keys under `model:` are many and mostly NeMo's own (read by model code Shardwise does not see):
    // only a near-certain typo is worth a word, one edit in ten characters (`megatron_amp_02`).
    hit = closest(key, candidates, 3, 2).filter((k) => k !== key && editDistance(key, k, 3) <= Math.max(1, Math.floor(key.length / 10)) && key.length >= 10);
    if (suggestionCache.size > 5000) suggestionCache.clear();
    suggestionCache.set(key, hit);
  }
  return hit;
}

/**
 * The keys NeMo reads directly under `model:`: its own model keys (`x-nemo-model-keys`, the
 * TransformerConfig and ModelParallelConfig fields it copies by name among them), the Megatron
 * arguments it reads there (`x-nemo`), and its spellings of them. What a misspelled `model.*` key is
 * offered as: a Megatron-LM argument NeMo reads elsewhere (`--merge-file`, which is
 * `model.tokenizer.merge_file`) or not at all would be no fix.
 */
let modelKeys: { set: Set<string>; list: string[] } | undefined;
function nemoModelKeys(): { set: Set<string>; list: string[] } {
  if (modelKeys) return modelKeys;
  const set = new Set([...Object.keys(NEMO_ALIASES), ...(megatronIndexes().nemoPrefixes.get('model') ?? [])]);
  // One list, the same each time, so that `closest` keeps its index of it.
  return (modelKeys = { set, list: [...set] });
}

function sitesOf(doc: SourceDoc, reads?: ReadonlySet<string>): { sites: ArgSite[]; unknown: UnknownArg[] } {
  const sites: ArgSite[] = [];
  const unknown: UnknownArg[] = [];
  for (const leaf of leaves(doc)) {
    const rel = relative(leaf.dotted);
    const dest = destOf(rel);
    if (dest) {
      sites.push({ dest, negate: false, path: leaf.path, keySpan: leaf.entry.keySpan, node: leaf.entry.value });
      continue;
    }
    // A key directly under `model:` that looks like a misspelled argument keeps its default silently.
    const m = /^model\.([a-z0-9_]+)$/.exec(rel);
    // A key the repository's own code reads (`self.cfg.get("forward_micro_batch_size")`) is its setting, not a typo;
    // one NeMo writes into the config itself (`merges_file: nemo:…` in a saved model's config) is a record.
    if (!m || reads?.has(m[1]) || nemoRecordKeys().has(m[1])) continue;
    const near = suggestModelKey(m[1], nemoModelKeys().list);
    if (near.length) unknown.push({ path: leaf.path, key: m[1], candidates: near, effect: 'ignored', where: 'in `model` (NeMo reads model settings by name, so a misspelled one keeps its default)' });
  }
  return { sites, unknown };
}

/** What a model built from a pretrained checkpoint's config still takes from this file (see `pretrained_model_path`). */
const KEPT_FROM_FILE = new Set(['micro_batch_size', 'global_batch_size', 'fp16', 'bf16', 'optimizer', 'lr', 'weight_decay', 'seq_length']);

/** The key that names a checkpoint the model is restored from or merged onto, if the config has one. */
function restoredFrom(doc: SourceDoc): string | undefined {
  for (const leaf of leaves(doc)) {
    const rel = relative(leaf.dotted);
    // A path written, or NeMo-Aligner's `pretrained_checkpoint` section (its entry scripts always
    // merge the model onto that checkpoint; the path is given when the job is launched).
    const named = /(^|\.)(restore_from_path|init_from_nemo_model|init_from_pretrained_model)$/.test(rel) && leaf.entry.value.kind === 'scalar' && leaf.entry.value.value !== null && leaf.entry.value.value !== '';
    if (named || /^pretrained_checkpoint(\.|$)/.test(rel)) return rel;
  }
  return undefined;
}

function num(doc: SourceDoc, path: Path): number | undefined {
  const v = doc.value(path);
  return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined;
}

/** Keys only a Megatron model's config has under `model:` (or a Megatron strategy under `trainer.strategy`). */
const MEGATRON_EVIDENCE = new Set(['tensor_model_parallel_size', 'pipeline_model_parallel_size', 'virtual_pipeline_model_parallel_size', 'context_parallel_size', 'expert_model_parallel_size', 'sequence_parallel', 'micro_batch_size', 'global_batch_size', 'megatron_amp_O2', 'mcore_gpt', 'encoder_seq_length']);

function base(doc: SourceDoc): Path {
  if (doc.node(['MODEL_ARGS'])) return ['MODEL_ARGS'];
  if (doc.node(['training', 'trainer'])) return ['training'];
  return [];
}

/**
 * The world NeMo starts: `trainer.devices × trainer.num_nodes`, when the file writes both. A config
 * that leaves `trainer.num_nodes` out is one the launch command completes (launchers append
 * `trainer.num_nodes=$NNODES`, and a layout larger than one node's devices says it was written for
 * several): PyTorch Lightning's one node is then not what runs, and the node count is unknown.
 */
function worldOf(doc: SourceDoc, settings: EngineSettings): { world?: Field<number>; nodes?: Field<number>; note?: string } {
  if (settings.worldSize) return { world: { value: settings.worldSize, from: { kind: 'setting', note: '`world_size` setting' } }, nodes: settings.nodes ? { value: settings.nodes, from: { kind: 'setting', note: '`nodes` setting' } } : undefined };
  const b = base(doc);
  const flat = b[0] === 'MODEL_ARGS';
  const devPath = flat ? [...b, 'trainer.devices'] : [...b, 'trainer', 'devices'];
  const nodesPath = flat ? [...b, 'trainer.num_nodes'] : [...b, 'trainer', 'num_nodes'];
  const devices = num(doc, devPath);
  if (!devices) return {};
  if (!doc.node(nodesPath)) return { note: `\`trainer.num_nodes\` is not set, so the launch command gives it (\`trainer.num_nodes=<n>\`; without one NeMo runs one node)` };
  const nodes = num(doc, nodesPath);
  if (!nodes) return {};
  return { world: derived(devices * nodes, `world = trainer.devices ${devices} × trainer.num_nodes ${nodes}`), nodes: written(nodes, nodesPath) };
}

function precisionOf(doc: SourceDoc): Field<Precision> | undefined {
  const b = base(doc);
  const path = b[0] === 'MODEL_ARGS' ? [...b, 'trainer.precision'] : [...b, 'trainer', 'precision'];
  const v = doc.value(path);
  if (v === undefined || v === null) return undefined;
  const s = String(v);
  const p: Precision = /bf16/.test(s) ? 'bf16' : /^16|fp16|16-mixed/.test(s) ? 'fp16' : /8/.test(s) ? 'fp8' : 'fp32';
  return written(p, path);
}

/** Sections of NeMo's training, fine-tuning and inference configs, and Hydra's own keys. */
const NEMO_SECTIONS = new Set(['trainer', 'model', 'exp_manager', 'name', 'run', 'defaults', 'hydra', 'restore_from_path', 'pretrained_checkpoint', 'inference', 'data', 'export', 'training', 'MODEL_ARGS', 'ENV_VARS', 'TEST_TYPE', 'LAUNCHER', 'METRICS', 'MODE']);

const RULES: EvidenceRules = {
  what: 'a NeMo config',
  owner: 'NeMo',
  where: 'top-level sections',
  noun: 'section',
  distinctive: () => false,
  telling: () => false,
  known: (k) => NEMO_SECTIONS.has(k),
  several: Infinity,
  balance: { open: "a NeMo script's Hydra config adds sections of its own" },
};

/** What makes a NeMo config a Megatron model's: a sign, when the document shows one. */
function nemoSign(doc: SourceDoc): string | undefined {
  const root = doc.root;
  if (root?.kind !== 'map') return undefined;
  // NeMo's ASR, TTS and audio configs have `trainer` and `model` too: only a model section with
  // Megatron's parallel or batch settings (or a Megatron strategy) is a Megatron model's.
  const megatron = (at: Path) => [[...at, 'model'], [...at, 'trainer', 'strategy']].some((p) => {
    const n = doc.node(p);
    return n?.kind === 'map' && n.entries.some((e) => MEGATRON_EVIDENCE.has(e.key));
  });
  const has = (at: Path, key: string) => doc.node([...at, key]) !== undefined;
  if (has([], 'trainer') && has([], 'model') && megatron([])) return '`trainer` and `model` sections, with Megatron\'s parallel or batch settings';
  const training = doc.node(['training']);
  if (training?.kind === 'map' && has(['training'], 'trainer') && has(['training'], 'model') && megatron(['training'])) return 'a Launcher `training` section with `trainer` and a Megatron `model`';
  const modelArgs = doc.node(['MODEL_ARGS']);
  if (modelArgs?.kind === 'map' && modelArgs.entries.some((e) => e.key.startsWith('trainer.'))) return '`MODEL_ARGS` holds NeMo 2 overrides (`trainer.…`)';
  return undefined;
}

/**
 * A NeMo config (of a Megatron model) by weight of evidence (formats/evidence.ts): the sign is
 * structural (`trainer` + a `model` with Megatron's settings, the Launcher's `training` section, NeMo
 * 2 overrides in `MODEL_ARGS`); Hydra's markers are NeMo's own. The Launcher's auto-configurator
 * templates and its Hugging Face conversion jobs are not runs.
 */
export function nemoEvidence(doc: SourceDoc, path?: string): Evidence {
  const sign = nemoSign(doc);
  const contradictions: string[] = [];
  // The Launcher's auto-configurator templates: it writes the nodes, TP, PP and batch into a copy
  // before anything runs (auto_configurator/autoconfig), so the values here are placeholders.
  if (path && /(^|[\\/])auto_configurator[\\/]base_configs[\\/]/.test(path)) contradictions.push('the auto-configurator fills this template in before anything runs');
  // A Launcher Hugging Face → NeMo conversion job: its converter builds the model from the Hugging
  // Face config on one device, and the trainer and model sections here are not a run.
  if (doc.node(['run', 'huggingface_ckpt_path'])) contradictions.push('`run.huggingface_ckpt_path` makes it a checkpoint conversion job, not a run');
  // The SageMaker HyperPod recipes for Hugging Face models are shaped like NeMo's (`run`, `trainer`,
  // `model`) but spell the degrees as SageMaker model parallelism reads them (`model.shard_degree`,
  // `model.tensor_model_parallel_degree`), names NeMo has no use for: their own program reads them.
  const model = doc.node(['model']);
  const smp = model?.kind === 'map' ? model.entries.find((x) => /^((tensor|pipeline|context|expert)_model_parallel|shard)_degree$/.test(x.key)) : undefined;
  if (smp) contradictions.push(`\`model.${smp.key}\` is SageMaker model parallelism's spelling (NeMo reads \`…_parallel_size\`)`);
  // NeMo reads the parallel degrees under `model:` (or `trainer.strategy`); a config that writes them
  // in a top-level section of its own (`distributed_strategy:`) is another framework's, shaped like NeMo's.
  const root = doc.root?.kind === 'map' ? doc.root : undefined;
  for (const e of root?.entries ?? []) {
    if (e.key === 'model' || e.key === 'trainer' || e.value.kind !== 'map') continue;
    const degree = e.value.entries.find((x) => /^(tensor|pipeline|context|expert)_model_parallel_size$/.test(x.key));
    if (degree) {
      contradictions.push(`\`${e.key}.${degree.key}\`: the parallel degrees are in a section NeMo does not read`);
      break;
    }
  }
  return weigh({ keys: mapKeys(doc.root), signs: sign ? [sign] : [], contradictions }, RULES);
}

/**
 * NeMo's Megatron models run on NVIDIA GPUs (Megatron Core, Apex, Transformer Engine): a config whose
 * trainer names another accelerator (`tpu`/`xla` on AWS Trainium or Google TPUs, `hpu` on Gaudi) is
 * one for a port of NeMo to that hardware, whose code, not NVIDIA's, reads it.
 */
function portOf(doc: SourceDoc): string | undefined {
  const b = base(doc);
  const v = doc.value(b[0] === 'MODEL_ARGS' ? [...b, 'trainer.accelerator'] : [...b, 'trainer', 'accelerator']);
  if (typeof v !== 'string' || !/^(tpu|xla|hpu|ipu|neuron|mps)$/i.test(v.trim())) return undefined;
  return `a port of NeMo to \`${v.trim()}\` devices (\`trainer.accelerator: ${v.trim()}\`), whose own code reads the config`;
}

export const nemoFormat: FormatSupport<NemoModel> = {
  id: 'nemo',
  fork: portOf,
  // NeMo builds the Megatron Core configs from the fields those classes have
  // (megatron_base_model.py@8cfedd7:603-612, 1247-1260): a key an older release lacks is not copied.
  unknownKeys: 'skipped',
  title: 'NeMo config',
  toolName: 'NeMo',
  syntaxes: ['yaml'],
  tool: 'megatron-core',
  schema: { json: MEGATRON_SCHEMA, validate: MEGATRON_VALIDATE },
  // NeMo hands the model section on to the model's own code, which may read keys the schema lacks.
  openKeys: () => "NeMo passes the model section on to the model's own code",
  detect: nemoEvidence,
  keepIssue: keepSharedIssue,
  instance(doc: SourceDoc, nav: SchemaNav, settings: EngineSettings) {
    const reads = settings.repositoryFlags?.configReads?.length ? new Set(settings.repositoryFlags.configReads) : undefined;
    const { sites, unknown } = sitesOf(doc, reads);
    // NeMo reads the recompute method and layer count only under a granularity: while it is null
    // they are placeholders (the Launcher's `activations_checkpoint_num_layers: 0`), not settings.
    const granularity = sites.find((s) => s.dest === 'recompute_granularity');
    const unset = !granularity || (granularity.node.kind === 'scalar' && (granularity.node.value === null || granularity.node.value === 'null'));
    const read = unset ? sites.filter((s) => s.dest !== 'recompute_method' && s.dest !== 'recompute_num_layers') : sites;
    const set = (settings.repositoryFlags?.configKeys ?? []).length ? new Set(settings.repositoryFlags!.configKeys) : undefined;
    const kept: ArgSite[] = [];
    const elsewhere = new Map<string, { path: Path; why: string }>();
    for (const s of read) {
      const rel = relative(s.path.join('.'));
      // A value the repository's own code assigns before the config is used (`cfg.model.x = …`).
      if (set?.has(rel)) elsewhere.set(s.dest, { path: s.path, why: `the repository's Python sets \`${rel}\` itself before the config is used (\`cfg.${rel} = …\`), so the value here is not the one that runs` });
      // NeMo sets up its micro-batch arithmetic only for a non-zero global batch: 0 turns the checks off.
      else if (s.dest === 'global_batch_size' && s.node.kind === 'scalar' && s.node.value === 0) elsewhere.set(s.dest, { path: s.path, why: '`global_batch_size: 0` turns NeMo\'s batch checks off (it sets up its micro-batch calculator only for a non-zero global batch)' });
      else kept.push(s);
    }
    // NeMo 2 overrides (`MODEL_ARGS`) reach NeMo as `key=value` text that Hydra's grammar reads.
    const built = argsInstance(kept, unknown, nav, base(doc)[0] === 'MODEL_ARGS' ? 'hydra' : false);
    for (const [dest, u] of elsewhere) built.instance.unknown?.set(dest, u);
    return built;
  },
  schemaPath(_doc: SourceDoc, path: Path): Path | undefined {
    const rel = relative(path.join('.'));
    const dest = destOf(rel);
    return dest ? [dest] : undefined;
  },
  model({ doc, view, settings, hydraLaunches }: ModelInput): NemoModel {
    const b = base(doc);
    const flat = b[0] === 'MODEL_ARGS';
    // A launch script that names this config (`--config-name`) and overrides keys on the command
    // line (`model.global_batch_size=$GBS`): the values written here are not the ones that run.
    const overridden = new Map<string, string>();
    if (!flat) for (const l of hydraLaunches?.() ?? []) for (const key of l.overrides.keys()) if (!overridden.has(key)) overridden.set(key, `\`${l.path.split(/[\\/]/).pop()}\` sets \`${key}\` on the command line`);
    const over = overridden.get('trainer.num_nodes') ?? overridden.get('trainer.devices');
    const { world, nodes, note } = over ? { world: undefined, nodes: undefined, note: over } : worldOf(doc, settings);
    const idx = megatronIndexes();
    const args = argsFromView(view, {
      runtime: flat ? 'NeMo 2 (MODEL_ARGS overrides)' : 'NeMo (Megatron GPT)',
      pathFor: (dest) => {
        for (const [p, d] of idx.nemo) if (d === dest) return flat ? [...b, p] : [...b, ...p.split('.')];
        // NeMo's key of that name means something else (its boolean `fp8`): no place for Megatron's value.
        if (NEMO_OWN_MEANING.has(dest)) return undefined;
        return flat ? [...b, `trainer.strategy.${dest}`] : [...b, 'model', dest];
      },
      world,
      nodes,
      notes: note ? [`World size unknown: ${note}. Set it with \`# shardwise: world_size=<n>\`.`] : undefined,
    });
    // NeMo copies num_query_groups into TransformerConfig by name (megatron_base_model.py@8cfedd7:603-612).
    args.configFields = true;
    // A Megatron Core field the model config leaves out keeps the dataclass's default (or NeMo's own
    // `cfg.get` default), not Megatron-LM's flag's (`x-default-in`); NeMo 2's overrides sit on a recipe.
    if (!flat) {
      args.defaultsIn = 'nemo';
      args.defaultsRelease = settings.targetVersions?.['megatron-core'];
    }
    // NeMo's YAML models build their process groups with no expert TP (megatron_init.py@8cfedd7:138-150,
    // megatron_base_model.py@8cfedd7:195-217): Megatron Core then takes TP for it, whatever
    // `model.expert_tensor_parallel_size` says (it only lands on the model config). NeMo 2 passes the
    // strategy's on.
    if (!flat && args.get('expert_tensor_parallel_size')) args.etpIgnored = 'NeMo builds the expert process groups without `model.expert_tensor_parallel_size` (it only lands on the model config), so expert TP is TP';
    // A launch with words whose text is not known (`$EXTRA_ARGS`) may override any key: what is
    // written here is then what runs only if those words leave it alone.
    const open = flat ? undefined : hydraLaunches?.().find((l) => l.open);
    const mayOverride = open && `that \`${open.path.split(/[\\/]/).pop()}\`, which launches this config, leaves it as written (${open.open})`;
    if (open) args.open = `\`${open.path.split(/[\\/]/).pop()}\`, which launches this config, ${open.open}`;
    if (overridden.size || mayOverride) {
      const written = args.get.bind(args);
      args.get = (dest) => {
        const a = written(dest);
        const why = a && overridden.get([...a.path].slice(b.length).join('.'));
        return a && why ? { ...a, unknown: why } : a && mayOverride && !a.unknown ? { ...a, assumed: a.assumed ?? mayOverride } : a;
      };
    }
    args.precision = precisionOf(doc);
    // Another accelerator than a GPU: no GPU profile describes the machine (nor the default one).
    const accelerator = portOf(doc) ? String(doc.value(flat ? [...b, 'trainer.accelerator'] : [...b, 'trainer', 'accelerator'])).trim() : undefined;
    if (accelerator) args.hardwareHint = { id: accelerator, note: `\`trainer.accelerator: ${accelerator}\` names no GPU`, unknown: true };
    // NeMo 2 overrides are merged onto a recipe (the model, the defaults), which this file does not show.
    if (flat) args.defaultsUnknown = 'not in these overrides: the NeMo recipe they are merged onto decides';
    // A model restored from a checkpoint, or merged onto one (`restore_from_path`, NeMo-Aligner's
    // `pretrained_checkpoint`): what this file leaves out is the checkpoint's, not NeMo's default.
    const restore = restoredFrom(doc);
    if (restore && !args.defaultsUnknown) args.defaultsUnknown = `not in this file: the model is restored from the checkpoint \`${restore}\` names, whose own config decides what this file leaves out`;
    // `model.pretrained_model_path`: the script builds the model from that checkpoint's own config and
    // copies over only the batch sizes and the data, precision and optimizer settings
    // (examples/nlp/language_modeling/megatron_t5_lm_adaptation_finetune.py@8cfedd7:83-126), so the
    // layout written here may not be the one that runs.
    if (!flat && doc.node([...b, 'model', 'pretrained_model_path'])) {
      const original = args.get.bind(args);
      // `???` (OmegaConf's mandatory value): every use of the file names a checkpoint, so the model is
      // always built from that checkpoint's config, never from what this file writes.
      const required = doc.value([...b, 'model', 'pretrained_model_path']) === '???';
      const why = 'that the model is built from this file, not from the config of the checkpoint `model.pretrained_model_path` names (a script that restores that config keeps only the batch, data, precision and optimizer keys of this file)';
      const restoredCfg = 'the model is built from the config of the checkpoint `model.pretrained_model_path` names, which this file requires (`???`); only its batch, data, precision and optimizer keys are taken from here';
      args.get = (dest) => {
        const a = original(dest);
        if (!a || a.unknown || KEPT_FROM_FILE.has(dest)) return a;
        return required ? { ...a, unknown: restoredCfg } : { ...a, assumed: a.assumed ?? why };
      };
    }
    // NeMo's optimizer wrapper, not Megatron's argument defaults, decides the DP overlaps when unset.
    const byOptimizer = 'not written: NeMo\'s optimizer settings decide (`model.optim.overlap_grad_sync` / `overlap_param_sync`), with defaults that depend on the optimizer';
    args.unknownDefaults = { overlap_grad_reduce: byOptimizer, overlap_param_gather: byOptimizer };
    // NeMo's optimizer name decides the distributed optimizer.
    const optimPath = flat ? undefined : [...b, 'model', 'optim', 'name'];
    const optim = optimPath ? doc.value(optimPath) : undefined;
    if (typeof optim === 'string' && !args.get('use_distributed_optimizer')) {
      const original = args.get.bind(args);
      const on = /distributed/.test(optim);
      args.get = (dest) => (dest === 'use_distributed_optimizer' ? { value: on, path: optimPath!, derived: 'model.optim.name: distributed_fused_adam' } : original(dest));
      // NeMo reads the overlap switches only for its distributed optimizers; another optimizer's
      // constructor would be handed them (megatron_gpt_model.py@v2.4.0:596-611).
      if (!on) {
        const why = `NeMo reads it only with a distributed optimizer, and \`model.optim.name\` is \`${optim}\``;
        args.unreadSwitches = { overlap_grad_reduce: why, overlap_param_gather: why };
      }
    }
    return { args, mcore: flat ? undefined : mcoreOf(doc, [...b, 'model', 'mcore_gpt']) };
  },
  writePath: megatronWritePath,
  plan(model, settings) {
    return megatronPlan(model.args, settings);
  },
};
