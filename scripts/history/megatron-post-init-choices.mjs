// Megatron Core fields whose allowed values are checked in the config dataclasses' __post_init__
// rather than by argparse `choices` alone:
//
// - a list field checked against a set (`allowed_modules = {...}`, or `_allowed_…`, then
//   `set(self.recompute_modules) - allowed_modules` raises);
// - a one-value field asserted against a list in the body of __post_init__ itself
//   (`assert self.cuda_graph_impl in [...]`), or under a test of the field alone
//   (`if self.cuda_graph_impl != "none": assert self.cuda_graph_impl in [...]`, the tested value
//   passing too); an assert under any other condition is a check of a combination, not of the value.
//
// The set is read at every release tag, and each value is dated by the first release that allows it
// (`x-enum-since`), so a value a release does not know yet is refused there (version-unsupported-key).
// A one-value field checked so is refused by every reader that builds the config, not by argparse
// alone: it loses `x-enum-argparse-only`, and gets `x-yaml-cfg-refused` with `core: true` (Megatron-LM's
// `--yaml-cfg` reader, Megatron Bridge and NeMo build the same dataclass), whose effect names the class
// and the assertion's message.
import { compareVersions, show } from './git.mjs';
import { AFTER, printLists, setKey } from './write.mjs';

const FILE = 'megatron/core/transformer/transformer_config.py';
const CONFIG_FILES = {
  [FILE]: 'TransformerConfig',
  'megatron/core/model_parallel_config.py': 'ModelParallelConfig',
  'megatron/core/distributed/distributed_data_parallel_config.py': 'DistributedDataParallelConfig',
  'megatron/core/optimizer/optimizer_config.py': 'OptimizerConfig',
};

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

/**
 * Per field, the values `assert self.<field> in [...]` lets through where the assert is a statement of
 * the body of `__post_init__` (8 spaces) or sits there under `if self.<field> != "<v>":` alone (then `<v>` passes too),
 * with the assertion's message up to its first interpolation.
 */
function assertedSets(src) {
  const out = new Map();
  const lines = src.split('\n');
  let method;
  for (let i = 0; i < lines.length; i++) {
    // Only __post_init__ runs whenever the config is built: an assert of another method is not counted.
    if (/^ {0,4}[^\s#]/.test(lines[i])) method = /^ {4}(?:async\s+)?def\s+(\w+)/.exec(lines[i])?.[1];
    const m = method === '__post_init__' && /^( +)assert self\.(\w+) in [[(]/.exec(lines[i]);
    if (!m) continue;
    const field = m[2];
    const text = lines.slice(i, i + 12).join('\n');
    const close = text.indexOf(text[m[0].length - 1] === '[' ? ']' : ')', m[0].length);
    const values = [...text.slice(m[0].length, close).matchAll(/["']([\w.-]+)["']/g)].map((x) => x[1]);
    const message = /f?["']([^"'{]+)/.exec(text.slice(close + 1))?.[1]?.replace(/[:\s]+$/, '');
    let guard;
    if (m[1].length === 12) {
      const head = lines.slice(0, i).findLast((l) => /^ {8}\S/.test(l));
      guard = new RegExp(`^ {8}if self\\.${field} != ["']([\\w.-]+)["']:\\s*$`).exec(head ?? '')?.[1];
      if (!guard) continue;
    } else if (m[1].length !== 8) continue;
    if (values.length) out.set(field, { values: guard ? [guard, ...values] : values, message });
  }
  return out;
}

/** The `x-enum-since` changes for fields checked in __post_init__, and the marks of one-value fields so checked, printed as found. */
export function megatronPostInitChoices(dir, releases, props) {
  const firstSeen = new Map();
  const asserted = new Map();
  const see = (field, values, version) => {
    const seen = firstSeen.get(field) ?? new Map();
    for (const v of values) if (!seen.has(v)) seen.set(v, version);
    firstSeen.set(field, seen);
  };
  for (const r of releases) {
    for (const [file, cls] of Object.entries(CONFIG_FILES)) {
      const src = show(dir, r.rev, file);
      if (!src) continue;
      if (file === FILE) for (const [field, values] of allowedSets(src)) see(field, values, r.version);
      for (const [field, { values, message }] of assertedSets(src)) {
        see(field, values, r.version);
        // The mark is not dated: only what the newest release still asserts is refused by every reader.
        if (r === releases.at(-1)) asserted.set(field, { cls, message });
      }
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
    if (JSON.stringify(want) !== JSON.stringify(prop['x-enum-since'] ?? {})) changes.push({ key: field, field: 'x-enum-since', from: prop['x-enum-since'], to: want, why: 'the allowed set the config dataclass checks in __post_init__ at each release', set: () => setKey(prop, 'x-enum-since', want, AFTER['x-enum-since']) });
    const check = asserted.get(field);
    if (!check || prop.items) continue;
    if (prop['x-enum-argparse-only'] !== undefined) changes.push({ key: field, field: 'x-enum-argparse-only', from: prop['x-enum-argparse-only'], to: undefined, why: `${check.cls}.__post_init__ asserts the value, so a file that sets the config field is refused too`, set: () => setKey(prop, 'x-enum-argparse-only', undefined) });
    const refused = prop['x-yaml-cfg-refused'];
    const effect = `Megatron Core's ${check.cls} asserts the value when the config is built${check.message ? ` ("${check.message}")` : ''}`;
    const wantRefused = refused?.core ? refused : { ...(refused ?? { effect }), core: true };
    if (JSON.stringify(wantRefused) !== JSON.stringify(refused)) changes.push({ key: field, field: 'x-yaml-cfg-refused', from: refused, to: wantRefused, why: `${check.cls}.__post_init__ asserts the value whoever builds the config`, set: () => setKey(prop, 'x-yaml-cfg-refused', wantRefused, ['x-yaml-cfg']) });
  }
  console.log('\nValues checked in the config dataclasses\' __post_init__ (allowed sets and asserted lists), by release:');
  printLists([['fields', found]]);
  return changes;
}
