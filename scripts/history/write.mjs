// What the script prints and writes: the changes it found (printChanges), edits applied to a
// schema in place with its key order kept (setKey, setKeyBefore, apply), schemas/*.schema.json
// rewritten with their number spellings (writeSchema), and the snapshots of what each release read
// that the tests compare the schemas with, schemas/history/*.json (snapshotRanges, writeSnapshot).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { stringifyJson } from './json.mjs';

/** Per state of a release (`{ version, nextVersion, kind, values? }`), runs of consecutive releases in
 * the same state, `{ from, to, kind, values?, value? }` (`valueOf`: the value of a `value` state). */
export function snapshotRanges(states, valueOf) {
  const out = [];
  for (const st of states) {
    const values = valueOf ? undefined : st.kind === 'static' ? [...st.values].sort() : undefined;
    const value = valueOf && st.kind === 'value' ? valueOf(st) : undefined;
    const last = out.at(-1);
    if (last && last.kind === st.kind && JSON.stringify(last.values) === JSON.stringify(values) && JSON.stringify(last.value) === JSON.stringify(value) && last.next === st.version) {
      last.to = st.version;
    } else out.push({ from: st.version, to: st.version, kind: st.kind, ...(values ? { values } : {}), ...(st.kind === 'value' ? { value } : {}) });
    out.at(-1).next = st.nextVersion;
  }
  return out.map(({ next, ...r }) => r);
}

/**
 * A per-release flag as one run of releases: `true` when it holds at every release, `false` at none,
 * `{ before }` for a run from the first release, `{ since }` for a run to the last, and `undefined`
 * for any other pattern (which the caller reports).
 */
export function oneRun(flags, releases) {
  if (flags.every(Boolean)) return true;
  if (!flags.some(Boolean)) return false;
  const first = flags.indexOf(true);
  const last = flags.lastIndexOf(true);
  if (flags.slice(first, last + 1).some((x) => !x) || (first > 0 && last < flags.length - 1)) return undefined;
  return first === 0 ? { before: releases[last + 1].version } : { since: releases[first].version };
}

/** Releases as ranges: `0.4.0–0.9.0, 0.12.0`. */
export function ranges(versions, all) {
  const idx = versions.map((v) => all.indexOf(v));
  const out = [];
  for (let i = 0; i < idx.length; i++) {
    let j = i;
    while (j + 1 < idx.length && idx[j + 1] === idx[j] + 1) j++;
    out.push(i === j ? all[idx[i]] : `${all[idx[i]]}–${all[idx[j]]}`);
    i = j;
  }
  return out.join(', ');
}

/** Prints titled lists (`\ntitle (n):`, then `  item`; nested: `  title (n):`, then `    item`), each
 * entry `[title, items, limit]` showing at most `limit` items. */
export function printLists(lists, nested = false) {
  for (const [title, list, limit] of lists) {
    console.log(nested ? `  ${title} (${list.length}):` : `\n${title} (${list.length}):`);
    for (const l of limit === undefined ? list : list.slice(0, limit)) console.log(nested ? `    ${l}` : `  ${l}`);
  }
}

/** Sets obj[key], placing a new key right after the first of `after` that obj has (in place). */
export function setKey(obj, key, value, after = []) {
  if (key in obj || value === undefined) {
    if (value === undefined) delete obj[key];
    else obj[key] = value;
    return;
  }
  const anchor = after.find((k) => k in obj);
  if (!anchor) {
    obj[key] = value;
    return;
  }
  const entries = Object.entries(obj);
  for (const [k] of entries) delete obj[k];
  for (const [k, v] of entries) {
    obj[k] = v;
    if (k === anchor) obj[key] = value;
  }
}

/** Sets obj[key] (undefined: deletes it), placing a new key before the first of `before` obj has. */
export function setKeyBefore(obj, key, value, before) {
  if (key in obj || value === undefined) return setKey(obj, key, value);
  const anchor = Object.keys(obj).find((k) => before.includes(k));
  if (!anchor) return setKey(obj, key, value);
  const entries = Object.entries(obj);
  for (const [k] of entries) delete obj[k];
  for (const [k, v] of entries) {
    if (k === anchor) obj[key] = value;
    obj[k] = v;
  }
}

