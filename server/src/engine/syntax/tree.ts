/**
 * The syntax-neutral tree every parser produces: maps, sequences and scalars with their source spans.
 * Rules, schema validation and fixes only ever see this tree (through SourceDoc), never a parser's AST.
 */
import type { Path, Span } from '../types';

export type ScalarStyle = 'plain' | 'single' | 'double' | 'block' | 'json' | 'word';

export interface ScalarNode {
  kind: 'scalar';
  span: Span;
  /** The resolved value (as the consuming tool's parser would resolve it). */
  value: string | number | boolean | null;
  style: ScalarStyle;
  /** The exact source text of the scalar. */
  raw: string;
  /** Reached through an alias or a merge key: reported at the alias, never edited. */
  aliased?: boolean;
  /** An explicit tag (`!!str`), if any. */
  tag?: string;
  /** Set when the value cannot be known statically (shell scripts: environment, `$1`, `$(cmd)`): why. `value` is then the text as written. */
  unknown?: string;
  /** Set when the value is a fallback the context may override (`${X:-8}` with X not set in the script): why. */
  assumed?: string;
}

export interface MapNode {
  kind: 'map';
  span: Span;
  entries: Entry[];
  flow: boolean;
  aliased?: boolean;
  /**
   * Keys written more than once: the earlier copies, which the loader drops (PyYAML and json.load
   * keep the last). They are not in `entries`; only what the text says of its author reads them.
   */
  dropped?: Entry[];
}

export interface SeqNode {
  kind: 'seq';
  span: Span;
  items: Node[];
  flow: boolean;
  aliased?: boolean;
}

export type Node = ScalarNode | MapNode | SeqNode;

export interface Entry {
  key: string;
  keySpan: Span;
  value: Node;
  /** From the key's first character to the value's last. */
  span: Span;
  /** Brought in by a YAML merge key (`<<: *base`); keySpan is the alias the user wrote. */
  merged?: boolean;
}

/**
 * The entry a map resolves a key to: of the keys written in the map the last one wins (as in PyYAML
 * and json.load); a merged key counts only when the map does not write it, and the first merge wins.
 */
export function lookup(map: MapNode, key: string): Entry | undefined {
  const index = keyIndex(map);
  return index.own.get(key) ?? index.merged.get(key);
}

interface KeyIndex {
  /** The number of entries indexed (a map still being built grows). */
  size: number;
  own: Map<string, Entry>;
  merged: Map<string, Entry>;
}
const keyIndexes = new WeakMap<MapNode, KeyIndex>();

/** One pass over a map's entries, kept while the map does not change: lookups stay linear in all. */
function keyIndex(map: MapNode): KeyIndex {
  let index = keyIndexes.get(map);
  if (index && index.size === map.entries.length) return index;
  index = { size: map.entries.length, own: new Map(), merged: new Map() };
  for (const e of map.entries) {
    if (!e.merged) index.own.set(e.key, e);
    else if (!index.merged.has(e.key)) index.merged.set(e.key, e);
  }
  keyIndexes.set(map, index);
  return index;
}

export function nodeAt(root: Node | undefined, path: Path): Node | undefined {
  let node = root;
  for (const seg of path) {
    if (!node) return undefined;
    if (typeof seg === 'number') node = node.kind === 'seq' ? node.items[seg] : undefined;
    else node = node.kind === 'map' ? lookup(node, seg)?.value : undefined;
  }
  return node;
}

export function entryAt(root: Node | undefined, path: Path): Entry | undefined {
  if (path.length === 0) return undefined;
  const last = path[path.length - 1];
  if (typeof last !== 'string') return undefined;
  const parent = nodeAt(root, path.slice(0, -1));
  return parent?.kind === 'map' ? lookup(parent, last) : undefined;
}

export function isNull(node: Node | undefined): boolean {
  return !node || (node.kind === 'scalar' && node.value === null);
}

