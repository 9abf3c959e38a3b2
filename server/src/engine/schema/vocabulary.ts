/**
 * The one reader of Shardwise's `x-` schema keywords (see schemas/README.md): what a property or a
 * section says beyond JSON Schema — how the tool normalizes a value, when a key or value was added,
 * deprecated or removed, which `distributed_type` reads a section, what the tool does with an unknown
 * key or an invalid value. Rules, features and the schema check ask here; the Megatron format's own
 * keywords (flag spellings, Bridge and NeMo paths) are read by formats/megatron/schema.ts.
 */
import type { Deprecation, JsonSchema, KeyPrefix, RequiredRange, ValueForm, ValuesGate } from './types';
import { compareVersions } from '../version';

/** A string value as the tool compares it (`x-normalize`: upper- or lower-cased), else as written. */
export function normalized(schema: JsonSchema | undefined, value: string, version?: string): string {
  const since = schema?.['x-normalize-since'];
  if (since && version && compareVersions(version, since) < 0) return value;
  const how = schema?.['x-normalize'];
  return how === 'upper' ? value.toUpperCase() : how === 'lower' ? value.toLowerCase() : value;
}

/**
 * The tool still reads the key but has deprecated it (`x-deprecated`). With `atLeast` (whether the
 * release in question is at least a version), the phase in effect there (`earlier`: a key converted
 * with a warning before it was ignored), with `firstSince` the release that first deprecated it.
 */
export function deprecation(schema: JsonSchema | undefined, atLeast?: (version: string) => boolean): Deprecation | undefined {
  const dep: Deprecation | undefined = schema?.['x-deprecated'];
  if (!dep?.earlier?.length || !atLeast) return dep;
  const firstSince = dep.earlier[0].since;
  if (!dep.since || atLeast(dep.since)) return { ...dep, earlier: undefined, firstSince };
  const phase = [...dep.earlier].reverse().find((p) => atLeast(p.since));
  return phase ? { ...dep, ...phase, earlier: undefined, firstSince } : { ...dep, since: firstSince, earlier: undefined, firstSince };
}

/**
 * The deprecation as a Megatron Bridge override meets it (`x-deprecated.bridge`), where Bridge does
 * not do what Megatron-LM's argument checks do; the key's own deprecation otherwise. It holds from
 * its own `since`, else the key's; the message still dates it from the release that first
 * deprecated the argument.
 */
export function bridgeDeprecation(dep: Deprecation | undefined): Deprecation | undefined {
  if (!dep?.bridge) return dep;
  return { since: dep.since, ...dep.bridge, firstSince: dep.firstSince ?? dep.since };
}

/** What the tool does with an explicit null its reader takes as the value (`x-null-effect`), from which release. */
export function nullEffect(schema: JsonSchema | undefined): { since?: string; effect: string } | undefined {
  return schema?.['x-null-effect'];
}

/** The tool removed the key (`x-removed`): the release that did, and what replaced it. */
export function removal(schema: JsonSchema | undefined): { version: string; replacement?: string } | undefined {
  return schema?.['x-removed'];
}

/** Deprecated or removed: not offered in completion or as a did-you-mean. */
export function retired(schema: JsonSchema | undefined): boolean {
  return !!deprecation(schema) || !!removal(schema);
}

/** The deprecated values of the key, by their JSON text (`x-deprecated-values`). */
export function deprecatedValues(schema: JsonSchema | undefined): Record<string, Deprecation> | undefined {
  return schema?.['x-deprecated-values'];
}

/** The first release that reads the key (`x-since`), or that reads the spelling written (`x-flag-since`). */
export function since(schema: JsonSchema | undefined, spelling?: string): string | undefined {
  return (spelling ? schema?.['x-flag-since']?.[spelling] : undefined) ?? schema?.['x-since'];
}

/** The first release that no longer reads the spelling written (`x-flag-removed`), for a spelling an older release had. */
export function spellingRemoved(schema: JsonSchema | undefined, spelling: string): string | undefined {
  return schema?.['x-flag-removed']?.[spelling];
}

