// DeepSpeed values by release: for the keys whose accepted values come from a constant, a
// `Literal[...]`, an enum class or an `if value == "..."` chain of DeepSpeed's own reader (ENUM_READERS,
// the reader files named by hand per key), the first release whose reader files carry each value of
// the schema's enum as a string literal. `x-enum-since` is written for the values that arrive after
// the key itself: after the key's `x-since` and after the first release whose reader carries any of
// the values (a reader that arrives with all its values dates the key, not the values; a parameter
// such as `warmup_type` has no `x-since` of its own). A value the newest release no longer
// carries is only printed, as is a value no release carries (a value another tool fills in, such as
// `auto`, is never searched). `optimizer.type` has its own reader (deepspeed.mjs).
import { catBlobs, compareVersions } from './git.mjs';
import { functions, statements, tokenize } from './python.mjs';
import { printLists, setKey } from './write.mjs';

const RUNTIME_CONFIG = /^deepspeed\/runtime\/(config|constants)\.py$/;
/**
 * Per key: the files whose string literals are the values the reader accepts (a path regex). Only
 * keys DeepSpeed itself checks or dispatches on; a key whose value another library judges (comet's
 * `mode`, the dtype names of `data_types`, Python's log levels) is not listed.
 */
export const ENUM_READERS = {
  'curriculum_learning.schedule_type': /^deepspeed\/runtime\/data_pipeline\/(curriculum_scheduler|constants)\.py$/,
  'sparse_attention.mode': RUNTIME_CONFIG,
  'sparse_attention.attention': RUNTIME_CONFIG,
  'checkpoint.tag_validation': RUNTIME_CONFIG,
  'checkpoint.writer.type': /^deepspeed\/runtime\/model_checkpointing\/(config|constants)\.py$/,
  'checkpoint.writer.data_parallel': /^deepspeed\/runtime\/model_checkpointing\/(config|constants)\.py$/,
  'autotuning.tuner_type': /^deepspeed\/autotuning\/constants\.py$/,
  'autotuning.metric': /^deepspeed\/autotuning\/constants\.py$/,
  'zero_optimization.offload_param.device': /^deepspeed\/runtime\/zero\/(offload_config|offload_constants)\.py$/,
  'zero_optimization.offload_optimizer.device': /^deepspeed\/runtime\/zero\/(offload_config|offload_constants)\.py$/,
  'zero_optimization.zenflow.select_strategy': /^deepspeed\/runtime\/zenflow\/zenflow_config\.py$/,
  'communication_data_type': RUNTIME_CONFIG,
  'seq_parallel_communication_data_type': RUNTIME_CONFIG,
  'seq_parallel_comm_data_type': RUNTIME_CONFIG,
  'gradient_allreduce_op': /^deepspeed\/runtime\/(config|constants|engine)\.py$/,
  'compile.passes': /^deepspeed\/compile\/config\.py$/,
  'weight_quantization.q_type': /^deepspeed\/inference\/config\.py$/,
  'tensor_parallel.preset_model': /^deepspeed\/module_inject\/autotp_config\.py$/,
  'tensor_parallel.partition_config.layer_specs.partition_type': /^deepspeed\/module_inject\/autotp_config\.py$/,
  'expert_parallel.preset_model': /^deepspeed\/module_inject\/(auto_ep_config|auto_ep_presets\/registry)\.py$/,
  'expert_parallel.score_apply': /^deepspeed\/module_inject\/auto_ep_config\.py$/,
  'expert_parallel.combine_impl': /^deepspeed\/module_inject\/auto_ep_config\.py$/,
  'expert_parallel.score_func': /^deepspeed\/module_inject\/auto_ep_config\.py$/,
  'scheduler.params.warmup_type': /^deepspeed\/runtime\/lr_schedules\.py$/,
  // DeepSpeed's own schedulers (the engine takes any other name from torch.optim.lr_scheduler).
  'scheduler.type': /^deepspeed\/runtime\/lr_schedules\.py$/,
  'optimizer.params.comm_backend_name': /^deepspeed\/runtime\/fp16\/(onebit\/(adam|zoadam|lamb)|onebit_adam)\.py$/,
  'optimizer.params.ns_method': /^deepspeed\/runtime\/(config|zero\/muon\/[a-z_]+)\.py$|^deepspeed\/runtime\/zero\/muon\/[a-z_]+\.py$/,
};
/**
 * Keys whose reader files hold many unrelated string literals (section names such as `"bf16"`): only
 * the literals of the named top-level function count, the comparisons that accept a value. A value
 * such a function carried and a later release's lost is dated by `x-enum-removed` when the schema's
 * enum does not list it (a value renamed away).
 */
