/**
 * The Megatron-LM argument schema and its indexes: every spelling of a flag (`--x`, `--no-x`,
 * `--disable-x`, legacy names) to its argparse `dest`, and the Megatron Bridge and NeMo keys that
 * set the same argument. One schema serves the four Megatron formats.
 */
import { lazySchema, lazyValidator } from '../../schema/compiled';
import type { DefaultFormat, DefaultRun, JsonSchema } from '../../schema/types';
import { deprecation, removal, since, spellingRemoved } from '../../schema/vocabulary';
import { compareVersions, isVersion } from '../../version';

/** Loaded when a Megatron file is first seen (it is large). */
export const MEGATRON_SCHEMA: JsonSchema = lazySchema(() => require('../../../../../schemas/megatron.schema.json') as JsonSchema);
export const MEGATRON_VALIDATE = lazyValidator(() => require('../../schema/generated/megatron').validate);

/**
 * The schema as Megatron Bridge reads it: a field whose values in a Megatron-LM `--yaml-cfg` file
 * are names that loader knows takes in a Bridge override the names Bridge restores
 * (`x-bridge-enum`: `activation_func: silu`), or no listed value when Bridge keeps the string as
 * written; a field whose Megatron-LM choices include one Bridge's run refuses takes the others
 * (`non_persistent_ckpt_type`: no `in_memory`). Every other property is Megatron-LM's.
 */
export const BRIDGE_SCHEMA: JsonSchema = lazySchema(() => {
  const properties: Record<string, JsonSchema> = { ...MEGATRON_SCHEMA.properties };
  for (const [dest, prop] of Object.entries(properties)) {
    const names = prop['x-bridge-enum'];
    if (!Array.isArray(names)) continue;
    const { enum: values, markdownEnumDescriptions: docs, ...rest } = prop;
    // Names that are some of Megatron-LM's values keep their descriptions.
    const kept = Array.isArray(values) && Array.isArray(docs) && names.every((n) => values.includes(n)) ? names.map((n) => docs[values.indexOf(n)]) : undefined;
    properties[dest] = !names.length ? rest : kept ? { ...rest, enum: names, markdownEnumDescriptions: kept } : { ...rest, enum: names };
  }
  return { ...MEGATRON_SCHEMA, properties };
});

export interface FlagTarget {
  dest: string;
  /** The spelling sets the dest to false (`--no-x`, `--disable-x`, store_false flags). */
  negate: boolean;
}

interface Indexes {
  flags: Map<string, FlagTarget>;
  bridge: Map<string, string>;
  nemo: Map<string, string>;
  /** dest → its primary flag spelling (arguments with a command-line flag only). */
  primary: Map<string, string>;
  /** Bridge section → every field it may hold. */
  bridgeSections: Map<string, Set<string>>;
  nemoPrefixes: Map<string, Set<string>>;
}

let cached: Indexes | undefined;

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : [];
}

