/**
 * Settings from outside a config file: `.shardwise.yaml` (project) and the editor's `shardwise.*`
 * settings, both turned into EngineSettings. Untrusted input: anything malformed is reported and
 * skipped, never thrown.
 *
 *   # .shardwise.yaml
 *   root: true                 # stop looking in parent folders
 *   hardware: h100-sxm
 *   gpus_per_node: 8
 *   nvlink_domain: 8
 *   target_versions: { accelerate: 1.10.0, deepspeed: 0.16.4, megatron-core: 0.12.0 }
 *   rules: { irrelevant-section: off, yaml-boolean-trap: warning }
 *   associations: { "configs/accelerate/*.yaml": accelerate }
 *   slurm: { partitions: { gpu-h100: h100-sxm }, constraints: { a100: a100-80gb } }
 */
import type { ClientSettings } from '../protocol';
import type { DirectiveSetting } from './directives';
import { hardwareById, HARDWARE } from './plan/hardware';
import { modelPreset } from './plan/models';
import { associationProblem, ASSOCIATION_LIMITS, boundedInt, boundedModel, isFormatId, isRuleLevel, MODEL_LIMITS, SETTING_LIMITS, type EngineSettings, type FormatId, type ModelDims, type RuleLevel, type Tool } from './settings';
import { parseYaml } from './syntax/yaml';
import { isVersion } from './version';

export interface ProjectConfig {
  settings: EngineSettings;
  /** Stop at this file when walking up the folders. */
  root: boolean;
  problems: string[];
}

const TOOL_KEYS: Record<string, Tool> = { accelerate: 'accelerate', deepspeed: 'deepspeed', 'megatron-core': 'megatron-core', megatron_core: 'megatron-core', megatronCore: 'megatron-core' };

function level(v: unknown): RuleLevel | undefined {
  if (v === false) return 'off'; // YAML 1.1 reads an unquoted `off` as false.
  if (typeof v === 'string') {
    const s = v.toLowerCase() === 'info' ? 'information' : v.toLowerCase();
    return isRuleLevel(s) ? s : undefined;
  }
  return undefined;
}

export function parseProjectConfig(text: string): ProjectConfig {
  const out: ProjectConfig = { settings: {}, root: false, problems: [] };
  const docs = parseYaml(text);
  for (const doc of docs) for (const p of doc.problems) if (p.severity === 'error') out.problems.push(p.message);
  const value = docs[0]?.value([]);
  if (value === undefined || value === null) return out;
  if (typeof value !== 'object' || Array.isArray(value)) {
    out.problems.push('.shardwise.yaml must be a mapping of settings.');
    return out;
  }
  const v = value as Record<string, unknown>;
  const s: EngineSettings = {};
  for (const [key, raw] of Object.entries(v)) {
    switch (key) {
      case 'root':
        out.root = raw === true;
        break;
      case 'hardware':
        if (typeof raw === 'string' && raw) s.hardware = raw;
        else out.problems.push('`hardware` must be a hardware profile id.');
        break;
      case 'gpus_per_node':
      case 'nvlink_domain': {
        const max = SETTING_LIMITS[key === 'gpus_per_node' ? 'gpusPerNode' : 'nvlinkDomain'];
        const n = boundedInt(raw, max);
        if (n === undefined) out.problems.push(`\`${key}\` must be a positive integer no larger than ${max}.`);
        else if (key === 'gpus_per_node') s.gpusPerNode = n;
        else s.nvlinkDomain = n;
        break;
      }
      case 'target_versions':
        if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
          s.targetVersions = {};
          for (const [tool, ver] of Object.entries(raw as Record<string, unknown>)) {
            const t = TOOL_KEYS[tool];
            const text = typeof ver === 'number' ? String(ver) : ver;
            if (t && isVersion(text)) s.targetVersions[t] = text;
            else out.problems.push(`\`target_versions.${tool}\`: expected one of accelerate, deepspeed, megatron-core with a version such as "1.10.0" (quote it).`);
          }
        } else out.problems.push('`target_versions` must be a mapping.');
        break;
      case 'rules':
        if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
          s.rules = {};
          for (const [id, lv] of Object.entries(raw as Record<string, unknown>)) {
            const l = level(lv);
            if (l) s.rules[id] = l;
            else out.problems.push(`\`rules.${id}\`: expected off, hint, information, warning or error.`);
          }
        } else out.problems.push('`rules` must be a mapping of rule id to severity.');
        break;
      case 'model': {
        const model = modelSetting(raw);
        if (model) s.model = model;
        else out.problems.push(`\`model\` must be a preset id (e.g. llama-3-70b) or a mapping with layers, hidden and heads, each a positive integer of a real model's size (at most ${MODEL_LIMITS.layers} layers, hidden ${MODEL_LIMITS.hidden}, ${MODEL_LIMITS.heads} heads).`);
        break;
      }
      case 'seq_length':
      case 'micro_batch_size':
      case 'world_size':
      case 'nodes': {
        const max = SETTING_LIMITS[key === 'seq_length' ? 'seqLength' : key === 'world_size' ? 'worldSize' : key === 'nodes' ? 'nodes' : 'microBatch'];
        const n = boundedInt(raw, max);
        if (n === undefined) out.problems.push(`\`${key}\` must be a positive integer no larger than ${max}.`);
        else if (key === 'seq_length') s.seqLength = n;
        else if (key === 'world_size') s.worldSize = n;
        else if (key === 'nodes') s.nodes = n;
        else s.microBatch = n;
        break;
      }
      case 'associations':
        if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
          s.associations = {};
          const entries = Object.entries(raw as Record<string, unknown>);
          if (entries.length > ASSOCIATION_LIMITS.count) out.problems.push(`\`associations\` holds ${entries.length} patterns; only the first ${ASSOCIATION_LIMITS.count} are used.`);
          for (const [glob, id] of entries.slice(0, ASSOCIATION_LIMITS.count)) {
            const problem = associationProblem(glob);
            if (problem) out.problems.push(`\`associations\`: a pattern is ignored: ${problem}.`);
            else if (isFormatId(id)) s.associations[glob] = id;
            else out.problems.push(`\`associations.${glob}\`: unknown format ${JSON.stringify(id)}.`);
          }
        } else out.problems.push('`associations` must be a mapping of glob to format id.');
        break;
      case 'slurm':
        slurmSetting(raw, s, out.problems);
        break;
      default:
        out.problems.push(`Unknown setting \`${key}\` in .shardwise.yaml.`);
    }
  }
  out.settings = s;
  return out;
}

