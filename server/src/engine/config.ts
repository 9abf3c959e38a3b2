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
 */
import type { ClientSettings } from '../protocol';
import { isFormatId, isRuleLevel, type EngineSettings, type FormatId, type RuleLevel, type Tool } from './settings';
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

function positiveInt(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : typeof v === 'string' && /^\d+$/.test(v) && Number(v) > 0 ? Number(v) : undefined;
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
        const n = positiveInt(raw);
        if (n === undefined) out.problems.push(`\`${key}\` must be a positive integer.`);
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
      case 'associations':
        if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
          s.associations = {};
          for (const [glob, id] of Object.entries(raw as Record<string, unknown>)) {
            if (isFormatId(id)) s.associations[glob] = id;
            else out.problems.push(`\`associations.${glob}\`: unknown format ${JSON.stringify(id)}.`);
          }
        } else out.problems.push('`associations` must be a mapping of glob to format id.');
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
  const g = positiveInt(c.gpusPerNode);
  if (g) s.gpusPerNode = g;
  const n = positiveInt(c.nvlinkDomain);
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
  const assoc = c.files?.associations;
  if (assoc && typeof assoc === 'object') {
    s.associations = {};
    for (const [glob, id] of Object.entries(assoc)) if (isFormatId(id)) s.associations[glob] = id as FormatId;
  }
  return s;
}