export function megatronIndexes(): Indexes {
  if (cached) return cached;
  const flags = new Map<string, FlagTarget>();
  const bridge = new Map<string, string>();
  const nemo = new Map<string, string>();
  const primary = new Map<string, string>();
  const bridgeSections = new Map<string, Set<string>>();
  const nemoPrefixes = new Map<string, Set<string>>();
  for (const [dest, prop] of Object.entries(MEGATRON_SCHEMA.properties ?? {})) {
    // Fields only the YAML-config, Bridge and NeMo formats write have no command-line spelling.
    const cli = prop['x-cli'] !== false;
    const flag = typeof prop['x-flag'] === 'string' ? (prop['x-flag'] as string) : `--${dest.replace(/_/g, '-')}`;
    if (cli) primary.set(dest, flag);
    const spellings = cli ? new Set([flag, ...strings(prop['x-flags'])]) : new Set(strings(prop['x-flags']));
    for (const s of spellings) {
      const negative = /^--(no|disable)-/.test(s) && !/^(no|disable)_/.test(dest);
      // `x-action` is the primary spelling's; an older positive spelling of a store_false argument
      // (`--enable-one-logger` before `--no-one-logger`) switched it on.
      const storeFalse = prop['x-action'] === 'store_false' && (s === flag || /^--(no|disable)-/.test(s));
      flags.set(s, { dest, negate: negative || storeFalse });
    }
    for (const path of strings(prop['x-bridge'])) bridge.set(path, dest);
    for (const path of strings(prop['x-nemo'])) {
      nemo.set(path, dest);
      const parent = path.split('.').slice(0, -1).join('.');
      if (!nemoPrefixes.has(parent)) nemoPrefixes.set(parent, new Set());
      nemoPrefixes.get(parent)!.add(path.split('.').pop()!);
    }
  }
  // Every field of each Bridge ConfigContainer section, Megatron argument or not.
  const sections = (MEGATRON_SCHEMA as Record<string, unknown>)['x-bridge-sections'];
  if (sections && typeof sections === 'object') {
    for (const [section, keys] of Object.entries(sections as Record<string, unknown>)) bridgeSections.set(section, new Set(strings(keys)));
  }
  for (const path of bridge.keys()) {
    const [section, ...rest] = path.split('.');
    if (!bridgeSections.has(section)) bridgeSections.set(section, new Set());
    bridgeSections.get(section)!.add(rest.join('.'));
  }
  const nemoModelKeys = strings((MEGATRON_SCHEMA as Record<string, unknown>)['x-nemo-model-keys']);
  if (!nemoPrefixes.has('model')) nemoPrefixes.set('model', new Set());
  for (const k of nemoModelKeys) nemoPrefixes.get('model')!.add(k);
  cached = { flags, bridge, nemo, primary, bridgeSections, nemoPrefixes };
  return cached;
}

/** The dest a flag spelling sets (accepts `--flag=value` keys). */
export function flagTarget(flag: string): FlagTarget | undefined {
  return megatronIndexes().flags.get(flag.replace(/=.*$/, ''));
}

/**
 * Whether a flag takes a value on the command line: false for argparse's `store_true`/`store_false`
 * flags, true for the others, undefined for a flag Megatron-LM does not have.
 */
export function flagTakesValue(flag: string): boolean | undefined {
  const t = flagTarget(flag);
  if (!t) return undefined;
  const action = MEGATRON_SCHEMA.properties?.[t.dest]?.['x-action'];
  return action !== 'store_true' && action !== 'store_false';
}

/** The flag that sets `dest`, or undefined for fields with no command-line spelling. */
export function primaryFlag(dest: string): string | undefined {
  return megatronIndexes().primary.get(dest);
}

let current: string[] | undefined;
/** The flag spellings worth suggesting for a typo: those of arguments neither removed nor deprecated. */
export function allFlags(): string[] {
  if (current) return current;
  const props = MEGATRON_SCHEMA.properties ?? {};
  current = [...megatronIndexes().flags].filter(([f, t]) => !props[t.dest]['x-removed'] && !props[t.dest]['x-deprecated'] && !spellingRemoved(props[t.dest], f)).map(([f]) => f);
  return current;
}

/**
 * The spellings of the argument `flag` sets that a release reads, given whether the release is at
 * least a version: those it already has (`x-flag-since`, `x-since`) and still has (`x-flag-removed`).
 */
export function spellingsAt(flag: string, atLeast: (version: string) => boolean): string[] {
  const t = flagTarget(flag);
  const prop = t ? MEGATRON_SCHEMA.properties?.[t.dest] : undefined;
  if (!t || !prop) return [];
  return [...megatronIndexes().flags]
    .filter(([, x]) => x.dest === t.dest && x.negate === t.negate)
    .map(([f]) => f)
    .filter((f) => {
      const from = since(prop, f);
      const gone = spellingRemoved(prop, f);
      return (!from || atLeast(from)) && (!gone || !atLeast(gone));
    });
}

