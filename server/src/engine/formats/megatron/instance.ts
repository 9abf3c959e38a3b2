/**
 * Megatron arguments as one flat instance (`{ dest: value }`) validated against the Megatron
 * schema, whichever file wrote them: each format lists the argument sites it found (a flag, a
 * `MODEL_ARGS` key, a Bridge or NeMo path) and the keys it could not place.
 */
import { pointer, type Instance, type SchemaIssue } from '../../schema/check';
import type { SchemaNav } from '../../schema/navigate';
import type { SyntaxProblem } from '../../syntax/sourcedoc';
import type { Node } from '../../syntax/tree';
import { toValue } from '../../syntax/tree';
import type { Path, Span } from '../../types';
import { MEGATRON_SCHEMA } from './schema';

export interface ArgSite {
  dest: string;
  /** Boolean spellings that set false (`--no-x`). */
  negate: boolean;
  path: Path;
  keySpan: Span;
  node: Node;
}

export interface UnknownArg {
  path: Path;
  key: string;
  /** What the key may have meant: the names to suggest the closest of (the rule ranks them, for the findings it reports). */
  candidates: string[];
  effect: 'error' | 'ignored';
  where: string;
  /** What the tool does with it, when the generic wording would be wrong (argparse stops the run). */
  consequence?: string;
  /** The release from which the entry script adds the flag: unknown only to the releases before it. */
  until?: string;
  /** The release from which the entry script reading it is Megatron-LM's own: nothing is judged before it. */
  from?: string;
  /** Flags said once (their paths, this one first), with `consequence` saying it all: flags no release defines, passed on purpose. */
  group?: Path[];
}

function hasType(schemaType: unknown, t: string): boolean {
  return schemaType === t || (Array.isArray(schemaType) && schemaType.includes(t));
}

/**
 * The value an argument gets. Flags reach argparse as command-line text, so `--lr 1e-5` in a script
 * and `--lr: 1e-5` in a MODEL_ARGS map (a string to YAML) are both the number argparse converts;
 * a boolean flag passed bare (or as `true`) is set, a negative spelling sets false.
 */
function flagValue(node: Node, negate: boolean, schema: { type?: unknown; items?: { type?: unknown } } | undefined, asText: boolean | 'hydra'): unknown {
  const schemaType = schema?.type;
  const v = asText === 'hydra' ? hydraValue(toValue(node)) : toValue(node);
  // A bare flag (`--x`, or `--x:` with no value in a MODEL_ARGS map) is set; a config file's null is None.
  if (hasType(schemaType, 'boolean') && (typeof v === 'boolean' || (v === null && asText === true))) return negate ? !(v ?? true) : (v ?? true);
  if (asText !== true) return v;
  // argparse converts each word with the argument's type: numbers where it takes numbers, text otherwise.
  const numeric = (t: unknown) => hasType(t, 'integer') || hasType(t, 'number');
  const word = (x: unknown, t: unknown): unknown => {
    if (typeof x === 'string' && numeric(t) && NUMBER.test(x.trim())) return Number(x.trim().replace(/_/g, ''));
    if (typeof x === 'number' && !numeric(t) && hasType(t, 'string')) return String(x);
    return x;
  };
  if (hasType(schemaType, 'array')) {
    // `"[a b]"`: Megatron-LM's functional-test harness strips the brackets and passes the words.
    const items = Array.isArray(v) ? v : typeof v === 'string' ? v.replace(/^\s*\[([^\]]*)\]\s*$/, '$1').split(/\s+/).filter(Boolean) : typeof v === 'number' ? [v] : undefined;
    if (items) return items.map((x) => word(x, schema?.items?.type));
  }
  return word(v, schemaType);
}

/**
 * A `key=value` Hydra override's value as Hydra's grammar reads the text: `true`/`false` and `null`
 * in any case are a boolean and None, a number is a number; anything else stays text.
 */
