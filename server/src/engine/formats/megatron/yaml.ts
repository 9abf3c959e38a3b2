/**
 * Megatron-LM YAML: the functional-test `model_config.yaml` (a `MODEL_ARGS` map of `--flags` and
 * an `ENV_VARS` map) and the experimental `--yaml-cfg` file (`language_model:` and `model_parallel:`
 * sections and top-level arguments, by argparse dest).
 */
import type { SchemaNav } from '../../schema/navigate';
import type { EngineSettings } from '../../settings';
import type { SourceDoc } from '../../syntax/sourcedoc';
import type { MapNode, Node } from '../../syntax/tree';
import type { Path } from '../../types';
import type { JsonSchema } from '../../schema/types';
import { pointer } from '../../schema/check';
import type { Field } from '../../plan/plan';
import { foreignMarkers, mapKeys, named, weigh, type Evidence, type EvidenceRules } from '../evidence';
import type { FormatSupport, ModelInput } from '../format';
import { megatronPlan, skipsTraining, type MegatronArgs } from './args';
import { namesBefore } from '../../schema/vocabulary';
import { megatronWritePath } from './model';
import { argsFromView, envFromMap, flagSites, withRepository } from './common';
import { argsInstance, type ArgSite, type UnknownArg } from './instance';
import { MEGATRON_SCHEMA, allFlags, flagKeys, flagTarget, megatronIndexes, primaryFlag, MEGATRON_VALIDATE, yamlCfgSection, yamlCfgType } from './schema';
import { flagsMessageAt } from './release-names';

const YAML_CFG_SECTIONS = ['language_model', 'model_parallel'];

export interface MegatronYamlModel {
  args: MegatronArgs;
}

function isFlagMap(node: Node | undefined): boolean {
  return node?.kind === 'map' && node.entries.length > 0 && node.entries.some((e) => e.key.startsWith('--'));
}

function flagStyle(doc: SourceDoc): boolean {
  return isFlagMap(doc.node(['MODEL_ARGS']));
}

/** Argument sites of either shape. */
let names: string[] | undefined;
/** Every argument name (dest), for did-you-mean. */
function argNames(): string[] {
  return (names ??= Object.keys(MEGATRON_SCHEMA.properties ?? {}));
}

let renamed: Map<string, string> | undefined;
/** Older argument names (`x-name-before`) → today's: a `--yaml-cfg` key an older release reads. */
function renamedFrom(): Map<string, string> {
  return (renamed ??= new Map(Object.entries(MEGATRON_SCHEMA.properties ?? {}).flatMap(([k, s]) => namesBefore(s).map(([, old]) => [old, k] as [string, string]))));
}

function sitesOf(doc: SourceDoc, settings: EngineSettings): { sites: ArgSite[]; unknown: UnknownArg[] } {
  // The file does not say which script reads it: a flag Megatron-LM lacks may be that script's own,
  // and one a parser of the file's repository defines is accepted.
  if (flagStyle(doc)) {
    const judged = withRepository({ effect: 'warning', consequence: "Megatron-LM stops at startup unless the script that reads this file defines it (a test's entry point may add flags of its own)." }, settings.repositoryFlags);
    return flagSites(doc.node(['MODEL_ARGS']) as MapNode, ['MODEL_ARGS'], "among Megatron-LM's own arguments", judged);
  }
  const sites: ArgSite[] = [];
  const unknown: UnknownArg[] = [];
  const props = MEGATRON_SCHEMA.properties ?? {};
  const root = doc.root;
  if (root?.kind !== 'map') return { sites, unknown };
  const visit = (map: MapNode, base: Path) => {
    for (const e of map.entries) {
      if (e.merged) continue;
      if (base.length === 0 && YAML_CFG_SECTIONS.includes(e.key) && e.value.kind === 'map') {
        visit(e.value, [e.key]);
        continue;
      }
      const dest = props[e.key] ? e.key : renamedFrom().get(e.key);
      if (dest) sites.push({ dest, negate: false, path: [...base, e.key], keySpan: e.keySpan, node: e.value });
      else unknown.push({ path: [...base, e.key], key: e.key, candidates: argNames(), effect: 'ignored', where: base.length ? `in \`${base[0]}\` (no Megatron argument has this name)` : 'among the Megatron-LM arguments' });
    }
  };
  visit(root, []);
  return { sites, unknown };
}

