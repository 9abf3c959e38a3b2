/**
 * From a document to schema issues: build the value the tool really sees (explicit nulls dropped,
 * prefixed key aliases folded, case-normalized values normalized), run the compiled validator on it,
 * and map every error back to the source path the user wrote.
 */
import type { SyntaxProblem } from '../syntax/sourcedoc';
import { sameValue, type Entry, type Node } from '../syntax/tree';
import type { Path } from '../types';
import type { CompiledError, CompiledValidator } from './compiled';
import { launcherSpelling, type SchemaNav } from './navigate';
import type { JsonSchema } from './types';
import { normalized } from './vocabulary';

export interface Instance {
  value: unknown;
  /** JSON pointer of an instance location → the path as written in the document. */
  source: Map<string, Path>;
  problems: SyntaxProblem[];
  /** Keys written with a value the file cannot know (environment, interpolation): where and why. */
  unknown?: Map<string, { path: Path; why: string }>;
  /** Keys written with a value the context may override (a fallback of a variable the script does not set): why. */
  assumed?: Map<string, string>;
  /**
   * Values the format's reader holds to a schema of its own (pointer → schema), in place of the one the
   * compiled validator knows: a `--yaml-cfg` config field that the command line writes as text.
   */
  ownSchemas?: Map<string, JsonSchema>;
}

export type SchemaIssue =
  /**
   * `key` at source `path` is not a property of its section. Formats whose keys are spelled
   * differently from the schema's property names (Megatron flags) give the spelled `candidates` for
   * did-you-mean, and say what the tool does with the key (`effect`) when the section cannot.
   */
  | { kind: 'unknown-key'; path: Path; key: string; section: JsonSchema | undefined; candidates?: string[]; effect?: 'error' | 'ignored'; where?: string; consequence?: string; assumed?: string; unknown?: string; until?: string; from?: string; /** Said once for several keys (their paths, this one first): `consequence` says it all. */ group?: Path[] }
  /** The mapping at source `parent` lacks the required `key`. */
  | { kind: 'missing-key'; parent: Path; key: string }
  /** The value at source `path` does not satisfy its schema. */
  | { kind: 'invalid-value'; path: Path; schema: JsonSchema | undefined; value: unknown; schemaPath?: Path; assumed?: string; unknown?: string };

