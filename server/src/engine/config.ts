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
 *   select: [ALL]              # the rules that run (default: all; a prefix such as deepspeed- selects a family); extend-select adds, ignore removes
 *   ignore: [tp-larger-than-needed]
 *   per-file-ignores: { "golden/*.json": [unknown-key] }   # the only way to silence a JSON finding
 *   exclude: ["third_party/", "*.generated.yaml"]         # gitignore-style, from this file's folder
 *   slurm: { partitions: { gpu-h100: h100-sxm }, constraints: { a100: a100-80gb } }   # #SBATCH names → hardware
 *
 * The same keys in `pyproject.toml` under `[tool.shardwise]` (parsePyprojectConfig). Keys may be
 * written with `-` or `_` (`per-file-ignores`, `per_file_ignores`). Every unknown key, rule id or
 * hardware id is a problem with a did-you-mean, reported where the file is shown.
 */
import type { ClientSettings } from '../protocol';
import type { DirectiveSetting } from './directives';
import { parse as parseToml } from 'smol-toml';
import { hardwareById, hardwareSuggestion } from './plan/hardware';
import { modelPreset } from './plan/models';
import { RULES, ruleById } from './rules';
import { closest } from './suggest';
import { associationProblem, ASSOCIATION_LIMITS, boundedInt, boundedModel, isFormatId, isRuleLevel, MODEL_LIMITS, SETTING_LIMITS, type EngineSettings, type FormatId, type ModelDims, type RuleLevel, type Tool } from './settings';
import { parseYaml } from './syntax/yaml';
import { isVersion } from './version';

export interface ProjectConfig {
  settings: EngineSettings;
  /** Stop at this file when walking up the folders. */
  root: boolean;
  problems: string[];
  /** `select`, `extend-select`, `ignore`: which rules run (see selectedRules). */
  selection?: RuleSelection;
  /** `per-file-ignores`: gitignore-style patterns (relative to the config's folder) → rule ids not reported there. */
  perFileIgnores?: { pattern: string; rules: string[] }[];
  /** `exclude`: gitignore-style patterns, relative to the config's folder, of files and folders not checked. */
  exclude?: string[];
}

/**
 * One layer of rule selection, as ruff has it: `select` (when given) replaces the rules that run so
 * far, `extendSelect` adds to them, `ignore` removes from them. `ALL` stands for every rule. Layers
 * apply in order: the farthest configuration file first, the nearest last, the command line after.
 */
export interface RuleSelection {
  select?: string[];
  extendSelect?: string[];
  ignore?: string[];
}

/**
 * The rule ids a selector stands for: `ALL` every rule, a rule id that rule, and a prefix ending in
 * `-` (`deepspeed-`, `missing-overlap-`) every rule whose id starts with it.
 */
export function rulesOfSelector(selector: string): string[] {
  if (selector === 'ALL') return RULES.map((r) => r.id);
  if (selector.endsWith('-')) return RULES.filter((r) => r.id.startsWith(selector)).map((r) => r.id);
  return [ruleById(selector)?.id ?? selector];
}

/** The rule ids that run after the layers, from every rule. */
export function selectedRules(layers: readonly (RuleSelection | undefined)[]): Set<string> {
  const expand = (ids: readonly string[]): string[] => ids.flatMap(rulesOfSelector);
  const on = new Set(RULES.map((r) => r.id));
  for (const layer of layers) {
    if (!layer) continue;
    if (layer.select) {
      on.clear();
      for (const id of expand(layer.select)) on.add(id);
    }
    for (const id of expand(layer.extendSelect ?? [])) on.add(id);
    for (const id of expand(layer.ignore ?? [])) on.delete(id);
  }
  return on;
}

/**
 * Why a rule id is not one (with a did-you-mean), or undefined when it is. Where `selector` says
 * so, `ALL` and a prefix ending in `-` that starts at least one rule id are selectors too.
 */
export function ruleIdProblem(id: string, selector = true): string | undefined {
  if (ruleById(id)) return undefined;
  if (selector && (id === 'ALL' || (id.endsWith('-') && rulesOfSelector(id).length > 0))) return undefined;
  if (selector && id.endsWith('-')) {
    const families = [...new Set(RULES.map((r) => r.id.slice(0, r.id.indexOf('-') + 1)).filter(Boolean))];
    const near = closest(id, families, 2);
    return `no rule id starts with ${JSON.stringify(id)}${near.length ? ` (did you mean ${near.join(' or ')}?)` : ''}`;
  }
  const near = closest(id, RULES.map((r) => r.id), 2);
  return `unknown rule ${JSON.stringify(id)}${near.length ? ` (did you mean ${near.join(' or ')}?)` : ''}`;
}