const READER_FUNCTIONS = {
  communication_data_type: 'get_communication_data_type',
  seq_parallel_communication_data_type: 'get_communication_data_type',
  seq_parallel_comm_data_type: 'get_communication_data_type',
};
/**
 * Values an older release read without refusing them, though its reader had no constant for them:
 * `x-enum-since` would say that release rejects the value, so none is written (checked by hand).
 */
const READ_BEFORE = {
  // Before v0.5.7 (VALID_OFFLOAD_DEVICES) any offload section turns offload on whatever `device`
  // says (engine.py zero_cpu_offload: `offload_optimizer is not None`); only nvme was told apart.
  'zero_optimization.offload_param.device': ['none'],
  'zero_optimization.offload_optimizer.device': ['none'],
};
/** Values other tools (the HF Trainer, Accelerate) fill in before DeepSpeed reads the file. */
const FILLED_IN = new Set(['auto']);

const literalCache = new Map();
const strings = (toks) => toks.filter((t) => t.t === 'str' && !t.f).map((t) => t.v);
/** The string literals of the blobs `ids`, or only those of their top-level function `fn`. */
function literalsOf(dir, ids, fn) {
  const cacheKey = (id) => (fn ? `${id}:${fn}` : id);
  const missing = ids.filter((id) => !literalCache.has(cacheKey(id)));
  for (const [id, text] of catBlobs(dir, missing)) {
    const toks = tokenize(text);
    const body = fn ? (functions(statements(toks)).get(fn) ?? []).flatMap((st) => st.toks) : toks;
    literalCache.set(cacheKey(id), new Set(strings(body)));
  }
  const out = new Set();
  for (const id of ids) for (const v of literalCache.get(cacheKey(id))) out.add(v);
  return out;
}

const branches = (p) => [p, ...(p.anyOf ?? []), ...(p.anyOf ?? []).map((a) => a.items ?? {}), p.items ?? {}];
const enumValues = (props) => [...new Set(props.flatMap(branches).flatMap((p) => p.enum ?? []).filter((v) => typeof v === 'string' && !FILLED_IN.has(v)))];

/**
 * `x-enum-removed` of a READER_FUNCTIONS key: the values its function accepted in a run of releases
 * (from the key's release on) that the newest no longer accepts and the schema's enum does not list.
 */
function removedChanges(dotted, holders, values, releases, perRelease, since) {
  const from = since ? releases.findIndex((r) => compareVersions(r.version, since) >= 0) : 0;
  const want = {};
  const seen = new Set(perRelease.slice(from).flatMap((lits) => [...lits]));
  for (const v of seen) {
    if (values.includes(v) || FILLED_IN.has(v) || perRelease.at(-1).has(v)) continue;
    const first = perRelease.findIndex((lits, i) => i >= from && lits.has(v));
    const last = perRelease.findLastIndex((lits) => lits.has(v));
    if (perRelease.slice(first, last + 1).some((lits) => !lits.has(v))) continue; // not one run: left alone
    want[v] = { ...(first > from ? { since: releases[first].version } : {}), removed: releases[last + 1].version };
  }
  const to = Object.keys(want).length ? want : undefined;
  const have = holders[0]?.['x-enum-removed'];
  if (JSON.stringify(have) === JSON.stringify(to)) return [];
  return [{ key: dotted, field: 'x-enum-removed', from: have, to, why: 'values the reader accepted in a run of releases and later refused', set: () => holders.forEach((p) => (to ? setKey(p, 'x-enum-removed', to, ['x-enum-since', 'markdownEnumDescriptions', 'enum']) : delete p['x-enum-removed'])) }];
}