function hydraValue(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const t = v.trim();
  if (/^(true|false)$/i.test(t)) return t.toLowerCase() === 'true';
  if (/^null$/i.test(t)) return null;
  return NUMBER.test(t) ? Number(t.replace(/_/g, '')) : v;
}

/** A number as Python's `int()` and `float()` read it: underscores between digits allowed (`183_105`). */
const D = '\\d+(?:_\\d+)*';
const NUMBER = new RegExp(`^[-+]?(${D}\\.?(?:${D})?|\\.${D})(?:[eE][-+]?${D})?$`);

/** Why an OmegaConf interpolation's value is not known here. */
export const INTERPOLATED = 'an interpolation resolved when the run starts';

/** An OmegaConf interpolation (`${...}`): resolved when the run starts, so never checked here. */
export function interpolated(node: Node): boolean {
  return node.kind === 'scalar' && typeof node.value === 'string' && node.value.includes('${');
}

/**
 * `flags`: the values are command-line text (scripts, MODEL_ARGS), converted as argparse does;
 * `'hydra'`: they are `key=value` Hydra overrides (NeMo 2's MODEL_ARGS), read as Hydra's grammar does.
 * Values that are interpolations are left out of the instance (they are not known).
 */
export function argsInstance(sites: readonly ArgSite[], unknown: readonly UnknownArg[], nav: SchemaNav, flags: boolean | 'hydra' = false): { instance: Instance; issues: SchemaIssue[] } {
  const value: Record<string, unknown> = {};
  const source = new Map<string, Path>();
  const problems: SyntaxProblem[] = [];
  source.set('', []);
  const seen = new Map<string, ArgSite>();
  const unknownValues = new Map<string, { path: Path; why: string }>();
  const assumedValues = new Map<string, string>();
  for (const site of sites) {
    const prop = MEGATRON_SCHEMA.properties?.[site.dest];
    if (interpolated(site.node) || (site.node.kind === 'scalar' && site.node.unknown)) {
      const why = site.node.kind === 'scalar' && site.node.unknown ? site.node.unknown : INTERPOLATED;
      unknownValues.set(site.dest, { path: site.path, why });
      continue;
    }
    const v = flagValue(site.node, site.negate, prop as { type?: unknown; items?: { type?: unknown } } | undefined, flags);
    if (site.node.kind === 'scalar' && (site.node.value === null || v === null) && (prop?.type !== 'boolean' || flags !== true)) continue;
    const earlier = seen.get(site.dest);
    // Repeating a flag is a mistake on a command line; Bridge and NeMo paths that share a dest are
    // separate fields (a later override of a recipe default), so only flags are compared.
    if (flags === true && earlier && !samePathish(earlier.path, site.path)) {
      const same = JSON.stringify(value[site.dest]) === JSON.stringify(v);
      problems.push({
        code: 'duplicate-key',
        severity: same ? 'information' : 'warning',
        message: `\`${String(earlier.path[earlier.path.length - 1])}\` and \`${String(site.path[site.path.length - 1])}\` set the same argument (\`${site.dest}\`); the later one wins${same ? ', and both give it the same value, so nothing changes' : ''}. Keep one.`,
        span: earlier.keySpan,
      });
    }
    seen.set(site.dest, site);
    value[site.dest] = v;
    if (site.node.kind === 'scalar' && site.node.assumed) assumedValues.set(site.dest, site.node.assumed);
    else assumedValues.delete(site.dest);
    source.set(pointer([site.dest]), site.path);
    if (Array.isArray(v)) v.forEach((_, i) => source.set(pointer([site.dest, i]), [...site.path, i]));
  }
  const issues: SchemaIssue[] = unknown.map((u) => ({ kind: 'unknown-key', path: u.path, key: u.key, section: nav.root, candidates: u.candidates, effect: u.effect, where: u.where, consequence: u.consequence, until: u.until, from: u.from, ...(u.group ? { group: u.group } : {}) }));
  return { instance: { value, source, problems, unknown: unknownValues, assumed: assumedValues.size ? assumedValues : undefined }, issues };
}

function samePathish(a: Path, b: Path): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}