/** The keys a project configuration may hold, as the documentation spells them. */
export const PROJECT_CONFIG_KEYS = ['root', 'hardware', 'gpus_per_node', 'nvlink_domain', 'target', 'target_versions', 'rules', 'model', 'seq_length', 'micro_batch_size', 'world_size', 'nodes', 'associations', 'select', 'extend-select', 'ignore', 'per-file-ignores', 'exclude', 'slurm'] as const;
const KEY_OF = new Map<string, string>(PROJECT_CONFIG_KEYS.map((k) => [k.replace(/-/g, '_'), k]));

/** A list of strings: a YAML/TOML list, or one comma-separated string. */
function stringList(raw: unknown): string[] | undefined {
  if (typeof raw === 'string') return raw.split(',').map((s) => s.trim()).filter(Boolean);
  if (Array.isArray(raw) && raw.every((x) => typeof x === 'string')) return raw.map((s) => s.trim()).filter(Boolean);
  return undefined;
}

const TOOL_KEYS: Record<string, Tool> = { accelerate: 'accelerate', deepspeed: 'deepspeed', 'megatron-core': 'megatron-core', megatron_core: 'megatron-core', megatronCore: 'megatron-core', transformers: 'transformers' };

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
  return configFrom(value as Record<string, unknown>, out, '.shardwise.yaml');
}

/**
 * `[tool.shardwise]` of a `pyproject.toml`, or undefined when it has none (then it is no
 * configuration of Shardwise's). A file that is not valid TOML is one only when it names the table.
 */
export function parsePyprojectConfig(text: string): ProjectConfig | undefined {
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(text) as Record<string, unknown>;
  } catch (err) {
    if (!/^\s*\[\s*tool\s*\.\s*shardwise\s*[\].]/m.test(text)) return undefined;
    const first = String((err as Error)?.message ?? err).split('\n')[0];
    return { settings: {}, root: false, problems: [`not valid TOML, so [tool.shardwise] is not read: ${first}`] };
  }
  const tool = doc.tool;
  if (!tool || typeof tool !== 'object' || !('shardwise' in tool)) return undefined;
  const table = (tool as Record<string, unknown>).shardwise;
  const out: ProjectConfig = { settings: {}, root: false, problems: [] };
  if (!table || typeof table !== 'object' || Array.isArray(table)) {
    out.problems.push('[tool.shardwise] must be a table of settings.');
    return out;
  }
  return configFrom(table as Record<string, unknown>, out, '[tool.shardwise]');
}