/** The editor's `shardwise.*` settings as EngineSettings. */
export function settingsFromClient(c: ClientSettings | null | undefined): EngineSettings {
  if (!c || typeof c !== 'object') return {};
  const s: EngineSettings = {};
  if (typeof c.hardware === 'string' && c.hardware) s.hardware = c.hardware;
  const g = boundedInt(c.gpusPerNode, SETTING_LIMITS.gpusPerNode);
  if (g) s.gpusPerNode = g;
  const n = boundedInt(c.nvlinkDomain, SETTING_LIMITS.nvlinkDomain);
  if (n) s.nvlinkDomain = n;
  if (c.rules && typeof c.rules === 'object') {
    s.rules = {};
    for (const [id, lv] of Object.entries(c.rules)) {
      const l = level(lv);
      if (l) s.rules[id] = l;
    }
  }
  const tv = c.targetVersions;
  if (tv && typeof tv === 'object') {
    s.targetVersions = {};
    if (isVersion(tv.accelerate)) s.targetVersions.accelerate = tv.accelerate;
    if (isVersion(tv.deepspeed)) s.targetVersions.deepspeed = tv.deepspeed;
    if (isVersion(tv.megatronCore)) s.targetVersions['megatron-core'] = tv.megatronCore;
  }
  if (typeof c.model === 'string' && modelPreset(c.model)) s.model = c.model;
  const seq = boundedInt(c.seqLength, SETTING_LIMITS.seqLength);
  if (seq) s.seqLength = seq;
  const mbs = boundedInt(c.microBatchSize, SETTING_LIMITS.microBatch);
  if (mbs) s.microBatch = mbs;
  const kb = boundedInt(c.maxFileSizeKB, SETTING_LIMITS.maxFileSize / 1024);
  if (kb) s.maxFileSize = kb * 1024;
  const assoc = c.files?.associations;
  if (assoc && typeof assoc === 'object') {
    s.associations = {};
    for (const [glob, id] of Object.entries(assoc).slice(0, ASSOCIATION_LIMITS.count)) if (isFormatId(id) && !associationProblem(glob)) s.associations[glob] = id as FormatId;
  }
  return s;
}