/** The flags completion offers: one per argument that has a command-line spelling and is still current. */
export function flagKeys(): { key: string; schemaPath: string[] }[] {
  const props = MEGATRON_SCHEMA.properties ?? {};
  return [...megatronIndexes().primary].filter(([d]) => !props[d]['x-deprecated'] && !props[d]['x-removed']).map(([d, flag]) => ({ key: flag, schemaPath: [d] }));
}

/** The `--yaml-cfg` section an argument is written in (`x-yaml-cfg`): `top`, a section name, or undefined (top). */
export function yamlCfgSection(dest: string): string | undefined {
  const where = MEGATRON_SCHEMA.properties?.[dest]?.['x-yaml-cfg'];
  return typeof where === 'string' ? where : undefined;
}

/**
 * Where the `--yaml-cfg` reader of a release takes the key from: the section of `x-yaml-cfg-before`
 * whose release the targeted one is below (asked through `atLeast`, oldest first, so a release that
 * is only assumed is recorded as such), else `x-yaml-cfg`.
 */
export function yamlCfgSectionAt(dest: string, atLeast: (version: string) => boolean): string | undefined {
  const table = MEGATRON_SCHEMA.properties?.[dest]?.['x-yaml-cfg-before'];
  const older = table && typeof table === 'object' ? Object.entries(table as Record<string, unknown>).sort(([a], [b]) => compareVersions(a, b)) : [];
  for (const [before, where] of older) if (typeof where === 'string' && !atLeast(before)) return where;
  return yamlCfgSection(dest);
}

/** The flags of `x-entrypoint-flags` a script adds only from a later release than its first, by script path (`x-entrypoint-flags-since`). */
export function entrypointFlagsSince(): Record<string, Record<string, string>> {
  return (MEGATRON_SCHEMA['x-entrypoint-flags-since'] ?? {}) as Record<string, Record<string, string>>;
}

/** The flags known entry scripts add to Megatron's own (`x-entrypoint-flags`), by script path. */
export function entrypointFlags(): Record<string, string[]> {
  return (MEGATRON_SCHEMA['x-entrypoint-flags'] ?? {}) as Record<string, string[]>;
}

/**
 * Flags only some entry scripts add (`x-entrypoints`): dest → the scripts or folders that add them,
 * and the first release in which a script adds it where that is later than the flag's own
 * (`x-entrypoints-since`: `train_rl.py` adds the inference flags from 0.17.0).
 */
export function entrypointOnlyFlags(): Map<string, { scripts: string[]; since: Record<string, string> }> {
  const out = new Map<string, { scripts: string[]; since: Record<string, string> }>();
  for (const [dest, p] of Object.entries(MEGATRON_SCHEMA.properties ?? {})) {
    const eps = (p as Record<string, unknown>)['x-entrypoints'];
    const since = ((p as Record<string, unknown>)['x-entrypoints-since'] ?? {}) as Record<string, string>;
    if (Array.isArray(eps) && eps.length) out.set(dest, { scripts: eps as string[], since });
  }
  return out;
}

let nemoRecords: ReadonlyMap<string, string> | undefined;
/**
 * Keys NeMo writes into a model config itself (`x-nemo-records`: the artifacts NeMo 1.5 to 1.7
 * registered under `model:`, the release and class it stamps), with what writes them: records of a
 * saved model, not settings anyone typed.
 */
export function nemoRecordKeys(): ReadonlyMap<string, string> {
  return (nemoRecords ??= new Map(Object.entries((MEGATRON_SCHEMA['x-nemo-records'] as Record<string, string> | undefined) ?? {})));
}

let nemoOwnKeys: Set<string> | undefined;
/** The old Megatron names NeMo's own code reads (`x-nemo-own-keys`). */
export function nemoOwnKeyNames(): Set<string> {
  return (nemoOwnKeys ??= new Set((MEGATRON_SCHEMA['x-nemo-own-keys'] as string[] | undefined) ?? []));
}