/** Converts a subtree to plain JS values. Shared subtrees (aliases) stay shared. */
export function toValue(node: Node | undefined, memo = new Map<Node, unknown>()): unknown {
  if (!node) return undefined;
  if (node.kind === 'scalar') return node.value;
  const seen = memo.get(node);
  if (seen !== undefined) return seen;
  if (node.kind === 'seq') {
    const arr: unknown[] = [];
    memo.set(node, arr);
    for (const item of node.items) arr.push(toValue(item, memo));
    return arr;
  }
  const obj: Record<string, unknown> = {};
  memo.set(node, obj);
  for (const e of node.entries) {
    // A key written in the map wins over a merged one wherever it stands, as YAML merge keys specify.
    if (e.merged && keyIndex(node).own.has(e.key)) continue;
    obj[e.key] = toValue(e.value, memo);
  }
  return obj;
}

/**
 * The work a tree costs to analyse, bounded by `limit`: one per mapping, list and key (with aliases
 * followed), none for a plain item of a list (a long `commands:` list costs little to check).
 */
export function workSize(node: Node | undefined, limit: number, memo = new Map<Node, number>()): number {
  if (!node || node.kind === 'scalar') return 0;
  const known = memo.get(node);
  if (known !== undefined) return known;
  memo.set(node, limit + 1); // a cycle counts as too large
  let size = 1;
  if (node.kind === 'seq') {
    for (const item of node.items) {
      size += workSize(item, limit, memo);
      if (size > limit) break;
    }
  } else {
    for (const e of node.entries) {
      size += 1 + workSize(e.value, limit, memo);
      if (size > limit) break;
    }
  }
  memo.set(node, size);
  return size;
}

/** The number of nodes the tree expands to when aliases are followed (bounded by `limit`). */
export function expandedSize(node: Node | undefined, limit: number, memo = new Map<Node, number>()): number {
  if (!node) return 0;
  if (node.kind === 'scalar') return 1;
  const known = memo.get(node);
  if (known !== undefined) return known;
  memo.set(node, limit + 1); // a cycle counts as too large
  let size = 1;
  const children = node.kind === 'seq' ? node.items : node.entries.map((e) => e.value);
  for (const child of children) {
    size += expandedSize(child, limit, memo);
    if (size > limit) break;
  }
  memo.set(node, size);
  return size;
}

export interface Located {
  /** Path of the innermost entry or item containing the offset. */
  path: Path;
  /** On the key text of that entry, or in its value. */
  on: 'key' | 'value';
  entry?: Entry;
  node?: Node;
}

/** The innermost key or value under an offset. Spans are compared inclusively at the end so a cursor after the last character still hits. */
export function locate(root: Node | undefined, offset: number): Located | undefined {
  let best: Located | undefined;
  const visit = (node: Node, path: Path): void => {
    if (node.aliased) return;
    if (node.kind === 'map') {
      for (const e of node.entries) {
        if (e.merged) continue;
        const p = [...path, e.key];
        if (offset >= e.keySpan.start && offset <= e.keySpan.end) {
          best = { path: p, on: 'key', entry: e, node: e.value };
          return;
        }
        if (offset >= e.value.span.start && offset <= e.value.span.end) {
          best = { path: p, on: 'value', entry: e, node: e.value };
          visit(e.value, p);
          return;
        }
      }
    } else if (node.kind === 'seq') {
      node.items.forEach((item, i) => {
        if (offset >= item.span.start && offset <= item.span.end) {
          best = { path: [...path, i], on: 'value', node: item };
          visit(item, [...path, i]);
        }
      });
    }
  };
  if (root) visit(root, []);
  return best;
}

/** Two values that read the same (a key written twice with one value: whichever wins, nothing changes). */
export function sameValue(a: Node, b: Node): boolean {
  return JSON.stringify(toValue(a)) === JSON.stringify(toValue(b));
}
