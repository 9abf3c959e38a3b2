/**
 * Walks a schema alongside a document: the subschema at a path (following `$ref`, `allOf` and
 * `if`/`then`/`else` by the document's own values), key aliases from `x-key-prefix`, and plain-text
 * descriptions of what a schema allows. Validation itself is done by the compiled validators; this
 * only answers the questions hover, completion and messages ask.
 */
import type { Path } from '../types';
import type { JsonSchema, KeyPrefix } from './types';
import { versionAtLeast } from '../version';
import { advisedNames, bareUntil, enumAtRelease, keyPrefix } from './vocabulary';
import { fact } from '../certainty';

export class SchemaNav {
  constructor(readonly root: JsonSchema) {}

  /** Follows `$ref`, merges `allOf` and picks the `if` branch that `value` takes. */
  resolve(schema: JsonSchema | undefined, value?: unknown, depth = 0): JsonSchema | undefined {
    if (!schema || depth > 32) return schema;
    let s = schema;
    if (s.$ref) {
      const target = this.ref(s.$ref);
      const { $ref: _ignored, ...rest } = s;
      s = { ...this.resolve(target, value, depth + 1), ...rest };
    }
    if (s.if && (s.then || s.else)) {
      const branch = this.matches(s.if, value) ? s.then : s.else;
      const { if: _i, then: _t, else: _e, ...rest } = s;
      s = mergeSchemas(rest, this.resolve(branch, value, depth + 1) ?? {});
    }
    if (s.allOf) {
      const { allOf, ...rest } = s;
      s = allOf.reduce<JsonSchema>((acc, part) => mergeSchemas(acc, this.resolve(part, value, depth + 1) ?? {}), rest);
    }
    return s;
  }

  private ref(ref: string): JsonSchema | undefined {
    if (!ref.startsWith('#/')) return undefined;
    let s: unknown = this.root;
    for (const part of ref.slice(2).split('/')) {
      const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
      s = s && typeof s === 'object' ? (s as Record<string, unknown>)[key] : undefined;
    }
    return s as JsonSchema | undefined;
  }

  /** The schema of one child of `parent` (already resolved). */
  child(parent: JsonSchema | undefined, seg: string | number, version?: string): JsonSchema | undefined {
    if (!parent) return undefined;
    if (typeof seg === 'number') return parent.items;
    const key = this.canonicalKey(parent, seg, version);
    return parent.properties?.[key] ?? (typeof parent.additionalProperties === 'object' ? parent.additionalProperties : undefined);
  }

  /** The resolved schema at `path` in a document whose root value is `rootValue`. */
  at(path: Path, rootValue: unknown, version?: string): JsonSchema | undefined {
    let schema = this.resolve(this.root, rootValue);
    let value = rootValue;
    for (const seg of path) {
      const raw = this.child(schema, seg, version);
      value = childValue(value, seg, schema, this, version);
      schema = this.resolve(raw, value);
      if (!schema) return undefined;
    }
    // What the tool accepts, not a value of the file (certainty.ts).
    return fact(schema);
  }

  /**
   * The property a key stands for in a section with `x-key-prefix` (`offload_params` and
   * `fsdp_offload_params` are one key), else the key itself.
   */
  canonicalKey(section: JsonSchema, key: string, version?: string): string {
    const prefix = keyPrefix(section);
    if (!prefix || section.properties?.[key]) return key;
    const names = Object.keys(section.properties ?? {});
    // Before the launcher adds the prefix it copies each key unchanged: a key is read only under
    // the name of the launcher's flag at that release (`offload_params` before Accelerate 0.12.0).
    if (!prefixApplies(prefix, version)) return names.find((name) => flagName(prefix, name, section.properties![name], version) === key) ?? key;
    const arg = launcherName(prefix, key);
    for (const name of names) if (launcherName(prefix, name) === arg) return name;
    return key;
  }