/** The first release of Megatron Core: flags older than it are the pre-Core Megatron-LM's. */
export const FIRST_CORE_RELEASE = '0.4.0';

/**
 * What a flag says of the Megatron-LM that reads it: `before` a release (a flag that release removed,
 * or that it stops on), or `from` the release that added it: one after the first Megatron Core one, or that
 * one itself for a flag no Megatron-LM before it had (`x-absent-before-core`).
 */
export function flagEra(flag: string): { before?: string; from?: string } {
  const t = flagTarget(flag);
  const schema = t ? MEGATRON_SCHEMA.properties?.[t.dest] : undefined;
  if (!schema) return {};
  const removed = removal(schema);
  const dep = deprecation(schema);
  const stops = dep?.effect === 'error' && !dep.conditional ? dep.since : undefined;
  const before = spellingRemoved(schema, flag.replace(/=.*$/, '')) ?? removed?.version ?? stops;
  const added = since(schema, flag.replace(/=.*$/, ''));
  // A flag with no x-since that no Megatron-LM before the first Core release had: that release added it.
  const first = !added && schema['x-absent-before-core'] === true ? FIRST_CORE_RELEASE : undefined;
  return {
    before,
    from: added && compareVersions(added, FIRST_CORE_RELEASE) > 0 ? added : first,
  };
}

/** The Bridge paths of an argument that the section's own `__post_init__` sets whatever is written (`x-bridge-overwritten`). */
export function bridgeOverwritten(schema: JsonSchema | undefined): string[] {
  return strings(schema?.['x-bridge-overwritten']);
}

/**
 * The Megatron Core release from which a Megatron Bridge file has the key at `path`: `x-bridge-since`,
 * the release of the first Bridge release whose config section has the field (`model.yarn_beta_fast`
 * before Megatron-LM's flag, `model.moe_pad_experts_for_cuda_graph_inference` after it,
 * `validation.skip_train` with the `validation` section of Bridge 0.4); else, for a `model` field, the
 * argument's `x-since`, and for a path of another section none (every Bridge release has it).
 */
export function bridgeSince(schema: JsonSchema | undefined, path: string): string | undefined {
  return schema?.['x-bridge-since']?.[path] ?? (path.startsWith('model.') ? schema?.['x-since'] : undefined);
}

/**
 * The release from which a Megatron-LM `--yaml-cfg` file has the key: `x-yaml-cfg-since` where a config
 * dataclass the reader fills has the field before Megatron-LM has the flag
 * (`fsdp_db_use_persist_buf_on_alloc_fail`: a DDP config field from 0.17.0, the flag from 0.19.0), else `x-since`.
 */
export function yamlCfgSince(schema: JsonSchema | undefined): string | undefined {
  return schema?.['x-yaml-cfg-since'] ?? schema?.['x-since'];
}

/** The Megatron Core release of the first Bridge release that no longer reads this path of `x-bridge-unread` (`x-bridge-unread-since`), where older Bridge releases did. */
export function bridgeUnreadSince(schema: JsonSchema | undefined, path: string): string | undefined {
  return schema?.['x-bridge-unread-since']?.[path];
}

/** The Bridge paths of an argument that nothing in Bridge (its recipes aside) or Megatron Core reads by name (`x-bridge-unread`). */
/** The Megatron Bridge paths that set the argument (`x-bridge`). */
export function bridgePaths(schema: JsonSchema | undefined): string[] {
  return strings(schema?.['x-bridge']);
}

export function bridgeUnread(schema: JsonSchema | undefined): string[] {
  return strings(schema?.['x-bridge-unread']);
}

/** The release before which the argument's flag stores an attribute nothing reads, and which (`x-unread-before`). */
/**
 * The release from which nothing reads a flag Megatron-LM still accepts (`x-unread-from`: no Python
 * file of the release names its attribute, parsers and tests aside); `{}`: no release that has it.
 * `why` (written by hand): the attribute is read, but what the read sets is overwritten before use, so
 * the flag changes nothing; the read is Megatron Core's, so the Bridge paths of the argument change nothing too.
 */