/**
 * The names an argument had before a release (`x-name-before`), as `[release, older name]`: the
 * older name is what the releases before `release` store it under.
 */
export function namesBefore(schema: JsonSchema | undefined): [string, string][] {
  return Object.entries(schema?.['x-name-before'] ?? {});
}

/** The release up to which (excluded) the launcher read a prefixed key only without its prefix (`x-bare-until`). */
export function bareUntil(schema: JsonSchema | undefined): string | undefined {
  return schema?.['x-bare-until'];
}

/**
 * The first release that accepts a value of the key (`x-enum-since`). With `x-enum-since-case: lower`
 * the tool matches those names in any letter case (DeepSpeed's own optimizers), so the value is looked
 * up in lower case, except the exact spellings another lookup takes in older releases
 * (`x-enum-since-exact`: a torch.optim class), which get no release.
 */
export function valueSince(schema: JsonSchema | undefined, value: string): string | undefined {
  const table = schema?.['x-enum-since'];
  if (!table) return undefined;
  if (schema['x-enum-since-case'] === 'lower' && schema['x-enum-since-exact']?.includes(value)) return undefined;
  const key = schema['x-enum-since-case'] === 'lower' ? value.toLowerCase() : normalized(schema, value);
  return Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;
}

/**
 * The `distributed_type`s that read the section (`x-applies-to`); undefined: every one. With
 * `atLeast` (whether the release is at least a version), only those whose launch path reads it at
 * that release (`x-applies-to-since`).
 */
export function appliesTo(schema: JsonSchema | undefined, atLeast?: (version: string) => boolean): string[] | undefined {
  const all = schema?.['x-applies-to'];
  const since = schema?.['x-applies-to-since'];
  if (!all || !since || !atLeast) return all;
  return all.filter((t) => !since[t] || atLeast(since[t]));
}

/** The first release whose launch path for each type reads the section, where later than the section (`x-applies-to-since`). */
export function appliesToSince(schema: JsonSchema | undefined): Record<string, string> | undefined {
  return schema?.['x-applies-to-since'];
}

/**
 * Whether the SageMaker launch leaves the key of a SageMaker config out of the job it starts at the
 * release (`x-sagemaker-unused`: `true` at every release, or a `{ since }` / `{ before }` run).
 */
export function sagemakerUnused(schema: JsonSchema | undefined, atLeast: (version: string) => boolean): boolean {
  const u = schema?.['x-sagemaker-unused'];
  if (u === true) return true;
  if (!u || typeof u !== 'object') return false;
  return (!u.since || atLeast(u.since)) && (!u.before || !atLeast(u.before));
}

/**
 * Whether `accelerate launch` at the release does not take the top-level key from a config file
 * (`x-launch-ignores`: `true` at every release, or a `{ since }` / `{ before }` run): an option of the
 * same name has a default, so the file's value never replaces it, or the launcher copies no fields yet.
 */
export function launchIgnores(schema: JsonSchema | undefined, atLeast: (version: string) => boolean): boolean {
  const u = schema?.['x-launch-ignores'];
  if (u === true) return true;
  if (!u || typeof u !== 'object') return false;
  return (!u.since || atLeast(u.since)) && (!u.before || !atLeast(u.before));
}

/** Whether `accelerate launch` takes the key from no config file at any release (`x-launch-ignores: true`). */
export function launchIgnoresAlways(schema: JsonSchema | undefined): boolean {
  return schema?.['x-launch-ignores'] === true;
}

/** Megatron: a config field that holds a function or object set in code, which a file can only leave null (`x-value: "null"`). */
export function onlyNull(schema: JsonSchema | undefined): boolean {
  return schema?.['x-value'] === 'null';
}

/** The first release that runs without the key, where earlier ones stop when it is absent (`x-required-before`). */
export function requiredBefore(schema: JsonSchema | undefined): string | undefined {
  return schema?.['x-required-before'];
}