/** The settings of a parsed configuration (`.shardwise.yaml` or `[tool.shardwise]`), `where` naming it in messages. */
function configFrom(v: Record<string, unknown>, out: ProjectConfig, where: string): ProjectConfig {
  const s: EngineSettings = {};
  const ruleList = (key: string, raw: unknown, all = true): string[] | undefined => {
    const list = stringList(raw);
    if (!list) {
      out.problems.push(`\`${key}\` must be a list of rule ids.`);
      return undefined;
    }
    const known: string[] = [];
    for (const id of list) {
      const problem = ruleIdProblem(id, all);
      if (problem) out.problems.push(`\`${key}\`: ${problem}.`);
      else known.push(id);
    }
    return known;
  };
  for (const [written, raw] of Object.entries(v)) {
    const key = KEY_OF.get(written.replace(/-/g, '_'));
    switch (key) {
      case 'root':
        out.root = raw === true;
        break;
      case 'hardware':
        if (typeof raw === 'string' && hardwareById(raw)) s.hardware = raw;
        else if (typeof raw === 'string' && raw) out.problems.push(`\`hardware\`: unknown hardware profile ${JSON.stringify(raw)}${hardwareSuggestion(raw)}.`);
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
      case 'target':
      case 'target_versions':
        targetSetting(key, raw, s, out.problems);
        break;
      case 'rules':
        rulesSetting(raw, s, out.problems);
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
        associationsSetting(raw, s, out.problems);
        break;
      case 'slurm':
        slurmSetting(raw, s, out.problems);
        break;
      case 'select':
      case 'extend-select':
      case 'ignore': {
        const ids = ruleList(key, raw);
        if (!ids) break;
        out.selection ??= {};
        if (key === 'select') out.selection.select = ids;
        else if (key === 'ignore') out.selection.ignore = ids;
        else out.selection.extendSelect = ids;
        break;
      }
      case 'per-file-ignores':
        if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
          out.perFileIgnores = [];
          const entries = Object.entries(raw as Record<string, unknown>);
          if (entries.length > ASSOCIATION_LIMITS.count) out.problems.push(`\`per-file-ignores\` holds ${entries.length} patterns, more than the ${ASSOCIATION_LIMITS.count} allowed.`);
          for (const [pattern, ids] of entries.slice(0, ASSOCIATION_LIMITS.count)) {
            const rules = ruleList(`per-file-ignores.${pattern}`, ids);
            if (!pattern.trim() || pattern.length > ASSOCIATION_LIMITS.length) out.problems.push(`\`per-file-ignores\`: the pattern ${JSON.stringify(pattern.slice(0, 80))} is empty or longer than ${ASSOCIATION_LIMITS.length} characters.`);
            else if (rules?.length) out.perFileIgnores.push({ pattern, rules });
          }
        } else out.problems.push('`per-file-ignores` must be a mapping of pattern to a list of rule ids.');
        break;
      case 'exclude': {
        const list = stringList(raw);
        if (!list) out.problems.push('`exclude` must be a list of patterns.');
        else if (list.some((p) => p.length > ASSOCIATION_LIMITS.length)) out.problems.push(`\`exclude\`: a pattern is longer than ${ASSOCIATION_LIMITS.length} characters.`);
        else if (list.length > ASSOCIATION_LIMITS.count) out.problems.push(`\`exclude\` holds ${list.length} patterns, more than the ${ASSOCIATION_LIMITS.count} allowed.`);
        else out.exclude = list;
        break;
      }
      default: {
        const near = closest(written.replace(/-/g, '_'), [...KEY_OF.keys()], 2).map((k) => `\`${KEY_OF.get(k)}\``);
        out.problems.push(`Unknown setting \`${written}\` in ${where}${near.length ? ` (did you mean ${near.join(' or ')}?).` : `; the settings are ${PROJECT_CONFIG_KEYS.join(', ')}.`}`);
      }
    }
  }
  out.settings = s;
  return out;
}

/** `target`: tool versions, as a list of TOOL=VERSION (the command line's --target) or a mapping. */
function targetSetting(key: string, raw: unknown, s: EngineSettings, problems: string[]): void {
  if ((typeof raw === 'string' || Array.isArray(raw)) && stringList(raw)) {
    // `target: ["accelerate=1.10.0"]`, as the command line's --target.
    s.targetVersions = { ...s.targetVersions };
    for (const item of stringList(raw)!) {
      const m = /^([\w-]+)\s*=\s*(\S+)$/.exec(item);
      const t = m ? TOOL_KEYS[m[1]] : undefined;
      if (t && isVersion(m![2])) s.targetVersions[t] = m![2];
      else problems.push(`\`${key}\`: expected TOOL=VERSION (accelerate, deepspeed or megatron-core), not ${JSON.stringify(item)}.`);
    }
  } else if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    s.targetVersions = { ...s.targetVersions };
    for (const [tool, ver] of Object.entries(raw as Record<string, unknown>)) {
      const t = TOOL_KEYS[tool];
      const text = typeof ver === 'number' ? String(ver) : ver;
      if (t && isVersion(text)) s.targetVersions[t] = text;
      else problems.push(`\`${key}.${tool}\`: expected one of accelerate, deepspeed, megatron-core with a version such as "1.10.0" (quote it).`);
    }
  } else problems.push(`\`${key}\` must be a mapping of tool to version.`);
}

/** `rules`: a severity (or off) per rule id. */
function rulesSetting(raw: unknown, s: EngineSettings, problems: string[]): void {
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    s.rules = {};
    for (const [id, lv] of Object.entries(raw as Record<string, unknown>)) {
      const l = level(lv);
      const unknown = ruleIdProblem(id, false);
      if (unknown) problems.push(`\`rules.${id}\`: ${unknown}.`);
      else if (l) s.rules[id] = l;
      else problems.push(`\`rules.${id}\`: expected off, hint, information, warning or error.`);
    }
  } else problems.push('`rules` must be a mapping of rule id to severity.');
}