const DIM_KEYS: Record<string, keyof ModelDims> = {
  layers: 'layers',
  num_layers: 'layers',
  hidden: 'hidden',
  hidden_size: 'hidden',
  heads: 'heads',
  num_attention_heads: 'heads',
  query_groups: 'queryGroups',
  kv_heads: 'queryGroups',
  num_query_groups: 'queryGroups',
  ffn: 'ffn',
  ffn_hidden_size: 'ffn',
  vocab: 'vocab',
  vocab_size: 'vocab',
  experts: 'experts',
  num_experts: 'experts',
  top_k: 'topK',
};

/** A `model` setting: a known preset id, or a mapping of dimensions (optionally over a `preset`). */
function modelSetting(raw: unknown): string | ModelDims | undefined {
  if (typeof raw === 'string') return modelPreset(raw) ? raw : undefined;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const obj = raw as Record<string, unknown>;
  const base = typeof obj.preset === 'string' ? modelPreset(obj.preset)?.shape : undefined;
  const dims: Record<string, unknown> = { ...(base ?? {}) };
  for (const [k, v] of Object.entries(obj)) {
    const key = DIM_KEYS[k];
    if (key === undefined) continue;
    const n = boundedInt(v, MODEL_LIMITS[key as keyof typeof MODEL_LIMITS]);
    if (n === undefined) return undefined;
    dims[key] = n;
  }
  if (obj.swiglu === true) dims.swiglu = true;
  return boundedModel(dims as unknown as ModelDims);
}

/** In-file directives (`# shardwise: hardware=b200 model=llama-3-70b seq_length=8192`) as settings. */
export function settingsFromDirectives(pairs: readonly DirectiveSetting[]): EngineSettings {
  const s: EngineSettings = { targetVersions: {} };
  const dims: Record<string, unknown> = {};
  for (const { key, value } of pairs) {
    const n = boundedInt(value, Number.MAX_SAFE_INTEGER);
    if (key === 'hardware') s.hardware = value;
    else if (key === 'gpus_per_node' && n) s.gpusPerNode = n;
    else if (key === 'nvlink_domain' && n) s.nvlinkDomain = n;
    else if ((key === 'accelerate' || key === 'deepspeed') && isVersion(value)) s.targetVersions![key] = value;
    else if (key === 'megatron_core' && isVersion(value)) s.targetVersions!['megatron-core'] = value;
    else if (key === 'model') dims.preset = value;
    else if (key === 'seq_length' && n) s.seqLength = n;
    else if (key === 'micro_batch_size' && n) s.microBatch = n;
    else if (key === 'world_size' && n) s.worldSize = n;
    else if (key === 'nodes' && n) s.nodes = n;
    else if (DIM_KEYS[key] && n) dims[key] = n;
  }
  if (Object.keys(dims).length) {
    const onlyPreset = Object.keys(dims).length === 1 && typeof dims.preset === 'string';
    const model = onlyPreset ? modelSetting(dims.preset) : modelSetting(dims);
    if (model) s.model = model;
  }
  return s;
}

/**
 * `slurm:` — which hardware profile a Slurm partition (`#SBATCH --partition`) or node feature
 * (`#SBATCH --constraint`) of the user's cluster stands for. Names are the cluster's own, so they are
 * only ever read through this mapping, never guessed.
 */
function slurmSetting(raw: unknown, s: EngineSettings, problems: string[]): void {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    problems.push('`slurm` must be a mapping with `partitions` and/or `constraints`, each mapping a name to a hardware profile id.');
    return;
  }
  const slurm: NonNullable<EngineSettings['slurm']> = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (key !== 'partitions' && key !== 'constraints') {
      problems.push(`Unknown setting \`slurm.${key}\` in .shardwise.yaml (expected \`partitions\` or \`constraints\`).`);
      continue;
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      problems.push(`\`slurm.${key}\` must be a mapping of ${key === 'partitions' ? 'partition' : 'node feature'} name to hardware profile id.`);
      continue;
    }
    const map: Record<string, string> = {};
    for (const [name, id] of Object.entries(value as Record<string, unknown>)) {
      if (typeof id === 'string' && hardwareById(id)) map[name] = id;
      else problems.push(`\`slurm.${key}.${name}\`: unknown hardware profile ${JSON.stringify(id)} (known: ${HARDWARE.map((h) => h.id).join(', ')}).`);
    }
    slurm[key] = map;
  }
  s.slurm = slurm;
}