/** The keys the section's reader asserts when its `enabled` is true, by release (`x-required-when-enabled`). */
export function requiredWhenEnabled(section: JsonSchema | undefined): Record<string, RequiredRange[]> {
  return Object.fromEntries(Object.entries(section?.['x-required-when-enabled'] ?? {}).map(([k, r]) => [k, Array.isArray(r) ? r : [r]]));
}

/**
 * Where the section's values (or a key's) are checked only while a switch is on (`x-values-checked-when-enabled`:
 * DeepSpeed's AutoEP validates them when it sets the experts up): why, and the keys checked anyway.
 * With `atLeast`, only the gates that hold at the release (`since` reached, `until` not).
 */
export function valuesCheckedWhenEnabled(section: JsonSchema | undefined, atLeast?: (version: string) => boolean): ValuesGate[] {
  const gate = section?.['x-values-checked-when-enabled'];
  const gates = gate === undefined ? [] : Array.isArray(gate) ? gate : [gate];
  return atLeast ? gates.filter((g) => (!g.since || atLeast(g.since)) && (!g.until || !atLeast(g.until))) : gates;
}

/** What an unknown key does where the section hands its keys on only while enabled (`x-unknown-key-when-enabled`). */
export function unknownKeyWhenEnabled(section: JsonSchema | undefined): string | undefined {
  return section?.['x-unknown-key-when-enabled'];
}

/** What the tool does with a key the section does not define (`x-unknown-key-effect`). */
export function unknownKeyEffect(section: JsonSchema | undefined): 'error' | 'ignored' | undefined {
  return section?.['x-unknown-key-effect'];
}

/** The first release that refuses unknown keys in a section marked `error` (`x-strict-since`); undefined: every release does. */
export function strictSince(section: JsonSchema | undefined): string | undefined {
  return section?.['x-strict-since'];
}

/** `x-nargs-before`: the arity of the releases before each named one (a word count, 0 for a switch, or `*`, `+`, `?`), oldest run first. */
export function nargsBefore(prop: JsonSchema | undefined): [string, number | string][] {
  const t = prop?.['x-nargs-before'];
  return t && typeof t === 'object' ? Object.entries(t).filter((e): e is [string, number | string] => typeof e[1] === 'number' || (typeof e[1] === 'string' && /^[*+?]$/.test(e[1]))).sort((a, b) => compareVersions(a[0], b[0])) : [];
}

/**
 * The JSON type of the values the flag's parser took at a release (`x-type-before`: the numeric
 * type, `integer` or `number`, of the releases before each named one, where it differs from the
 * schema's `type`), with `until`, the first release after that run; undefined: the schema's type
 * holds there. `atLeast` answers whether the release is at least a version.
 */
export function typeAtRelease(schema: JsonSchema | undefined, atLeast: (version: string) => boolean): { type: 'integer' | 'number'; until: string } | undefined {
  const hit = typesBefore(schema).find(([v]) => !atLeast(v));
  return hit ? { type: hit[1], until: hit[0] } : undefined;
}

/** `x-type-before` as `[release, type]`, oldest first: the numeric type of the releases before `release`. */
export function typesBefore(schema: JsonSchema | undefined): [string, 'integer' | 'number'][] {
  const table = schema?.['x-type-before'];
  if (!table || typeof table !== 'object') return [];
  return Object.entries(table).filter((e): e is [string, 'integer' | 'number'] => e[1] === 'integer' || e[1] === 'number').sort((a, b) => compareVersions(a[0], b[0]));
}

/** `x-nargs-since`: the first release whose parser takes several words for the flag (before it, one). */
export function nargsSince(prop: JsonSchema | undefined): string | undefined {
  return prop?.['x-nargs-since'];
}