/** `associations`: glob → format id, bounded in number and brace expansion. */
function associationsSetting(raw: unknown, s: EngineSettings, problems: string[]): void {
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    s.associations = {};
    const entries = Object.entries(raw as Record<string, unknown>);
    if (entries.length > ASSOCIATION_LIMITS.count) problems.push(`\`associations\` holds ${entries.length} patterns; only the first ${ASSOCIATION_LIMITS.count} are used.`);
    for (const [glob, id] of entries.slice(0, ASSOCIATION_LIMITS.count)) {
      const problem = associationProblem(glob);
      if (problem) problems.push(`\`associations\`: the pattern ${JSON.stringify(glob.length > 80 ? `${glob.slice(0, 80)}…` : glob)} is ignored: ${problem}.`);
      else if (isFormatId(id)) s.associations[glob] = id;
      else problems.push(`\`associations.${glob}\`: unknown format ${JSON.stringify(id)}.`);
    }
  } else problems.push('`associations` must be a mapping of glob to format id.');
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
    if (isVersion(tv.transformers)) s.targetVersions.transformers = tv.transformers;
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
    else if ((key === 'accelerate' || key === 'deepspeed' || key === 'transformers') && isVersion(value)) s.targetVersions![key] = value;
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

/** The keys an in-file directive (`# shardwise: key=value`) takes, beside `format`. */
const DIRECTIVE_KEYS = ['format', 'hardware', 'gpus_per_node', 'nvlink_domain', 'accelerate', 'deepspeed', 'transformers', 'megatron_core', 'model', 'seq_length', 'micro_batch_size', 'world_size', 'nodes'];
const VERSION_KEYS = new Set(['accelerate', 'deepspeed', 'transformers', 'megatron_core']);
const COUNT_KEYS = new Set(['gpus_per_node', 'nvlink_domain', 'seq_length', 'micro_batch_size', 'world_size', 'nodes']);

/**
 * What an in-file directive says that is not followed: a key no directive takes (a slip of
 * `megatron_core`, `target=`), a release that is not a version, a count that is not a positive
 * integer, a hardware profile that does not exist. Each would otherwise be dropped without a word,
 * and the file checked against a default nobody chose.
 */
export function directiveProblems(pairs: readonly DirectiveSetting[]): { span: DirectiveSetting['span']; message: string }[] {
  const out: { span: DirectiveSetting['span']; message: string }[] = [];
  const keys = [...DIRECTIVE_KEYS, ...Object.keys(DIM_KEYS)];
  for (const { key, value, span } of pairs) {
    const shown = `\`shardwise: ${key}=${value}\``;
    if (!keys.includes(key)) {
      const near = closest(key, keys, 3);
      out.push({ span, message: `The directive ${shown} names no setting Shardwise knows, so it is ignored${near.length ? `: did you mean \`${near[0]}\`?` : ` (settings: ${DIRECTIVE_KEYS.join(', ')}, and the model dimensions)`}.` });
    } else if (VERSION_KEYS.has(key) && !isVersion(value)) {
      out.push({ span, message: `The directive ${shown} is not a release number (as \`${key}=0.15.0\`), so it is ignored and the release is not known.` });
    } else if ((COUNT_KEYS.has(key) || DIM_KEYS[key]) && !boundedInt(value, Number.MAX_SAFE_INTEGER)) {
      out.push({ span, message: `The directive ${shown} is not a positive whole number, so it is ignored.` });
    } else if (key === 'hardware' && !hardwareById(value)) {
      out.push({ span, message: `The directive ${shown} names no hardware profile${hardwareSuggestion(value)}, so no GPU is assumed from it.` });
    }
  }
  return out;
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
      const near = closest(key, ['partitions', 'constraints'], 2);
      problems.push(`Unknown setting \`slurm.${key}\`${near.length ? ` (did you mean \`slurm.${near[0]}\`?)` : ''}: the Slurm mappings are \`partitions\` and \`constraints\`.`);
      continue;
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      problems.push(`\`slurm.${key}\` must be a mapping of ${key === 'partitions' ? 'partition' : 'node feature'} name to hardware profile id.`);
      continue;
    }
    const map: Record<string, string> = {};
    for (const [name, id] of Object.entries(value as Record<string, unknown>)) {
      if (typeof id === 'string' && hardwareById(id)) map[name] = id;
      else problems.push(`\`slurm.${key}.${name}\`: unknown hardware profile ${JSON.stringify(id)}${hardwareSuggestion(id)}.`);
    }
    slurm[key] = map;
  }
  s.slurm = slurm;
}