/** The world size: a setting (`world_size=`), or the `<N>N<G>G` of a functional-test path. */
export function worldFromSettings(settings: EngineSettings, path?: string): { world: Field<number>; nodes?: Field<number> } | undefined {
  if (settings.worldSize) {
    return { world: { value: settings.worldSize, from: { kind: 'setting', note: '`world_size` setting' } }, nodes: settings.nodes ? { value: settings.nodes, from: { kind: 'setting', note: '`nodes` setting' } } : undefined };
  }
  const m = path ? /(\d+)N(\d+)G/.exec(path) : null;
  if (m) {
    const n = Number(m[1]);
    const g = Number(m[2]);
    return { world: { value: n * g, from: { kind: 'default', note: `${n} node${n === 1 ? '' : 's'} × ${g} GPUs from the test name` } }, nodes: { value: n, from: { kind: 'default', note: 'from the test name' } } };
  }
  return undefined;
}

/** The GPU a CI test directory names (`..._dgx_a100_1N8G`, `..._release_gb200`). */
export function hardwareFromPath(path?: string): { id: string; note: string } | undefined {
  if (!path) return undefined;
  const dir = path.toLowerCase().split(/[\\/]/).slice(-3).join('/');
  const table: [RegExp, string][] = [
    [/gb300/, 'gb300-nvl72'],
    [/gb[_-]?200/, 'gb200-nvl72'],
    [/(^|[^g])b200/, 'b200'],
    [/h200/, 'h200'],
    [/h20(?!\d)/, 'h20'],
    [/l40s/, 'l40s'],
    [/h100/, 'h100-sxm'],
    [/a100/, 'a100-80gb'],
  ];
  for (const [re, id] of table) if (re.test(dir)) return { id, note: 'from the directory name' };
  return undefined;
}

/** The top-level keys of a functional test's `model_config.yaml` (tests/test_utils in Megatron-LM reads them). */
const TEST_KEYS = new Set(['ENV_VARS', 'MODEL_ARGS', 'TEST_TYPE', 'LAUNCHER', 'METRICS', 'MODE', 'BEFORE_SCRIPT', 'AFTER_SCRIPT']);

const FLAG_RULES: EvidenceRules = {
  what: 'a Megatron-LM YAML (`MODEL_ARGS`)',
  owner: 'Megatron-LM',
  where: 'flags in `MODEL_ARGS`',
  noun: 'flag',
  distinctive: () => false,
  telling: (k) => !!flagTarget(k),
  known: (k) => !!flagTarget(k),
  several: 3,
  balance: 'most',
  spellings: allFlags,
};

const CFG_RULES: EvidenceRules = {
  what: 'a Megatron-LM YAML (`--yaml-cfg`)',
  owner: 'Megatron-LM',
  where: 'top-level keys',
  distinctive: () => false,
  telling: (k) => YAML_CFG_SECTIONS.includes(k),
  known: (k) => YAML_CFG_SECTIONS.includes(k) || !!MEGATRON_SCHEMA.properties?.[k] || renamedFrom().has(k),
  several: 2,
  balance: 'most',
};

/**
 * A Megatron-LM YAML by weight of evidence (formats/evidence.ts): a functional test's `MODEL_ARGS`
 * map of `--flags` (weighed by its flags: most of them Megatron-LM's), or a `--yaml-cfg` file with
 * `language_model` and `model_parallel` sections (most top-level keys Megatron arguments); a Hydra
 * defaults list or `_target_` rules it out.
 */
export function megatronYamlEvidence(doc: SourceDoc): Evidence {
  const markers = foreignMarkers(doc);
  const modelArgs = doc.node(['MODEL_ARGS']);
  if (isFlagMap(modelArgs)) {
    const top = mapKeys(doc.root).map((k) => k.key);
    const foreign = top.filter((k) => !TEST_KEYS.has(k));
    const signs = ['`MODEL_ARGS` is a map of `--flags`, as a functional test writes them'];
    const contradictions = [...markers.hydra];
    if (foreign.length > top.length - foreign.length) contradictions.push(`${named(foreign)} ${foreign.length === 1 ? 'is not a key' : 'are not keys'} of a functional test`);
    return weigh({ keys: mapKeys(modelArgs), signs, contradictions }, FLAG_RULES);
  }
  return weigh({ keys: mapKeys(doc.root), contradictions: markers.hydra }, CFG_RULES);
}