/** `x-value-checked-since`: from this release the key's own reader refuses a value outside the schema, strict section or not. */
export function valueCheckedSince(prop: JsonSchema | undefined): string | undefined {
  return prop?.['x-value-checked-since'];
}

/**
 * The first release whose strict model of the section drops an `"auto"` value before validating it
 * (`x-auto-dropped-since`); undefined: from `x-strict-since` on. Before it the model validates
 * `"auto"` as the value.
 */
export function autoDroppedSince(section: JsonSchema | undefined): string | undefined {
  return section?.['x-auto-dropped-since'];
}

/**
 * The values of an enumerated key that a release accepts, where the enum's release facts say so: the
 * enum's values that release has (`x-enum-since`), the values it still has that later releases
 * refused (`x-enum-removed`), and old values it reads before their deprecation or removal
 * (`x-deprecated-values`, dated from their `x-enum-since` where they arrived after the key). `atLeast`
 * says whether the release is at least a version. Undefined for a key without an enum; the enum as it
 * is where the release accepts none of its values by these facts (nothing better to say).
 */
export function enumAtRelease(schema: JsonSchema | undefined, atLeast: (version: string) => boolean): unknown[] | undefined {
  const all = schema?.enum;
  if (!all) return undefined;
  const arrived = (v: unknown) => {
    const at = typeof v === 'string' ? valueSince(schema, v) : undefined;
    return !at || atLeast(at);
  };
  const out = all.filter(arrived);
  for (const [v, r] of Object.entries(schema['x-enum-removed'] ?? {})) if (!out.includes(v) && (!r.since || atLeast(r.since)) && !atLeast(r.removed)) out.push(v);
  for (const [v, d] of Object.entries(schema['x-deprecated-values'] ?? {})) {
    if (all.some((e) => (typeof e === 'string' ? e : JSON.stringify(e)) === v) || out.includes(v) || !d.since) continue;
    if (arrived(v) && !atLeast(d.since)) out.push(v);
  }
  return out.length ? out : all;
}

/** The releases that accepted a value the schema's enum no longer lists (`x-enum-removed`), if any did. */
export function enumRemoved(schema: JsonSchema | undefined, value: unknown): { since?: string; removed: string } | undefined {
  const table = schema?.['x-enum-removed'];
  return typeof value === 'string' && table && Object.prototype.hasOwnProperty.call(table, value) ? table[value] : undefined;
}

/** How each range of releases reads the value (`x-value-forms`), where that changed. */
export function valueForms(schema: JsonSchema | undefined): ValueForm[] | undefined {
  const f = schema?.['x-value-forms'];
  return Array.isArray(f) ? f : undefined;
}

/**
 * The release before which an invalid value runs silently as another (`x-invalid-runs-before`);
 * `bounds`: only a value that breaks nothing but the numeric bounds does.
 */
export function invalidRunsBefore(schema: JsonSchema | undefined): { version: string; effect: string; bounds: boolean } | undefined {
  const r = schema?.['x-invalid-runs-before'];
  return r && typeof r.version === 'string' && typeof r.effect === 'string' ? { version: r.version, effect: r.effect.replace(/\.\s*$/, ''), bounds: r.bounds === true } : undefined;
}