/**
 * The `x-enum-since` changes for the keys of ENUM_READERS. `keys`: the schema's properties by dotted
 * path (arrays of the branches that define the key); `keySince(dotted)`: the release the key (or its
 * section) arrived in, undefined when it was there from the first release compared.
 */
export function deepspeedEnumChanges(dir, releases, keys, keySince) {
  const changes = [];
  const report = { dated: [], confirmed: [], gone: [], never: [], readBefore: [] };
  for (const [dotted, files] of Object.entries(ENUM_READERS)) {
    const props = keys.get(dotted);
    if (!props) continue;
    const values = enumValues(props);
    const since = keySince(dotted);
    const fn = READER_FUNCTIONS[dotted];
    const perRelease = releases.map((r) => literalsOf(dir, [...r.tree].filter(([path]) => files.test(path)).map(([, id]) => id), fn));
    const want = {};
    const firsts = values.map((v) => perRelease.findIndex((lits) => lits.has(v))).filter((i) => i >= 0);
    const reader = firsts.length ? Math.min(...firsts) : -1;
    for (const v of values) {
      const first = perRelease.findIndex((lits) => lits.has(v));
      if (first < 0) {
        report.never.push(`${dotted}: ${JSON.stringify(v)}`);
        continue;
      }
      if (!perRelease.at(-1).has(v)) report.gone.push(`${dotted}: ${JSON.stringify(v)} last carried ${releases[perRelease.findLastIndex((lits) => lits.has(v))].version}`);
      const version = releases[first].version;
      if (first === reader || (since && compareVersions(version, since) <= 0)) continue;
      if (READ_BEFORE[dotted]?.includes(v)) {
        report.readBefore.push(`${dotted}: ${JSON.stringify(v)} carried from ${version}, read without a refusal before`);
        continue;
      }
      want[v] = version;
    }
    const to = Object.keys(want).length ? want : undefined;
    // The node a value is judged against: the key's own, or its items' for a list of values.
    const holders = props.map((p) => (p.items?.enum ? p.items : p)).filter((p) => branches(p).some((b) => b.enum));
    if (fn) changes.push(...removedChanges(dotted, holders, values, releases, perRelease, since));
    const have = holders[0]?.['x-enum-since'];
    if (to) report.dated.push(`${dotted}: ${Object.entries(to).map(([v, s]) => `${v} ${s}`).join(', ')} (key from ${since ?? 'the first release'})`);
    if (JSON.stringify(have) === JSON.stringify(to)) {
      if (to) report.confirmed.push(dotted);
      continue;
    }
    changes.push({
      key: dotted,
      field: 'x-enum-since',
      from: have,
      to,
      why: 'first release whose reader carries the value',
      set: () => holders.forEach((p) => (to ? setKey(p, 'x-enum-since', to, ['markdownEnumDescriptions', 'enum']) : delete p['x-enum-since'])),
    });
  }
  printLists([
    ['values that arrived after their key (x-enum-since)', report.dated],
    ['of them, already recorded', report.confirmed],
    ['values the newest release no longer carries (left as they are)', report.gone],
    ['values no release carries in the reader files (not judged)', report.never],
    ['values older releases read without refusing them (READ_BEFORE, no x-enum-since)', report.readBefore],
  ]);
  return changes;
}

/**
 * Keys DeepSpeed converts with its dtype table, `DtypeEnum` (the engine's `get_data_types`,
 * `_assert_valid_mixed_precision_config`, `_mixed_precision_dtypes`; the config's
 * `get_torch_autocast_dtype`): every spelling of every member passes the conversion, so the schema's
 * enum is the table's names at the newest release, and a name the table gained after the key is
 * dated by `x-enum-since`. The table is the class in runtime/config.py (from 0.9.0, which the engine
 * imports), else the one in inference/config.py (0.7.6 to 0.8.x, imported from there).
 */