export function pointer(path: Path): string {
  return path.map((s) => '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

function parsePointer(ptr: string): string[] {
  return ptr === '' ? [] : ptr.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function buildInstance(root: Node | undefined, nav: SchemaNav, version?: string): Instance {
  const source = new Map<string, Path>();
  const problems: SyntaxProblem[] = [];
  const walk = (node: Node, schema: JsonSchema | undefined, src: Path, inst: Path): unknown => {
    source.set(pointer(inst), src);
    if (node.kind === 'scalar') {
      return typeof node.value === 'string' ? normalized(schema, node.value, version) : node.value;
    }
    if (node.kind === 'seq') return node.items.map((item, i) => walk(item, schema?.items ? nav.resolve(schema.items) : undefined, [...src, i], [...inst, i]));
    const section = schema;
    const obj: Record<string, unknown> = {};
    const writtenAs = new Map<string, Entry>();
    for (const e of node.entries) {
      if (e.value.kind === 'scalar' && e.value.value === null) continue;
      const key = section ? nav.canonicalKey(section, e.key, version) : e.key;
      const earlier = writtenAs.get(key);
      // Before the launcher adds a section's prefix (Accelerate's fsdp_ from 0.12.0) it copies each key
      // as written: `offload_params` and `fsdp_offload_params` are then two keys, and only the one its
      // flag is named after is read, whichever comes last.
      const reads = section ? launcherSpelling(section, key, version) : undefined;
      if (reads !== undefined && earlier !== undefined && earlier.key !== e.key) {
        if (earlier.key === reads) continue;
      } else if (earlier !== undefined && earlier.key !== e.key) {
        const same = sameValue(earlier.value, e.value);
        problems.push({
          code: 'duplicate-key',
          severity: same ? 'information' : 'warning',
          message: `\`${e.key}\` and \`${earlier.key}\` are the same setting (the launcher adds the prefix), so only this later one is used${same ? '; both say the same, so nothing changes' : ''}. Keep one of them.`,
          span: e.keySpan,
        });
      }
      writtenAs.set(key, e);
    }
    for (const e of node.entries) {
      if (e.value.kind === 'scalar' && e.value.value === null) continue;
      const key = section ? nav.canonicalKey(section, e.key, version) : e.key;
      if (e.merged && node.entries.some((own) => !own.merged && (section ? nav.canonicalKey(section, own.key, version) : own.key) === key)) continue;
      const reads = section ? launcherSpelling(section, key, version) : undefined;
      if (reads !== undefined && e.key !== reads && node.entries.some((o) => o.key === reads && !(o.value.kind === 'scalar' && o.value.value === null))) continue;
      const childSchema = nav.resolve(nav.child(section, key, version), undefined);
      const childValue = walk(e.value, childSchema, [...src, e.key], [...inst, key]);
      obj[key] = childValue;
    }
    return obj;
  };
  if (!root) return { value: undefined, source, problems };
  // The root may choose its branch (if/then/else) by its own values: resolve with a first plain pass.
  const rootSchema = nav.resolve(nav.root, plainValue(root));
  const value = walk(root, rootSchema, [], []);
  return { value, source, problems };
}

/** The tree as plain values with nulls dropped, for choosing `if` branches before normalization. */
function plainValue(node: Node): unknown {
  if (node.kind === 'scalar') return node.value;
  if (node.kind === 'seq') return node.items.map(plainValue);
  const obj: Record<string, unknown> = {};
  for (const e of node.entries) if (!(e.value.kind === 'scalar' && e.value.value === null)) obj[e.key] = plainValue(e.value);
  return obj;
}

/** Runs the compiled validator and turns its errors into issues on source paths (one per value). */
export function checkInstance(instance: Instance, validate: CompiledValidator, nav: SchemaNav, version?: string): SchemaIssue[] {
  if (instance.value === undefined) return [];
  let ok: boolean;
  try {
    ok = validate(instance.value);
  } catch {
    return [];
  }
  const own = ownSchemaIssues(instance, nav);
  if (ok) return own;
  const owned = [...(instance.ownSchemas?.keys() ?? [])];
  const errors: CompiledError[] = (validate.errors ?? []).filter((e) => !owned.some((p) => e.instancePath === p || e.instancePath.startsWith(`${p}/`)));
  const issues: SchemaIssue[] = [...own];
  const seenValue = new Set<string>();
  const seenKey = new Set<string>();
  const toSource = (instPath: string[]): Path => {
    // Walk up to the nearest recorded ancestor, then append the remaining segments as written.
    for (let i = instPath.length; i >= 0; i--) {
      const src = instance.source.get(pointer(instPath.slice(0, i)));
      if (src) return [...src, ...instPath.slice(i)];
    }
    return instPath;
  };
  // Instance paths where alternatives (anyOf/oneOf) failed: errors under them are reported once, there.
  const alternatives = new Set(errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => e.instancePath));
  for (const err of errors) {
    const instPath = parsePointer(err.instancePath);
    if (err.keyword === 'if') continue;
    if (err.keyword === 'additionalProperties') {
      const key = String(err.params.additionalProperty);
      const src = toSource([...instPath, key]);
      const id = pointer(src);
      if (seenKey.has(id)) continue;
      seenKey.add(id);
      issues.push({ kind: 'unknown-key', path: src, key: String(src[src.length - 1]), section: nav.at(instPath.map(seg), instance.value, version) });
      continue;
    }
    if (err.keyword === 'required') {
      const key = String(err.params.missingProperty);
      const id = `${err.instancePath}#${key}`;
      if (seenKey.has(id)) continue;
      seenKey.add(id);
      issues.push({ kind: 'missing-key', parent: toSource(instPath), key });
      continue;
    }
    // One issue per value: the outermost failed alternative containing it, or the value itself.
    const id = err.instancePath;
    const chain = prefixes(id);
    if (chain.some((p) => seenValue.has(p))) continue;
    const at = chain.find((p) => p !== id && alternatives.has(p)) ?? id;
    seenValue.add(at);
    const atPath = parsePointer(at).map(seg);
    issues.push({ kind: 'invalid-value', path: toSource(parsePointer(at)), schema: nav.at(atPath, instance.value, version), value: valueAt(instance.value, atPath), schemaPath: atPath });
  }
  return issues;
}

/** The values held to a schema of the format's own (`Instance.ownSchemas`) that do not match it. */
function ownSchemaIssues(instance: Instance, nav: SchemaNav): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  for (const [ptr, schema] of instance.ownSchemas ?? []) {
    const path = parsePointer(ptr).map(seg);
    const value = valueAt(instance.value, path);
    if (value === undefined || nav.matches(schema, value)) continue;
    issues.push({ kind: 'invalid-value', path: instance.source.get(ptr) ?? path, schema, value });
  }
  return issues;
}

/** '', '/a', '/a/b' for '/a/b': the pointer and its ancestors, outermost first. */
function prefixes(ptr: string): string[] {
  const out = [''];
  for (let i = ptr.indexOf('/', 1); i > 0; i = ptr.indexOf('/', i + 1)) out.push(ptr.slice(0, i));
  if (ptr) out.push(ptr);
  return out;
}

function seg(s: string): string | number {
  return /^\d+$/.test(s) ? Number(s) : s;
}

function valueAt(value: unknown, path: (string | number)[]): unknown {
  let v = value;
  for (const s of path) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[s as string] : undefined;
  return v;
}