/** The range a value is meant to lie in that the tool never checks (`x-advised`), and the bounds a number breaks, as `≥ 0`, `≤ 1`… */
export function advisedBreaks(schema: JsonSchema | undefined, value: unknown): { broken: string[]; why?: string; names?: unknown[] } | undefined {
  const a = schema?.['x-advised'];
  const why = typeof a?.why === 'string' ? a.why.replace(/\.\s*$/, '') : undefined;
  // A name the tool takes as free text: matched as the tool matches it (`x-normalize`).
  const names = advisedNames(schema);
  if (names && (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')) {
    const norm = (v: unknown) => (typeof v === 'string' ? normalized(schema, v) : v);
    return names.some((n) => norm(n) === norm(value)) ? undefined : { broken: [], why, names };
  }
  if (!a || typeof value !== 'number') return undefined;
  const broken: string[] = [];
  if (a.minimum !== undefined && value < a.minimum) broken.push(`≥ ${a.minimum}`);
  if (a.exclusiveMinimum !== undefined && value <= a.exclusiveMinimum) broken.push(`> ${a.exclusiveMinimum}`);
  if (a.maximum !== undefined && value > a.maximum) broken.push(`≤ ${a.maximum}`);
  if (a.exclusiveMaximum !== undefined && value >= a.exclusiveMaximum) broken.push(`< ${a.exclusiveMaximum}`);
  return broken.length ? { broken, why } : undefined;
}

/** The names a free-text key is meant to be one of that the tool never checks (`x-advised.enum`), if any. */
export function advisedNames(schema: JsonSchema | undefined): unknown[] | undefined {
  const e = schema?.['x-advised']?.enum;
  return Array.isArray(e) && e.length ? e : undefined;
}

/** The schema without its numeric bounds (`minimum`, `maximum`, `exclusive*`, `multipleOf`), at every depth. */
export function unbounded(schema: JsonSchema): JsonSchema {
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (!v || typeof v !== 'object') return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (!BOUNDS.has(k)) out[k] = k.startsWith('x-') ? x : strip(x);
    return out;
  };
  return strip(schema) as JsonSchema;
}
const BOUNDS = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']);

/** What happens with an invalid value (`x-invalid-effect`), as a clause a message ends with its own full stop. */
/**
 * Whether DeepSpeed reads the key with no check of its own (the history builder found none at the
 * newest release: scripts/history/deepspeed-checks.mjs writes its stock `x-invalid-effect` sentence).
 */
export function noOwnCheck(schema: JsonSchema | undefined): boolean {
  const effect = schema?.['x-invalid-effect'];
  return typeof effect === 'string' && effect.startsWith('DeepSpeed stops, or silently misbehaves, where it first uses a wrong value');
}

/**
 * Megatron: what a `--yaml-cfg` value outside the choices does where it still stops the run
 * (`x-yaml-cfg-refused`), and the switch that, written off, spares it.
 */
export function yamlCfgRefusal(schema: JsonSchema | undefined): { effect: string; unlessOff?: string; onlyNull?: boolean; core?: boolean } | undefined {
  const refused = schema?.['x-yaml-cfg-refused'];
  return refused ? { effect: refused.effect.replace(/\.\s*$/, ''), unlessOff: refused.unlessOff, onlyNull: refused.onlyNull, core: refused.core } : undefined;
}

/**
 * Megatron: a value outside the choices that Megatron Core's own config dataclass refuses when it is
 * built (`x-yaml-cfg-refused.core`), under every reader that builds it: the `--yaml-cfg` reader,
 * Megatron Bridge, NeMo. What happens, as a clause.
 */
export function configRefusal(schema: JsonSchema | undefined): string | undefined {
  const refused = yamlCfgRefusal(schema);
  return refused?.core ? refused.effect : undefined;
}

/** Megatron: Megatron Bridge keeps a string override for this field as written (`x-bridge-enum: []`): no name is turned into a function. */
export function bridgeKeepsText(schema: JsonSchema | undefined): boolean {
  const names = schema?.['x-bridge-enum'];
  return Array.isArray(names) && names.length === 0;
}

export function invalidEffect(schema: JsonSchema | undefined): string | undefined {
  const effect = schema?.['x-invalid-effect'];
  return typeof effect === 'string' ? effect.replace(/\.\s*$/, '') : effect;
}

/**
 * What the tool does with the boolean false where it wants text, when a schema says (`x-yaml-false`),
 * at the release `atLeast` answers for (without it, the first entry).
 */