export const DTYPE_ENUM_KEYS = ['torch_autocast.dtype', 'data_types.grad_accum_dtype', 'data_types.param_dtype', 'data_types.buffer_dtype'];
const DTYPE_FILES = ['deepspeed/runtime/config.py', 'deepspeed/inference/config.py'];

/** The string names of the members of `class DtypeEnum` in a Python file, or undefined without the class. */
function dtypeTable(text) {
  const stmts = statements(tokenize(text));
  const at = stmts.findIndex((s) => s.indent === 0 && s.toks[0]?.v === 'class' && s.toks[1]?.v === 'DtypeEnum');
  if (at < 0) return undefined;
  const names = [];
  for (const s of stmts.slice(at + 1)) {
    if (s.indent === 0) break;
    // A member line: `name = torch.x, "spelling", ...` (methods and comments aside).
    if (s.toks[0]?.t === 'name' && s.toks[1]?.v === '=') names.push(...strings(s.toks));
  }
  return names;
}

const tableCache = new Map();
/** The dtype table of a release: the names of the first of DTYPE_FILES that defines it. */
function releaseDtypeNames(dir, release) {
  for (const file of DTYPE_FILES) {
    const id = release.tree.get(file);
    if (!id) continue;
    if (!tableCache.has(id)) for (const [blob, text] of catBlobs(dir, [id])) tableCache.set(blob, dtypeTable(text));
    const names = tableCache.get(id);
    if (names) return new Set(names);
  }
  return undefined;
}

/** The enum (and x-enum-since) changes of DTYPE_ENUM_KEYS against the dtype table of each release. */
export function deepspeedDtypeChanges(dir, releases, keys, keySince) {
  const changes = [];
  const report = [];
  const tables = releases.map((r) => releaseDtypeNames(dir, r));
  for (const dotted of DTYPE_ENUM_KEYS) {
    const props = keys.get(dotted);
    if (!props) continue;
    const since = keySince(dotted);
    const from = Math.max(0, since ? releases.findIndex((r) => compareVersions(r.version, since) >= 0) : 0);
    const newest = tables.at(-1);
    if (!newest) continue;
    const holders = props.filter((p) => Array.isArray(p.enum));
    const have = holders[0]?.enum ?? [];
    // The schema's order, then the names it lacks in the table's order.
    const want = [...have.filter((v) => newest.has(v)), ...[...newest].filter((v) => !have.includes(v))];
    const dated = {};
    for (const v of want) {
      const first = tables.findIndex((t, i) => i >= from && t?.has(v));
      if (first > from && tables.slice(from, first).some(Boolean)) dated[v] = releases[first].version;
    }
    const datedTo = Object.keys(dated).length ? dated : undefined;
    report.push(`${dotted}: ${want.length} names${datedTo ? ` (later: ${Object.entries(datedTo).map(([v, s]) => `${v} ${s}`).join(', ')})` : ''}`);
    if (JSON.stringify(have) !== JSON.stringify(want)) {
      changes.push({
        key: dotted,
        field: 'enum',
        from: have,
        to: want,
        why: "the names of DeepSpeed's dtype table (DtypeEnum) at the newest release",
        set: () =>
          holders.forEach((p) => {
            const text = new Map(have.map((v, i) => [v, p.markdownEnumDescriptions?.[i]]));
            p.enum = want;
            if (p.markdownEnumDescriptions) p.markdownEnumDescriptions = want.map((v) => text.get(v) ?? `\`${v}\`: a name of DeepSpeed's dtype table.`);
          }),
      });
    }
    const had = holders[0]?.['x-enum-since'];
    if (JSON.stringify(had) !== JSON.stringify(datedTo))
      changes.push({ key: dotted, field: 'x-enum-since', from: had, to: datedTo, why: "first release whose dtype table has the name", set: () => holders.forEach((p) => (datedTo ? setKey(p, 'x-enum-since', datedTo, ['markdownEnumDescriptions', 'enum']) : delete p['x-enum-since'])) });
  }
  printLists([["keys read through DeepSpeed's dtype table (DtypeEnum)", report]]);
  return changes;
}