export const AFTER = {
  'x-since': ['x-group'],
  'x-flag-since': ['x-since', 'x-group'],
  'x-flag-removed': ['x-flag-since', 'x-since', 'x-group'],
  'x-enum-since': ['x-since', 'x-group'],
  'x-enum-removed': ['x-enum-since', 'x-since', 'x-group'],
  'x-default-before': ['x-default-note', 'default', 'markdownEnumDescriptions', 'enum', 'items', 'type'],
  items: ['type'],
  deprecated: ['default', 'markdownEnumDescriptions', 'enum', 'items', 'type'],
  'x-deprecated': ['x-removed', 'x-flag-since', 'x-since', 'x-group'],
  'x-entrypoints-since': ['x-entrypoints'],
};

/** The change setting `field` of `key` from `from` to `to`, by `set` (none when they are equal). */
export const change = (key, field, from, to, why, set) => (JSON.stringify(from) === JSON.stringify(to) ? [] : [{ key, field, from, to, why, set }]);

/** Keeps the "since Megatron Core X" note of the hover text in step with x-since. */
function setSince(prop, version, tool) {
  const md = prop.markdownDescription;
  setKey(prop, 'x-since', version, AFTER['x-since']);
  if (typeof md !== 'string') return;
  const note = (v) => ` · since ${tool} ${v}`;
  const re = new RegExp(` · since ${tool.replace(/ /g, ' ')} [0-9.]+`);
  if (re.test(md)) prop.markdownDescription = version ? md.replace(re, note(version)) : md.replace(re, '');
  else if (version) {
    // The flag line: "`--flag` · default `x`" (the first line after the last blank line).
    const at = md.lastIndexOf('\n\n');
    const start = at < 0 ? 0 : at + 2;
    const rest = md.slice(start);
    const eol = rest.indexOf('  \n');
    const end = start + (eol < 0 ? rest.length : eol);
    if (/^`[^`]+`|^no command-line flag/.test(rest)) prop.markdownDescription = md.slice(0, end) + note(version) + md.slice(end);
  }
}

function apply(result, tool) {
  const { schema, changes } = result;
  for (const c of changes) {
    if (c.set) c.set();
    else if (c.key === 'x-source') schema['x-source'][c.field] = c.to;
    else if (c.field === 'x-since') setSince(schema.properties[c.key], c.to, tool);
    else if (c.field === 'x-removed') schema.properties[c.key]['x-removed'].version = c.to;
    else if (c.field === 'x-flag-since') {
      const p = schema.properties[c.key];
      const fs = { ...(p['x-flag-since'] ?? {}) };
      if (c.to) fs[c.flag] = c.to;
      else delete fs[c.flag];
      setKey(p, 'x-flag-since', Object.keys(fs).length ? fs : undefined, AFTER['x-flag-since']);
    }
  }
}

export function printChanges(title, changes, { write, verbose }) {
  console.log(`\n${title}: ${changes.length} change(s)${write ? '' : ' (not written; pass --write)'}`);
  for (const c of changes) {
    if (c.field === 'x-since' && c.why === 'first release with the flag' && !verbose) continue;
    console.log(`  ${c.key}: ${c.field}${c.flag ? ` ${c.flag}` : ''} ${JSON.stringify(c.from ?? null)} → ${JSON.stringify(c.to ?? null)}${c.why ? `  (${c.why})` : ''}`);
  }
}

/** Applies a result's changes to its schema and rewrites the schema file. */
export function writeSchema(result) {
  apply(result, result.tool);
  writeFileSync(result.path, `${stringifyJson(result.schema)}\n`);
  console.log(`wrote ${result.path}`);
}

/**
 * A snapshot of upstream facts the tests compare the schemas with, in `dir`, keys sorted: one line
 * per key, or (`indented`) as JSON indented by one space.
 */
export function writeSnapshot(dir, { name, what, releases, field, table, indented }) {
  const path = join(dir, name);
  mkdirSync(dirname(path), { recursive: true });
  const keys = Object.keys(table).sort((a, b) => a.localeCompare(b));
  if (indented) writeFileSync(path, `${JSON.stringify({ what, releases, [field]: Object.fromEntries(keys.map((k) => [k, table[k]])) }, null, 1)}\n`);
  else {
    const body = keys.map((k) => `  ${JSON.stringify(k)}: ${JSON.stringify(table[k])}`).join(',\n');
    writeFileSync(path, `{\n "what": ${JSON.stringify(what)},\n "releases": ${JSON.stringify(releases)},\n ${JSON.stringify(field)}: {\n${body}\n }\n}\n`);
  }
  console.log(`wrote ${path}`);
}