export function yamlFalse(schema: JsonSchema | undefined, atLeast?: (version: string) => boolean): { severity: 'error' | 'warning' | 'information' | 'hint' | 'none'; effect: string; quote: boolean } | undefined {
  const raw = schema?.['x-yaml-false'];
  const entries = Array.isArray(raw) ? raw : raw ? [raw] : [];
  const f = entries.find((e) => !atLeast || ((!e.since || atLeast(e.since)) && (!e.before || !atLeast(e.before))));
  return f && typeof f.effect === 'string' ? { severity: f.severity, effect: f.effect.replace(/\.\s*$/, ''), quote: f.quote !== false } : undefined;
}

/**
 * Whether the releases the schema names turn the boolean into the quoted text themselves (an
 * `x-yaml-false` entry by release, none refusing the quoted form): there quoting changes nothing, and
 * elsewhere the unquoted file cannot run, so the quote is safe whichever release runs the file.
 */
export function yamlFalseQuoteSafe(schema: JsonSchema | undefined): boolean {
  const raw = schema?.['x-yaml-false'];
  return Array.isArray(raw) && raw.some((e) => e.severity === 'none') && raw.every((e) => e.quote !== false);
}

/** The prefix the launcher adds to the section's keys (`x-key-prefix`, `offload_params` → `fsdp_offload_params`). */
export function keyPrefix(section: JsonSchema | undefined): KeyPrefix | undefined {
  return section?.['x-key-prefix'];
}

/** The prefix every key of the section must be written with (`x-required-prefix`). */
export function requiredPrefix(section: JsonSchema | undefined): string | undefined {
  return section?.['x-required-prefix'];
}

/** The integrations that fill an `"auto"` value (`x-auto`; empty: accepted, then DeepSpeed's default applies). */
export function autoFillers(schema: JsonSchema | undefined): ('transformers' | 'accelerate')[] | undefined {
  return schema?.['x-auto'];
}

/** What an unfilled `"auto"` does where the key's only reader takes the raw config, not the validated section (`x-auto-effect`). */
export function autoEffect(schema: JsonSchema | undefined): string | undefined {
  const e = schema?.['x-auto-effect'];
  return typeof e === 'string' ? e.replace(/\.\s*$/, '') : undefined;
}

/** The ZeRO stage from which (a number) or at which (a list) DeepSpeed reads the key (`x-requires-stage`). */
export function requiredStage(schema: JsonSchema | undefined): number | number[] | undefined {
  return schema?.['x-requires-stage'];
}

/** The default in words, where it is not one value (`x-default-note`). */
export function defaultNote(schema: JsonSchema | undefined): string | undefined {
  return schema?.['x-default-note'];
}

/** The defaults of older releases, oldest first (`x-default-before`): each the default of the releases before `before`. */
export function defaultsBefore(schema: JsonSchema | undefined): { before: string; value: unknown }[] {
  const table = schema?.['x-default-before'];
  if (!table || typeof table !== 'object') return [];
  return Object.entries(table)
    .map(([before, value]) => ({ before, value }))
    .sort((a, b) => compareVersions(a.before, b.before));
}

/** The default at `release`: the entry of `x-default-before` that covers it, else `default` (also when no release is known). */
export function defaultAt(schema: JsonSchema | undefined, release: string | undefined): unknown {
  const older = release === undefined ? undefined : defaultsBefore(schema).find((d) => compareVersions(release, d.before) < 0);
  return older ? older.value : schema?.default;
}

/**
 * The runs of releases whose default for the key is None (a null entry of `x-default-before`) while
 * their reader checks the value (`x-value-checked-since`, which None never passes): a section that
 * leaves the key out, or writes null, is refused there. Each `{ since, before }`, oldest first.
 */
export function noneDefaultRefused(schema: JsonSchema | undefined): { since: string; before: string }[] {
  const checked = valueCheckedSince(schema);
  if (!checked) return [];
  const older = defaultsBefore(schema);
  return older.flatMap((d, i) => {
    if (d.value !== null) return [];
    const from = older[i - 1]?.before;
    const since = from !== undefined && compareVersions(from, checked) > 0 ? from : checked;
    return compareVersions(since, d.before) < 0 ? [{ since, before: d.before }] : [];
  });
}