/** The config type a `--yaml-cfg` file writes the field in, where the command line's text form differs (`x-yaml-cfg-type`). */
export function yamlCfgType(schema: JsonSchema | undefined): JsonSchema | undefined {
  const own = schema?.['x-yaml-cfg-type'];
  return own && typeof own === 'object' ? own : undefined;
}

/**
 * The switch without which Megatron-LM's training loop never reads this argument (`x-only-with`:
 * `--use-pytorch-profiler` and the profiled steps act only under `--profile`), from `since` where
 * earlier releases read it alone.
 */
export function onlyWith(schema: JsonSchema | undefined): { key: string; since?: string; why: string } | undefined {
  const o = schema?.['x-only-with'];
  return o && typeof o === 'object' && typeof o.key === 'string' && typeof o.why === 'string' && (o.since === undefined || typeof o.since === 'string') ? o : undefined;
}

/** The TransformerConfig field the flags' config builder passes this argument on to under another name (`x-config-field`). */
export function configField(schema: JsonSchema | undefined): string | undefined {
  const f = schema?.['x-config-field'];
  return typeof f === 'string' ? f : undefined;
}

/** The arguments Megatron-LM derives this field from, where it has no flag of its own (`x-set-by`). */
export function setBy(schema: JsonSchema | undefined): string[] {
  const from = schema?.['x-set-by'];
  return Array.isArray(from) ? from.filter((k): k is string => typeof k === 'string') : [];
}

/**
 * Why Megatron-LM's `--yaml-cfg` reader never copies this field from its section (`x-yaml-cfg-unread`),
 * and the first release where that holds when earlier ones read it elsewhere (`x-yaml-cfg-unread-since`).
 */
export function yamlCfgUnread(schema: JsonSchema | undefined): { why: string; since?: string } | undefined {
  const why = schema?.['x-yaml-cfg-unread'];
  const since = schema?.['x-yaml-cfg-unread-since'];
  return typeof why === 'string' ? { why, since: typeof since === 'string' ? since : undefined } : undefined;
}

export function unreadFrom(schema: JsonSchema | undefined): { version?: string; why?: string } | undefined {
  const u = schema?.['x-unread-from'];
  return u && typeof u === 'object' && (u.version === undefined || typeof u.version === 'string') && (u.why === undefined || typeof u.why === 'string') ? u : undefined;
}

export function unreadBefore(schema: JsonSchema | undefined): { version: string; why: string } | undefined {
  const u = schema?.['x-unread-before'];
  return u && typeof u.version === 'string' && typeof u.why === 'string' ? u : undefined;
}

/**
 * The run of `x-default-in` that gives the argument its default in `format` at `release` (the newest
 * run when no release is known), or undefined where the format takes the command line's default.
 */
/**
 * Whether `x-default-in` gives the argument different defaults in `format` at different releases (the
 * `--yaml-cfg` reader's `async_tensor_model_parallel_allreduce`: off before 0.16.0, on from it): then,
 * with no release named, its default is not known.
 */
export function formatDefaultVaries(schema: JsonSchema | undefined, format: DefaultFormat): boolean {
  const runs = schema?.['x-default-in']?.[format] ?? [];
  const key = (r: DefaultRun) => JSON.stringify([r.cli === true, r.unknown !== undefined, r.value, r.mla]);
  return new Set(runs.map(key)).size > 1;
}

export function formatDefaultRun(schema: JsonSchema | undefined, format: DefaultFormat, release: string | undefined): DefaultRun | undefined {
  const runs = schema?.['x-default-in']?.[format];
  if (!runs?.length) return undefined;
  const at = release && isVersion(release) ? [...runs].reverse().find((r) => !r.from || compareVersions(release, r.from) >= 0) : runs[runs.length - 1];
  return at && !at.cli ? at : undefined;
}
