// DeepSpeed keys an older release read that the schema lacks. A key the schema does not list is
// "unknown", and the removal unknown-key offers as safe changes the run at every release that read
// it (DeepSpeed 0.3.12–0.6.7 read `zero_optimization.cpu_offload_params`). For every release, the
// config readers of the sections the schema closes (SECTION_FILES, less the sections it leaves
// open) are searched for a read of a module constant — `get_scalar_param(d, NAME, …)` (or
// `get_list_param`, `get_dict_param`), `d.get(NAME…)`, `NAME in d` — whose string the schema has
// nowhere. Each such key is reported as a change with nothing to write: it is added to the schema
// by hand (with `x-since` and `x-removed`), after which the scan finds it.
import { catBlobs } from './git.mjs';

// Sections the schema leaves open (any key passes), so a key it does not list is never judged.
const OPEN = /^deepspeed\/(compression|runtime\/data_pipeline)\//;

/**
 * Keys of objects the schema leaves open, read by the pre-0.7 MoQ reader in runtime/config.py
 * (runtime/config.py@v0.6.7 get_quantize_training): `quantize_training.quantize_schedule`,
 * `.quantize_bits`, `.quantize_algo` and `.fp16_mixed_quantize` hold them, and the schema says
 * nothing of their keys.
 */
const MOQ_NESTED = new Set(['quantize_period', 'schedule_offset', 'start_bits', 'target_bits', 'rounding', 'quantize_change_ratio', 'q_type']);

const READS = [/get_(?:scalar|list|dict)_param\(\s*\w+\s*,\s*([A-Z][A-Z0-9_]+)/g, /\.get\(\s*([A-Z][A-Z0-9_]+)\s*[,)]/g, /\b([A-Z][A-Z0-9_]+)\s+in\s+\w+/g];
const CONSTANT = /^([A-Z][A-Z0-9_]+)\s*=\s*['"]([a-z][a-z0-9_]+)['"]\s*$/gm;

/** Every property name anywhere in the schema. */
function schemaNames(schema) {
  const names = new Set();
  const walk = (node) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const k of Object.keys(node.properties ?? {})) names.add(k);
      for (const v of Object.values(node)) walk(v);
    }
  };
  walk(schema);
  return names;
}

/** Changes (nothing to write) for every key a release reads in a closed section that the schema lacks. */
export function deepspeedLostKeys(dir, releases, schema, sectionFiles) {
  const closed = Object.values(sectionFiles);
  const inScope = (path) => !OPEN.test(path) && closed.some((re) => re.test(path));
  const ids = [...new Set(releases.flatMap((r) => [...r.files].filter(([p]) => inScope(p)).map(([, id]) => id)))];
  const text = new Map(catBlobs(dir, ids));
  const names = schemaNames(schema);
  const seen = new Map();
  for (const r of releases) {
    const constants = new Map();
    const reads = new Set();
    for (const [path, id] of r.files) {
      if (!inScope(path)) continue;
      const src = text.get(id);
      for (const m of src.matchAll(CONSTANT)) constants.set(m[1], { key: m[2], path });
      for (const re of READS) for (const m of src.matchAll(re)) reads.add(m[1]);
    }
    for (const name of reads) {
      const c = constants.get(name);
      if (!c || names.has(c.key) || MOQ_NESTED.has(c.key)) continue;
      const id = `${c.key} (${name}, ${c.path})`;
      if (!seen.has(id)) seen.set(id, []);
      seen.get(id).push(r.version);
    }
  }
  return [...seen].map(([key, versions]) => ({ key, field: 'missing key', from: undefined, to: `${versions[0]}…${versions.at(-1)}`, why: 'read by these releases; add it to the schema by hand with x-since/x-removed', set: () => {} }));
}