  /** Does `value` satisfy `schema`? Covers the keywords used for scalars, arrays and `if` conditions. */
  matches(schema: JsonSchema | undefined, value: unknown, depth = 0): boolean {
    if (!schema || depth > 32) return true;
    const s = this.resolve(schema, value, depth + 1) ?? {};
    if (s.const !== undefined && !deepEqual(s.const, value)) return false;
    if (s.enum && !s.enum.some((e) => deepEqual(e, value))) return false;
    if (s.type && !typeMatches(s.type, value)) return false;
    if (typeof value === 'number') {
      if (s.minimum !== undefined && value < s.minimum) return false;
      if (s.maximum !== undefined && value > s.maximum) return false;
      if (s.exclusiveMinimum !== undefined && value <= s.exclusiveMinimum) return false;
      if (s.exclusiveMaximum !== undefined && value >= s.exclusiveMaximum) return false;
    }
    if (typeof value === 'string' && s.pattern && !safeRegex(s.pattern)?.test(value)) return false;
    if (Array.isArray(value)) {
      if (s.minItems !== undefined && value.length < s.minItems) return false;
      if (s.maxItems !== undefined && value.length > s.maxItems) return false;
      if (s.items && !value.every((v) => this.matches(s.items, v, depth + 1))) return false;
    }
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const obj = value as Record<string, unknown>;
      if (s.required && !s.required.every((k) => k in obj)) return false;
      for (const [k, sub] of Object.entries(s.properties ?? {})) if (k in obj && !this.matches(sub, obj[k], depth + 1)) return false;
    }
    if (s.anyOf && !s.anyOf.some((sub) => this.matches(sub, value, depth + 1))) return false;
    if (s.oneOf && s.oneOf.filter((sub) => this.matches(sub, value, depth + 1)).length !== 1) return false;
    return true;
  }

  /**
   * Every allowed scalar value the schema enumerates (enum, const, booleans), for completion and
   * messages. With `atLeast` (whether the release in question is at least a version), an enum's
   * values are those that release accepts (`enumAtRelease`).
   */
  allowedValues(schema: JsonSchema | undefined, atLeast?: (version: string) => boolean): unknown[] {
    const s = this.resolve(schema);
    if (!s) return [];
    const out: unknown[] = [];
    if (s.enum) out.push(...((atLeast && enumAtRelease(s, atLeast)) || s.enum));
    // The names a free-text key is meant to be one of (`x-advised.enum`): offered, not enforced.
    const advised = advisedNames(s);
    if (!s.enum && advised) out.push(...advised);
    if (s.const !== undefined) out.push(s.const);
    for (const sub of [...(s.anyOf ?? []), ...(s.oneOf ?? [])]) out.push(...this.allowedValues(sub, atLeast));
    if (!s.enum && s.const === undefined && typeIncludes(s.type, 'boolean')) out.push(true, false);
    return out.filter((v, i) => out.findIndex((w) => deepEqual(v, w)) === i);
  }

  /**
   * "one of `a`, `b`", "an integer ≥ 1", "a list of 3 booleans"... With `atLeast` (whether the release
   * in question is at least a version), an enum names the values that release accepts (`enumAtRelease`).
   */
  describe(schema: JsonSchema | undefined, depth = 0, atLeast?: (version: string) => boolean): string {
    const s = this.resolve(schema);
    if (!s || depth > 8) return 'any value';
    const alts = s.anyOf ?? s.oneOf;
    if (alts) return unique(alts.map((a) => this.describe(a, depth + 1, atLeast))).join(', or ');
    if (s.const !== undefined) return code(s.const);
    const values = s.enum && ((atLeast && enumAtRelease(s, atLeast)) || s.enum);
    if (values) return values.length === 1 ? code(values[0]) : `one of ${values.map(code).join(', ')}`;
    const types = typeof s.type === 'string' ? [s.type] : (s.type ?? []);
    const parts = types.map((t) => {
      switch (t) {
        case 'integer':
        case 'number': {
          const noun = t === 'integer' ? 'an integer' : 'a number';
          const bounds: string[] = [];
          if (s.minimum !== undefined) bounds.push(`≥ ${s.minimum}`);
          if (s.exclusiveMinimum !== undefined) bounds.push(`> ${s.exclusiveMinimum}`);
          if (s.maximum !== undefined) bounds.push(`≤ ${s.maximum}`);
          if (s.exclusiveMaximum !== undefined) bounds.push(`< ${s.exclusiveMaximum}`);
          return bounds.length ? `${noun} ${bounds.join(' and ')}` : noun;
        }
        case 'boolean':
          return '`true` or `false`';
        case 'string':
          return s.pattern ? `text matching \`${s.pattern}\`` : s.minLength ? 'non-empty text' : 'text';
        case 'array': {
          const n = s.minItems !== undefined && s.minItems === s.maxItems ? `${s.minItems} ` : '';
          const inner = s.items ? this.describe(s.items, depth + 1, atLeast) : 'values';
          return `a list of ${n}${inner.replace(/^(an?|one of) /, '').replace(/^`true` or `false`$/, 'booleans')}`;
        }
        case 'object':
          return 'a mapping';
        default:
          return t;
      }
    });
    return parts.length ? parts.join(' or ') : 'any value';
  }
}