/** The environment variable the launcher exports the key as (`x-env`). */
export function environmentVariable(schema: JsonSchema | undefined): string | undefined {
  return schema?.['x-env'];
}

/**
 * DeepSpeed: whether the key's pydantic field has a `str` member in its union (`x-pydantic-text`,
 * `Union[str, int]`): pydantic keeps any text as text there, so a number written as text is not converted.
 */
export function pydanticText(schema: JsonSchema | undefined): boolean {
  return schema?.['x-pydantic-text'] === true;
}

/** What ZeRO stages 1 and 2 do with a stage-3 key they refuse where they read it (`x-refused-below-stage`). */
export function refusedBelowStage(schema: JsonSchema | undefined): string | undefined {
  return schema?.['x-refused-below-stage'];
}

/** How the tool reads a switch it only tests with `if` (`x-read-truthy`), if it does. */
export function readTruthy(schema: JsonSchema | undefined): string | undefined {
  return schema?.['x-read-truthy'];
}

/** DeepSpeed: a switch tested by identity (`x-read-identity`): the one literal that counts, and what the releases that also test its truth do. */
export function identityRead(schema: JsonSchema | undefined): { literal: boolean; mixed?: { since?: string; before?: string; effect: string } } | undefined {
  return schema?.['x-read-identity'];
}

/** DeepSpeed: whether a pydantic model validates the section (`x-pydantic`), from its `x-strict-since` on. */
export function pydanticSection(section: JsonSchema | undefined): boolean {
  return section?.['x-pydantic'] === true;
}

/** DeepSpeed: what the key's own before-validator refuses, and from which release (`x-validator-refuses`). */
export function validatorRefusal(schema: JsonSchema | undefined): { since: string; kinds: readonly string[] } | undefined {
  return schema?.['x-validator-refuses'];
}

/** The first release that ignores an unknown key in the section, which earlier ones refuse (`x-strict-until`). */
export function strictUntil(section: JsonSchema | undefined): string | undefined {
  return section?.['x-strict-until'];
}

/** The variables older releases exported the key as (`x-env-before`), oldest first: each the name of the releases before `before`. */
export function environmentVariablesBefore(schema: JsonSchema | undefined): { before: string; name: string }[] {
  return Object.entries(schema?.['x-env-before'] ?? {})
    .map(([before, name]) => ({ before, name }))
    .sort((a, b) => compareVersions(a.before, b.before));
}

/** The sibling spelling this key is another name of (`x-alias-of`: pydantic field name vs alias). */
export function aliasOf(schema: JsonSchema | undefined): string | undefined {
  return schema?.['x-alias-of'];
}

/** The sibling whose presence means the section is not read, from which release (`x-unread-beside`). */
export function unreadBeside(schema: JsonSchema | undefined): { key: string; since?: string } | undefined {
  return schema?.['x-unread-beside'];
}

/** DeepSpeed: the tool that alone reads the key, and the launch that starts it (`x-read-by-launch`). */
export function launchModeReader(schema: JsonSchema | undefined): { reader: string; launch: string } | undefined {
  return schema?.['x-read-by-launch'];
}

/** Megatron: the value choices by release are argparse's alone; the config field takes any text (`x-enum-argparse-only`). */
export function enumArgparseOnly(schema: JsonSchema | undefined): boolean {
  const only = schema?.['x-enum-argparse-only'];
  return only === true || (typeof only === 'object' && only !== null);
}

/**
 * Megatron: for a choice only argparse checks, what the code that usually reads the config field
 * does with a name it does not know (`x-enum-argparse-only.effect`), as a clause naming that code.
 */
export function argparseOnlyReader(schema: JsonSchema | undefined): string | undefined {
  const only = schema?.['x-enum-argparse-only'];
  return typeof only === 'object' && only !== null ? only.effect.replace(/\.\s*$/, '') : undefined;
}