export const megatronYamlFormat: FormatSupport<MegatronYamlModel> = {
  // `--yaml-cfg` loads the whole file into a namespace (yaml_arguments.py load_yaml): a key Megatron-LM lacks is kept and never read. MODEL_ARGS flags go to argparse.
  unknownKeysIn: (doc) => (flagStyle(doc) ? undefined : 'ignored'),
  id: 'megatron-yaml',
  title: 'Megatron-LM YAML',
  toolName: 'Megatron-LM',
  syntaxes: ['yaml'],
  tool: 'megatron-core',
  schema: { json: MEGATRON_SCHEMA, validate: MEGATRON_VALIDATE },
  // The file does not say which script reads its arguments (a functional test's entry point, a fork).
  openKeys: () => 'the file does not say which script reads these arguments',
  messageAt: flagsMessageAt,
  detect: megatronYamlEvidence,
  instance(doc: SourceDoc, nav: SchemaNav, settings: EngineSettings) {
    const { sites, unknown } = sitesOf(doc, settings);
    // MODEL_ARGS values become command-line text for argparse; --yaml-cfg values keep their YAML types.
    const built = argsInstance(sites, unknown, nav, flagStyle(doc));
    if (!flagStyle(doc)) built.instance.ownSchemas = yamlCfgTypes(sites);
    return built;
  },
  schemaPath(doc: SourceDoc, path: Path): Path | undefined {
    const key = path[path.length - 1];
    if (typeof key !== 'string') return undefined;
    if (flagStyle(doc)) return path.length === 2 && path[0] === 'MODEL_ARGS' ? destPath(key) : undefined;
    return MEGATRON_SCHEMA.properties?.[key] ? [key] : undefined;
  },
  keysAt(doc: SourceDoc, path: Path) {
    const props = Object.keys(MEGATRON_SCHEMA.properties ?? {});
    if (flagStyle(doc)) return path.length === 1 && path[0] === 'MODEL_ARGS' ? flagKeys() : undefined;
    const section = path[0];
    const inSection = (d: string) => {
      const where = yamlCfgSection(d);
      return path.length === 0 ? where === 'top' || where === undefined : where === section;
    };
    return props.filter(inSection).map((d) => ({ key: d, schemaPath: [d] }));
  },
  model({ doc, view, settings, path }: ModelInput): MegatronYamlModel {
    const flags = flagStyle(doc);
    const world = worldFromSettings(settings, path);
    const env = flags ? envFromMap(doc, 'ENV_VARS') : undefined;
    const args = argsFromView(view, {
      runtime: flags ? 'Megatron-LM (MODEL_ARGS)' : 'Megatron-LM (--yaml-cfg)',
      pathFor: (dest) => {
        if (flags) {
          const flag = primaryFlag(dest);
          return flag ? ['MODEL_ARGS', flag] : undefined;
        }
        const section = yamlCfgSection(dest);
        return section !== undefined && section !== 'top' && doc.node([section]) ? [section, dest] : [dest];
      },
      world: world?.world,
      nodes: world?.nodes,
      env,
    });
    // --yaml-cfg: core_transformer_config_from_yaml copies every TransformerConfig field of `language_model`
    // (yaml_arguments.py@d98e8a6:397-401), num_query_groups without --group-query-attention included.
    if (!flags) {
      args.configFields = true;
      args.yamlCfg = true;
      // A key it leaves out keeps TransformerConfig's default, not the flag's (`x-default-in`).
      args.defaultsIn = 'yaml-cfg';
      args.defaultsRelease = settings.targetVersions?.['megatron-core'];
    }
    args.hardwareHint = hardwareFromPath(path);
    // A functional test's `MODE: inference` runs a trained checkpoint: no optimizer, no training memory.
    const mode = doc.value(['MODE']);
    if (mode === 'inference') args.notTraining = `the test runs in \`MODE: ${mode}\`, not training`;
    args.notTraining ??= skipsTraining(args);
    return { args };
  },
  writePath: megatronWritePath,
  plan(model, settings) {
    return megatronPlan(model.args, settings, { weightShards: true });
  },
};

/**
 * The config fields a `--yaml-cfg` file writes in their config type (`x-yaml-cfg-type`): the reader
 * hands `language_model` to Megatron Core as YAML wrote it, so a pattern is a list there, not the
 * text argparse parses on the command line (yaml_arguments.py@core_v0.19.0:397-401).
 */
function yamlCfgTypes(sites: readonly ArgSite[]): Map<string, JsonSchema> {
  const out = new Map<string, JsonSchema>();
  for (const s of sites) {
    const prop = MEGATRON_SCHEMA.properties?.[s.dest];
    const own = yamlCfgType(prop);
    if (!prop || !own || s.path[0] !== yamlCfgSection(s.dest)) continue;
    const { type: _type, items: _items, enum: _enum, ...rest } = prop;
    out.set(pointer([s.dest]), { ...rest, ...own });
  }
  return out;
}

function destPath(flag: string): Path | undefined {
  const t = megatronIndexes().flags.get(flag.replace(/=.*$/, ''));
  return t ? [t.dest] : undefined;
}