function childValue(value: unknown, seg: string | number, schema: JsonSchema | undefined, nav: SchemaNav, version?: string): unknown {
  if (typeof seg === 'number') return Array.isArray(value) ? value[seg] : undefined;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const obj = value as Record<string, unknown>;
  if (seg in obj) return obj[seg];
  // The document may spell the key differently (an x-key-prefix alias).
  if (schema) for (const k of Object.keys(obj)) if (nav.canonicalKey(schema, k, version) === seg) return obj[k];
  return undefined;
}

export function prefixApplies(prefix: KeyPrefix, version?: string): boolean {
  return !prefix.since || !version || versionAtLeast(version, prefix.since);
}

/** The spelling of the property `name` of a prefixed section that the launcher at `version` reads, if the section has a prefix. */
export function launcherSpelling(section: JsonSchema | undefined, name: string, version?: string): string | undefined {
  const prefix = keyPrefix(section);
  const schema = section?.properties?.[name];
  if (!prefix || !schema) return undefined;
  return prefixApplies(prefix, version) ? undefined : flagName(prefix, name, schema, version);
}

/**
 * The name of the launcher's flag for the property `name` of a prefixed section at `version`: the
 * prefixed name, or the bare one before the release its `x-bare-until` names.
 */
function flagName(prefix: KeyPrefix, name: string, schema: JsonSchema, version?: string): string {
  const until = bareUntil(schema);
  return until && version && !versionAtLeast(version, until) && name.startsWith(prefix.add) ? name.slice(prefix.add.length) : launcherName(prefix, name);
}

/** The name the launcher gives a key of a prefixed section. */
export function launcherName(prefix: KeyPrefix, key: string): string {
  return key.startsWith(prefix.unlessStartsWith) ? key : prefix.add + key;
}

function mergeSchemas(a: JsonSchema, b: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...a, ...b };
  if (a.properties || b.properties) out.properties = { ...a.properties, ...b.properties };
  if (a.required || b.required) out.required = unique([...(a.required ?? []), ...(b.required ?? [])]);
  return out;
}

function typeIncludes(type: string | string[] | undefined, t: string): boolean {
  return type === t || (Array.isArray(type) && type.includes(t));
}

function typeMatches(type: string | string[], value: unknown): boolean {
  const types = Array.isArray(type) ? type : [type];
  return types.some((t) => {
    switch (t) {
      case 'integer':
        return typeof value === 'number' && Number.isInteger(value);
      case 'number':
        return typeof value === 'number' && Number.isFinite(value);
      case 'string':
        return typeof value === 'string';
      case 'boolean':
        return typeof value === 'boolean';
      case 'array':
        return Array.isArray(value);
      case 'object':
        return !!value && typeof value === 'object' && !Array.isArray(value);
      case 'null':
        return value === null;
      default:
        return false;
    }
  });
}

const regexCache = new Map<string, RegExp | undefined>();
function safeRegex(pattern: string): RegExp | undefined {
  if (!regexCache.has(pattern)) {
    let re: RegExp | undefined;
    try {
      re = new RegExp(pattern, 'u');
    } catch {
      re = undefined;
    }
    regexCache.set(pattern, re);
  }
  return regexCache.get(pattern);
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || !a || !b || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  return ka.length === kb.length && ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

function unique<T>(items: T[]): T[] {
  return items.filter((v, i) => items.indexOf(v) === i);
}

/** A value as inline code in a message. */
export function code(value: unknown): string {
  return '`' + (typeof value === 'string' ? value : JSON.stringify(value)) + '`';
}
