// Megatron Core fields whose allowed values are checked in TransformerConfig.__post_init__ rather
// than by argparse `choices` (`allowed_modules = {...}`, or `_allowed_…`, then `set(self.recompute_modules) -
// allowed_modules` raises): the set is read at every release tag, and each value is dated by the
// first release that allows it (`x-enum-since`), so a value a release does not know yet is refused
// there (version-unsupported-key).
import { compareVersions, show } from './git.mjs';
import { AFTER, printLists, setKey } from './write.mjs';

const FILE = 'megatron/core/transformer/transformer_config.py';

/** Per field, the values an `allowed_… = {…}` set checked against `set(self.<field>)` lets through. */
function allowedSets(src) {
  const out = new Map();
  for (const m of src.matchAll(/(_?allowed_\w+)\s*=\s*\{([^}]*)\}/g)) {
    const values = [...m[2].matchAll(/["']([\w.-]+)["']/g)].map((x) => x[1]);
    const after = src.slice(m.index, m.index + 600);
    const field = new RegExp(`set\\(self\\.(\\w+)\\)\\s*-\\s*${m[1]}\\b`).exec(after)?.[1];
    if (field && values.length) out.set(field, values);
  }
  return out;
}

/** The `x-enum-since` changes for fields checked in __post_init__, printed as found. */
export function megatronPostInitChoices(dir, releases, props) {
  const firstSeen = new Map();
  for (const r of releases) {
    const src = show(dir, r.rev, FILE);
    if (!src) continue;
    for (const [field, values] of allowedSets(src)) {
      const seen = firstSeen.get(field) ?? new Map();
      for (const v of values) if (!seen.has(v)) seen.set(v, r.version);
      firstSeen.set(field, seen);
    }
  }
  const changes = [];
  const found = [];
  for (const [field, seen] of firstSeen) {
    const prop = props[field];
    const enumOf = prop?.items?.enum ?? prop?.enum;
    if (!prop || !enumOf) continue;
    const first = [...seen.values()].sort(compareVersions)[0];
    const dated = Object.fromEntries([...seen].filter(([v, since]) => enumOf.includes(v) && compareVersions(since, first) > 0).sort((a, b) => compareVersions(a[1], b[1]) || a[0].localeCompare(b[0])));
    const want = { ...(prop['x-enum-since'] ?? {}), ...dated };
    found.push(`${field}: ${Object.entries(dated).map(([v, s]) => `${v} ${s}`).join(', ') || 'every value from the first release'}`);
    if (JSON.stringify(want) === JSON.stringify(prop['x-enum-since'] ?? {})) continue;
    changes.push({ key: field, field: 'x-enum-since', from: prop['x-enum-since'], to: want, why: 'the allowed set TransformerConfig.__post_init__ checks at each release', set: () => setKey(prop, 'x-enum-since', want, AFTER['x-enum-since']) });
  }
  console.log('\nValues checked in TransformerConfig.__post_init__ (allowed sets), by release:');
  printLists([['fields', found]]);
  return changes;
}
