// DeepSpeed: for every final release tag v0.3.0 onward (plus master when its version.txt is newer
// than the last tag), collects the string literals and pydantic field names of the config code
// (deepspeed/runtime/**/*.py, deepspeed/__init__.py, the config/constants files of the other
// packages). A key is judged in the files of its section (SECTION_FILES); a common name (`enabled`,
// `dtype`) only where the section has files of its own. --write fills in `x-since` where the schema
// has none and the key is first read after v0.3.0 and after its section arrived (a key that comes
// with its section needs none), and applies DEEPSPEED_RESOLVED (x-since and x-deprecated.since
// corrections checked by hand); other disagreements are only printed.
//
// DeepSpeed strictness: for the sections read by a pydantic model (SECTION_MODELS), whether each
// release refuses an unknown key (the model exists, is used, and forbids extra keys) or reads the
// section key by key; compared with `x-unknown-key-effect`, `x-strict-since` and the `unused`
// ranges of `x-value-forms`; --write corrects `x-strict-since` where one change point explains
// the read. schemas/history/deepspeed-strictness.json keeps the read. A section of SECTION_MODELS
// whose values the schema says are used only while it is on (`x-values-checked-when-enabled`, kept
// by hand from the code that uses them) is held to the same read: a release whose model validates
// the section whenever it is written must lie outside the gate's `since`/`until` (printed).
//
// DeepSpeed's value checks: deepspeed-checks.mjs writes `x-invalid-effect` of the keys read key by
// key from whether their reader checks the value.
//
// DeepSpeed defaults: the pydantic fields' literal defaults, and before a section's model the
// `_DEFAULT` constants of its key-by-key reader (deepspeed-key-defaults.mjs), give `x-default-before`.
//
// DeepSpeed deprecated keys refused beside their replacement: deepspeed-deprecations.mjs gives
// `x-deprecated.refusedWithReplacementSince`.
//
// DeepSpeed keys older releases read that the schema lacks: deepspeed-lost-keys.mjs reports them.
//
// DeepSpeed fields no code reads: deepspeed-readers.mjs prints them (checked by hand, then said in prose).
//
// DeepSpeed values: deepspeed-enums.mjs dates the values of the keys whose reader checks them
// (`x-enum-since`); `optimizer.type` is dated here from DEEPSPEED_OPTIMIZERS.
//
// Reads the DeepSpeed mirror and schemas/deepspeed.schema.json; returns the changes to the schema
// and the strictness snapshot (write.mjs writes them).
import { deepspeedCheckChanges } from './deepspeed-checks.mjs';
import { deepspeedRefusedPairs } from './deepspeed-deprecations.mjs';
import { keyByKeyDefaults } from './deepspeed-key-defaults.mjs';
import { deepspeedLostKeys } from './deepspeed-lost-keys.mjs';
import { deepspeedDtypeChanges, deepspeedEnumChanges } from './deepspeed-enums.mjs';
import { deepspeedUnread } from './deepspeed-readers.mjs';
import { catBlobs, compareVersions, gitLines, releaseTags, show } from './git.mjs';
import { defaultBefore, readSchema, schemaDefault } from './json.mjs';
import { argumentTokens, closing, depthAt, literalDefault, statements, tokenize } from './python.mjs';
import { printLists, ranges, setKey, setKeyBefore, snapshotRanges } from './write.mjs';

// ------------------------------------------------------------------------------------------------
// The keys the config code of every release reads

/** What scanBlob read of each blob of the config files, by blob id. */
const blobCache = new Map();

/** String literals and class-level annotated names (pydantic fields) of a Python file. */
function scanBlob(src) {
  const literals = new Set();
  const fields = new Set();
  const toks = tokenize(src);
  for (const t of toks) if (t.t === 'str' && !t.f && t.v.length < 80 && /^[A-Za-z_][A-Za-z0-9_]*$/.test(t.v)) literals.add(t.v);
  const stmts = statements(toks);
  let classIndent = -1;
  let bodyIndent = -1;
  for (const st of stmts) {
    if (st.toks[0]?.v === 'class') {
      classIndent = st.indent;
      bodyIndent = -1;
      continue;
    }
    if (classIndent < 0 || st.indent <= classIndent) {
      classIndent = -1;
      continue;
    }
    if (bodyIndent < 0) bodyIndent = st.indent;
    if (st.indent === bodyIndent && st.toks[0]?.t === 'name' && st.toks[1]?.v === ':') fields.add(st.toks[0].v);
  }
  return { literals, fields, ...classesOf(stmts), ...constantsOf(stmts), refs: new Set(toks.filter((t, j) => t.t === 'name' && toks[j - 1]?.v !== 'class').map((t) => t.v)) };
}

/**
 * The module-level constants of a file (`NAME = <literal>` or `NAME = OTHER_NAME`, upper-case
 * names): name → `{ value }` or `{ ref }`; and the names used other than as the target of such an
 * assignment (what the file reads).
 */
function constantsOf(stmts) {
  const constants = new Map();
  const uses = new Set();
  for (const st of stmts) {
    const t = st.toks;
    const defines = st.indent === 0 && t[0]?.t === 'name' && /^[A-Z][A-Z0-9_]*$/.test(t[0].v) && t[1]?.v === '=';
    if (defines) {
      const expr = t.slice(2);
      if (expr.length === 1 && expr[0].t === 'name' && /^[A-Z][A-Z0-9_]*$/.test(expr[0].v) && !(expr[0].v in { True: 1, False: 1, None: 1 })) constants.set(t[0].v, { ref: expr[0].v });
      else {
        const d = literalDefault(expr);
        if (d.dynamic === undefined) constants.set(t[0].v, { value: d.value });
      }
    }
    for (const [j, x] of t.entries()) if (x.t === 'name' && !(defines && j === 0)) uses.add(x.v);
  }
  return { constants, uses };
}

/**
 * The top-level classes of a module: name → `{ bases, extra, defaults, fields, members }`, `extra`
 * the pydantic setting for unknown keys its body writes (`extra = "forbid"` in `class Config`,
 * `extra="forbid"` in `model_config = ConfigDict(...)`), undefined when it writes none; `members`
 * the literals its body assigns to unannotated names (the members of an Enum).
 */
function classesOf(stmts) {
  const classes = new Map();
  let cur = null;
  let body = -1;
  for (const st of stmts) {
    const t = st.toks;
    if (st.indent === 0) {
      cur = null;
      body = -1;
      if (t[0]?.v === 'class' && t[1]?.t === 'name') {
        const bases = t[2]?.v === '(' ? t.slice(3, closing(t, 2)).filter((x, j, a) => x.t === 'name' && a[j + 1]?.v !== '.' && a[j + 1]?.v !== '=').map((x) => x.v) : [];
        classes.set(t[1].v, (cur = { bases, extra: undefined, defaults: new Map(), fields: new Set(), members: new Map(), nullable: new Map() }));
      }
      continue;
    }
    if (!cur) continue;
    if (body < 0) body = st.indent;
    for (let j = 0; j + 2 < t.length; j++) if (t[j].v === 'extra' && t[j + 1].v === '=' && t[j + 2].t === 'str') cur.extra = t[j + 2].v;
    // `name = <literal>` in the body: a member of an Enum (`none = "none"`), which a field's default may name.
    if (st.indent === body && t[0]?.t === 'name' && t[1]?.v === '=') {
      const d = literalDefault(t.slice(2));
      if (d.dynamic === undefined) cur.members.set(t[0].v, d.value);
    }
    if (st.indent === body && t[0]?.t === 'name' && t[1]?.v === ':') {
      fieldDefault(cur, t);
      // Every annotated field is a key the model takes, under its alias when it has one.
      const alias = t.findIndex((x, j) => x.v === 'alias' && t[j + 1]?.v === '=' && t[j + 2]?.t === 'str');
      const key = alias >= 0 ? t[alias + 2].v : t[0].v;
      if (!t[0].v.startsWith('_') && t[0].v !== 'model_config') cur.fields.add(key);
      cur.nullable.set(key, fieldNullable(t, cur.defaults.get(key)));
    }
  }
  return { classes };
}

/**
 * Whether a pydantic field takes an explicit None: `annotation` when its type admits None
 * (`Optional[...]`, `Union[..., None]`, `Literal[..., None]`, `X | None`, `Any`, `object`; a None or
 * an `Any` inside another type, `Dict[str, Any]`, does not count), `default` when only its default is None
 * (`x: int = None`, which pydantic 1 makes optional and pydantic 2 does not: it validates an explicit
 * None against `int`), false otherwise.
 */
function fieldNullable(t, dflt) {
  const eq = t.findIndex((x, j) => j > 1 && x.v === '=' && depthAt(t, j) === 0);
  const annotation = t.slice(2, eq < 0 ? t.length : eq);
  // The outer type decides: `Dict[str, Any]` or `List[Optional[int]]` takes no None itself.
  const at = (depth) => annotation.filter((x, j) => x.t === 'name' && depthAt(annotation, j) === depth).map((x) => x.v);
  const outer = at(0);
  if (outer.some((v) => ['Optional', 'None', 'Any', 'object'].includes(v))) return 'annotation';
  if ((outer.includes('Union') || outer.includes('Literal')) && at(1).includes('None')) return 'annotation';
  return dflt && dflt.dynamic === undefined && dflt.value === null ? 'default' : false;
}

/**
 * A pydantic field's key and default: `name: T = <literal>`, or `name: T = Field(<literal>, …)` /
 * `Field(default=<literal>, alias="key")`; the key is the alias when one is given. Computed
 * defaults (a constant's name, a call) are recorded as not known.
 */
function fieldDefault(cls, t) {
  const eq = t.findIndex((x, j) => j > 1 && x.v === '=' && depthAt(t, j) === 0);
  if (eq < 0) return;
  let expr = t.slice(eq + 1);
  let key = t[0].v;
  if (expr[0]?.t === 'name' && expr[0].v === 'Field' && expr[1]?.v === '(' && closing(expr, 1) === expr.length - 1) {
    const args = [];
    for (let j = 2; j < expr.length - 1; ) {
      const a = argumentTokens(expr, j);
      args.push(a);
      j += a.length + 1;
    }
    const named = (n) => args.find((a) => a[0]?.v === n && a[1]?.v === '=')?.slice(2);
    const alias = named('alias');
    if (alias?.length === 1 && alias[0].t === 'str') key = alias[0].v;
    const positional = args.find((a) => a.length && !(a[0]?.t === 'name' && a[1]?.v === '='));
    expr = named('default') ?? positional;
    if (!expr) return cls.defaults.set(key, { dynamic: 'default_factory or no default' });
  }
  cls.defaults.set(key, literalDefault(expr));
}

// The files whose literals count as "read by the config code".
const isConfigFile = (p) => p.endsWith('.py') && (p === 'deepspeed/__init__.py' || p.startsWith('deepspeed/runtime/') || /(^|\/)(constants|config|config_utils|[a-z_]*_config)\.py$/.test(p) || p.startsWith('deepspeed/monitor/') || p.startsWith('deepspeed/comm/'));

function deepspeedReleases(dir) {
  const releases = releaseTags(dir, 'v', '0.3.0');
  // Keys on master that no release has yet: the version master announces (version.txt).
  const master = show(dir, 'refs/heads/master', 'version.txt')?.trim();
  if (master && compareVersions(master, releases.at(-1).version) > 0) releases.push({ rev: 'refs/heads/master', version: master });
  for (const r of releases) {
    const files = gitLines(dir, 'ls-tree', '-r', r.rev, '--', 'deepspeed').map((l) => {
      const [meta, path] = l.split('\t');
      return { path, id: meta.split(' ')[2] };
    });
    r.files = new Map(files.filter((f) => isConfigFile(f.path)).map((f) => [f.path, f.id]));
    r.tree = new Map(files.map((f) => [f.path, f.id]));
  }
  const all = [...new Set(releases.flatMap((r) => [...r.files.values()]))];
  for (const [id, text] of catBlobs(dir, all.filter((id) => !blobCache.has(id)))) blobCache.set(id, scanBlob(text));
  return releases;
}

/** Every property of the schema, by dotted path (allOf/then/anyOf branches merged). */
function schemaKeys(schema) {
  const out = new Map();
  const walk = (node, path) => {
    if (!node || typeof node !== 'object') return;
    if (node.$ref?.startsWith('#/definitions/')) walk(schema.definitions?.[node.$ref.slice(14)], path);
    for (const [k, v] of Object.entries(node.properties ?? {})) {
      const dotted = [...path, k].join('.');
      if (!out.has(dotted)) out.set(dotted, []);
      out.get(dotted).push(v);
      walk(v, [...path, k]);
    }
    for (const kw of ['anyOf', 'oneOf', 'allOf']) for (const sub of node[kw] ?? []) walk(sub, path);
    for (const kw of ['then', 'else', 'items']) if (node[kw]) walk(node[kw], path);
  };
  walk(schema, []);
  return out;
}

// Where each section is read: the files of runtime/config.py's parser for the section (a path
// regex). A key is judged by its literal (or pydantic field name) in the files of its top-level
// section; a top-level key also in runtime/config.py and runtime/constants.py. Inference
// (deepspeed/inference) and compression-internal files are never searched: they have keys of the
// same name with another meaning (the inference config's `tensor_parallel`, `hybrid_engine` fields).
const RUNTIME = /^deepspeed\/runtime\/(config|constants)\.py$/;
const SECTION_FILES = {
  fp16: /^deepspeed\/runtime\/(config|constants|precision_config)\.py$|^deepspeed\/runtime\/fp16\//,
  bf16: /^deepspeed\/runtime\/(config|constants|precision_config)\.py$/,
  bfloat16: /^deepspeed\/runtime\/(config|constants|precision_config)\.py$/,
  amp: RUNTIME,
  // Its keys `enabled`/`dtype` exist in runtime/config.py for other sections: its own module only.
  torch_autocast: /^deepspeed\/runtime\/torch_autocast\.py$/,
  zero_optimization: /^deepspeed\/runtime\/zero\/(config|constants|offload_config|offload_constants|leaf_module_config)\.py$|^deepspeed\/runtime\/zenflow\/zenflow_config\.py$/,
  activation_checkpointing: /^deepspeed\/runtime\/activation_checkpointing\/config\.py$/,
  comms_logger: /^deepspeed\/comm\/(config|constants)\.py$/,
  tensorboard: /^deepspeed\/monitor\/config\.py$|^deepspeed\/runtime\/(config|constants)\.py$/,
  wandb: /^deepspeed\/monitor\/config\.py$/,
  csv_monitor: /^deepspeed\/monitor\/config\.py$/,
  comet: /^deepspeed\/monitor\/config\.py$/,
  flops_profiler: /^deepspeed\/profiling\/(config|constants)\.py$/,
  tensor_parallel: /^deepspeed\/runtime\/tensor_parallel\/|^deepspeed\/module_inject\/autotp_config\.py$/,
  expert_parallel: /^deepspeed\/module_inject\/auto_ep_config\.py$/,
  // An open dict: runtime/config.py copies any key; the pipeline engine reads them.
  pipeline: /^deepspeed\/runtime\/(config|constants)\.py$|^deepspeed\/runtime\/pipe\/engine\.py$/,
  aio: /^deepspeed\/runtime\/swap_tensor\/(aio_config|constants)\.py$/,
  checkpoint: /^deepspeed\/runtime\/(config|constants)\.py$|^deepspeed\/runtime\/model_checkpointing\/(config|constants)\.py$/,
  data_types: RUNTIME,
  compile: /^deepspeed\/runtime\/compiler\.py$|^deepspeed\/compile\/config\.py$/,
  hybrid_engine: RUNTIME,
  autotuning: /^deepspeed\/autotuning\/(config|constants)\.py$/,
  elasticity: /^deepspeed\/elasticity\/(config|constants)\.py$/,
  sparse_attention: RUNTIME,
  progressive_layer_drop: RUNTIME,
  curriculum_learning: RUNTIME,
  data_efficiency: /^deepspeed\/runtime\/data_pipeline\/(config|constants)\.py$/,
  compression_training: /^deepspeed\/compression\/(config|constants)\.py$/,
  quantize_training: RUNTIME,
  weight_quantization: RUNTIME,
  nebula: /^deepspeed\/nebula\/(config|constants)\.py$/,
  datastates_ckpt: /^deepspeed\/datastates\/config\.py$/,
  timers: /^deepspeed\/runtime\/(config|constants)\.py$|^deepspeed\/utils\/config\.py$/,
  eigenvalue: RUNTIME,
};
const distinctive = (key) => key.length >= 9 && key.includes('_');
const SKIP_DS = [/^optimizer\.params\./, /^scheduler\.params\./, /^optimizer\.allOf/];

function deepspeedFacts(dotted, releases) {
  const parts = dotted.split('.');
  const key = parts.at(-1);
  const own = SECTION_FILES[parts[0]];
  // A top-level key: the runtime parser, plus its section's own files.
  // deepspeed/__init__.py reads the mesh keys (sequence_parallel_size, data_parallel_size) itself.
  const files = parts.length === 1 ? (p) => RUNTIME.test(p) || p === 'deepspeed/__init__.py' || (own ? own.test(p) : false) : own ? (p) => own.test(p) : (p) => RUNTIME.test(p);
  // A common name deeper down is judged only where a section has files of its own.
  if (parts.length > 1 && !distinctive(key) && (!own || own === RUNTIME)) return null;
  const reads = (r) => {
    for (const [path, id] of r.files) {
      if (!files(path)) continue;
      const b = blobCache.get(id);
      if (b.literals.has(key) || b.fields.has(key)) return path;
    }
    return undefined;
  };
  const where = releases.map(reads);
  const first = where.findIndex(Boolean);
  const last = where.map(Boolean).lastIndexOf(true);
  return { key, first: first < 0 ? undefined : releases[first].version, firstIndex: first, file: where[first], lastHad: last < 0 ? undefined : releases[last].version, gone: last >= 0 && last < releases.length - 1 ? releases[last + 1].version : undefined };
}

// ------------------------------------------------------------------------------------------------
// Strictness: which releases refuse an unknown key in a section

/**
 * The pydantic model that reads each section once the section is a model (named by hand, checked
 * per release): a release refuses unknown keys in the section when the model is defined in the
 * files given (default: the config files) and used (named other than in its own `class` line), and it or a base class sets
 * `extra = "forbid"`; otherwise the release reads the section key by key and ignores other keys.
 */
const SECTION_MODELS = {
  fp16: { cls: 'DeepSpeedFP16Config' },
  bf16: { cls: 'DeepSpeedBF16Config' },
  bfloat16: { cls: 'DeepSpeedBF16Config' },
  zero_optimization: { cls: 'DeepSpeedZeroConfig' },
  'zero_optimization.offload_param': { cls: 'DeepSpeedZeroOffloadParamConfig' },
  'zero_optimization.offload_optimizer': { cls: 'DeepSpeedZeroOffloadOptimizerConfig' },
  'zero_optimization.zenflow': { cls: 'ZenFlowConfig' },
  'zero_optimization.leaf_module': { cls: 'DeepSpeedZeroLeafModuleConfig' },
  comms_logger: { cls: 'CommsLoggerConfig' },
  tensorboard: { cls: 'TensorBoardConfig' },
  wandb: { cls: 'WandbConfig' },
  csv_monitor: { cls: 'CSVConfig' },
  comet: { cls: 'CometConfig' },
  tensor_parallel: { cls: 'TPTrainingConfig' },
  'tensor_parallel.tp': { cls: 'TPConfig', files: /^deepspeed\/runtime\/tensor_parallel\// },
  compile: { cls: 'CompileConfig', files: /^deepspeed\/(runtime\/compiler|compile\/config)\.py$/ },
  hybrid_engine: { cls: 'HybridEngineConfig', files: RUNTIME },
  weight_quantization: { cls: 'WeightQuantConfig' },
  'timers.throughput': { cls: 'DeepSpeedThroughputTimerConfig' },
};

/**
 * Whether the schema says `version` refuses an unknown key in the section: `x-unknown-key-effect:
 * error`, from `x-strict-since` on, outside the releases that do not read it (`x-value-forms` unused).
 */
function schemaStrict(prop, version) {
  const inRange = (f) => (!f.since || compareVersions(version, f.since) >= 0) && (!f.until || compareVersions(version, f.until) < 0);
  if (prop['x-unknown-key-effect'] !== 'error') return false;
  if (prop['x-strict-since'] && compareVersions(version, prop['x-strict-since']) < 0) return false;
  return !(prop['x-value-forms'] ?? []).some((f) => f.form === 'unused' && inRange(f));
}

/**
 * `x-auto-dropped-since`: the first strict release whose model drops "auto" values, when that is
 * later than the first strict release (before it the strict model validates "auto" as the value).
 */
function autoDropChanges(section, cls, states, prop, keys, report) {
  const firstStrict = states.findIndex((st) => st.kind === 'strict');
  const firstDrop = states.findIndex((st) => st.drops);
  const want = firstStrict < 0 || firstDrop < 0 || firstDrop === firstStrict ? undefined : states[firstDrop].version;
  if (want === prop['x-auto-dropped-since']) return [];
  report.push(`${section}: x-auto-dropped-since ${prop['x-auto-dropped-since'] ?? '(none)'} → ${want ?? '(none)'}`);
  return [{ key: section, field: 'x-auto-dropped-since', from: prop['x-auto-dropped-since'], to: want, why: `first release whose ${cls} is a DeepSpeedConfigModel (which drops "auto")`, set: () => keys.get(section).forEach((p) => setKey(p, 'x-auto-dropped-since', want, ['x-strict-since', 'x-unknown-key-effect'])) }];
}

/**
 * `x-values-checked-when-enabled` on a section of SECTION_MODELS (hand-kept: which values are used
 * only while the section is on is read from the code that uses them, not derived here): a release
 * whose model validates the section whenever it is written refuses a wrong value with the section
 * off too, so a gate must not hold there (`since`/`until` bound it). Printed, never written.
 */
function gateClashes(section, cls, states, prop, releases) {
  const out = [];
  for (const gate of [].concat(prop['x-values-checked-when-enabled'] ?? [])) {
    const holds = (v) => (!gate.since || compareVersions(v, gate.since) >= 0) && (!gate.until || compareVersions(v, gate.until) < 0);
    const clash = states.filter((st) => st.kind === 'strict' && holds(st.version)).map((st) => st.version);
    if (clash.length) out.push(`${section}: x-values-checked-when-enabled holds where ${cls} validates the section whenever it is written (${ranges(clash, releases.map((r) => r.version))}): bound it with until`);
  }
  return out;
}

/** Per section of SECTION_MODELS: per release, `strict` (unknown keys refused) or `lenient`. */
function deepspeedStrictness(releases, schema, snapshot) {
  const keys = schemaKeys(schema);
  const report = [];
  const changes = [];
  const unlisted = [];
  for (const [section, model] of Object.entries(SECTION_MODELS)) {
    const { cls } = model;
    const match = filesMatch(model);
    const states = releases.map((r, i) => {
      const blobs = [...r.files].map(([path, id]) => ({ path, b: blobCache.get(id) }));
      const byName = new Map();
      for (const { path, b } of blobs) for (const [n, c] of b.classes) if (!byName.has(n) || match(path)) byName.set(n, { ...c, path });
      const home = blobs.find(({ path, b }) => match(path) && b.classes.has(cls));
      const used = home && blobs.some(({ b }) => b.refs.has(cls));
      const forbids = (name, seen = new Set()) => {
        const c = byName.get(name);
        if (!c || seen.has(name)) return false;
        seen.add(name);
        if (c.extra !== undefined) return c.extra === 'forbid';
        return c.bases.some((x) => forbids(x, seen));
      };
      // DeepSpeedConfigModel's constructor drops every "auto" value; a model built on pydantic's
      // BaseModel alone validates "auto" as the value.
      const derives = (name, base, seen = new Set()) => name === base || (!seen.has(name) && byName.has(name) && (seen.add(name), byName.get(name).bases.some((x) => derives(x, base, seen))));
      const kind = home && used && forbids(cls) ? 'strict' : 'lenient';
      // The keys the model takes there (its fields and its bases'), for a strict release.
      const fieldsOf = (name, seen = new Set()) => {
        const c = byName.get(name);
        if (!c || seen.has(name)) return [];
        seen.add(name);
        return [...(c.fields ?? []), ...c.bases.flatMap((x) => fieldsOf(x, seen))];
      };
      const fields = kind === 'strict' ? new Set(fieldsOf(cls)) : undefined;
      return { version: r.version, nextVersion: releases[i + 1]?.version, kind, drops: kind === 'strict' && derives(cls, 'DeepSpeedConfigModel'), fields };
    });
    snapshot[section] = snapshotRanges(states.map(({ drops, fields, ...st }) => st)).map(({ kind, ...r }) => ({ ...r, strict: kind === 'strict' }));
    const prop = keys.get(section)?.[0];
    if (!prop) continue;
    // A key a strict release's model takes that the schema does not list: unknown-key would call a
    // file that release loads refused.
    const listed = new Set(Object.keys(prop.properties ?? {}));
    for (const a of Object.values(prop.properties ?? {})) for (const x of a?.['x-aliases'] ?? []) listed.add(x);
    const lacking = new Map();
    for (const st of states) for (const f of st.fields ?? []) if (!listed.has(f)) (lacking.get(f) ?? lacking.set(f, []).get(f)).push(st.version);
    for (const [f, vs] of lacking) unlisted.push(`${section}.${f}: taken by ${cls} at ${ranges(vs, releases.map((r) => r.version))}`);
    changes.push(...autoDropChanges(section, cls, states, prop, keys, report));
    report.push(...gateClashes(section, cls, states, prop, releases));
    // A section some release validates with its model: pydantic's lax mode converts its values there.
    const pydantic = states.some((st) => st.kind === 'strict') ? true : undefined;
    if (pydantic !== prop['x-pydantic']) {
      report.push(`${section}: x-pydantic ${prop['x-pydantic'] ?? '(none)'} → ${pydantic ?? '(none)'}`);
      changes.push({ key: section, field: 'x-pydantic', from: prop['x-pydantic'], to: pydantic, why: `${cls} is a pydantic model that validates the section (from x-strict-since)`, set: () => keys.get(section).forEach((p) => setKey(p, 'x-pydantic', pydantic, ['x-strict-since', 'x-unknown-key-effect'])) });
    }
    // The section exists from its own x-since or its parent's.
    const parts = section.split('.');
    const since = parts.map((_, i) => keys.get(parts.slice(0, i + 1).join('.'))?.[0]?.['x-since']).filter(Boolean).sort(compareVersions).at(-1);
    const within = states.filter((st) => !since || compareVersions(st.version, since) >= 0);
    const claimed = within.map((st) => schemaStrict(prop, st.version));
    const wrong = within.filter((st, i) => (st.kind === 'strict') !== claimed[i]).map((st) => st.version);
    if (!wrong.length) continue;
    const runs = snapshotRanges(within).map((r) => `${r.kind} ${r.from}–${r.to}`).join(', ');
    const firstStrict = within.findIndex((st) => st.kind === 'strict');
    const simple = firstStrict >= 0 && within.slice(firstStrict).every((st) => st.kind === 'strict') && prop['x-unknown-key-effect'] === 'error' && !(prop['x-value-forms'] ?? []).some((f) => f.form === 'unused');
    if (!simple) {
      report.push(`${section}: the schema's claim differs in ${ranges(wrong, releases.map((r) => r.version))} (read: ${runs})`);
      continue;
    }
    const want = firstStrict === 0 ? undefined : within[firstStrict].version;
    report.push(`${section}: x-strict-since ${prop['x-strict-since'] ?? '(none)'} → ${want ?? '(none)'} (${runs})`);
    changes.push({ key: section, field: 'x-strict-since', from: prop['x-strict-since'], to: want, why: `first release whose ${cls} forbids unknown keys`, set: () => keys.get(section).forEach((p) => setKey(p, 'x-strict-since', want, ['x-unknown-key-effect'])) });
  }
  console.log(`\nKeys a strict release's model takes that the schema does not list (unknown-key would call them refused) (${unlisted.length}):`);
  for (const u of unlisted) console.log(`  ${u}`);
  console.log(`\nStrictness of the sections read by a pydantic model (${Object.keys(SECTION_MODELS).length}):`);
  for (const [section, runs] of Object.entries(snapshot)) console.log(`  ${section}: ${runs.map((r) => `${r.strict ? 'strict' : 'lenient'} ${r.from}–${r.to}`).join(', ')}`);
  printLists([['disagreements with the schema', report]], true);
  return changes;
}

// Corrections checked by hand against upstream (see the comments); every other disagreement is
// only reported. `x-since: undefined` removes it.
const DEEPSPEED_RESOLVED = {
  // v0.3.0 runtime/constants.py has TENSORBOARD = "tensorboard" and engine.py reads it; v0.6.6 only
  // moved it into the pydantic monitor config (deepspeed/monitor/config.py).
  tensorboard: { 'x-since': undefined, why: 'read since v0.3.0 (runtime/constants.py TENSORBOARD); v0.6.6 made it a pydantic section' },
  // The bare pydantic field name is accepted (allow_population_by_field_name) once ZeRO's config
  // became a pydantic model in v0.7.0; v0.6.0 only had the stage3_ spelling.
  'zero_optimization.gather_16bit_weights_on_model_save': { 'x-since': '0.7.0', why: 'pydantic field name, accepted from v0.7.0 (v0.6.0 had only stage3_gather_16bit_weights_on_model_save)' },
  // v0.11.2–v0.16.4: SEQ_PARALLEL_COMMUNICATION_DATA_TYPE = "seq_parallel_comm_data_type" (the
  // documented spelling was not read); v0.16.5 changed the constant to the documented key.
  seq_parallel_communication_data_type: { 'x-since': '0.16.5', why: 'runtime/constants.py reads "seq_parallel_comm_data_type" until v0.16.4' },
  // CompileConfig gains free_activation_threshold in v0.18.0 (absent from deepspeed/compile/config.py at v0.16.6–v0.17.6).
  'compile.free_activation_threshold': { 'x-since': '0.18.0', why: 'CompileConfig field from v0.18.0' },
  // v0.3.15 replaces the booleans by offload_optimizer/offload_param: zero/config.py converts
  // cpu_offload and no longer reads cpu_offload_use_pin_memory (constants say "(deprecated)").
  'zero_optimization.cpu_offload': { deprecatedSince: '0.3.15', why: 'offload_optimizer replaces it in v0.3.15 (zero/config.py)' },
  'zero_optimization.cpu_offload_use_pin_memory': { 'x-since': '0.3.12', deprecatedSince: '0.3.15', why: 'read in v0.3.12–v0.3.14; no longer read from v0.3.15' },
  // The singular spelling is the pydantic field of v0.7.0 (born deprecated); v0.3.12–v0.6.x read
  // the plural "cpu_offload_params" (deprecated in v0.3.15), which the schema does not list.
  'zero_optimization.cpu_offload_param': { 'x-since': '0.7.0', deprecatedSince: '0.7.0', why: 'spelling read from v0.7.0 (DeepSpeedZeroConfig field); earlier releases read cpu_offload_params' },
  // v0.5.5 adds the "bfloat16" section; v0.6.0 renames it bf16 and keeps reading bfloat16 as BFLOAT16_OLD.
  bfloat16: { 'x-since': '0.5.5', deprecatedSince: '0.6.0', why: 'bfloat16 from v0.5.5; bf16 replaces it in v0.6.0 (BFLOAT16_OLD)' },
  // "eigenvalue" is a key of `quantize_training`: runtime/config.py@v0.4.0:507-526 (and @v0.6.7:621-644)
  // hands its eigenvalue helpers `param_dict[QUANTIZE_TRAINING]`, never the top level; the literal
  // only looks top-level (constants.py EIGENVALUE_FORMAT). No release reads a top-level section.
  eigenvalue: { 'x-since': undefined, deprecatedSince: undefined, why: 'read only inside quantize_training (runtime/config.py get_eigenvalue_config), at every release' },
  // torch_autocast is parsed in runtime/torch_autocast.py / runtime/config.py whose "enabled"
  // literal belongs to other sections too: the schema's 0.17.2 stands.
  'torch_autocast.enabled': { 'x-since': '0.17.2', why: 'generic literal; the section arrived in v0.17.2' },
};
const DS_SINCE_BEFORE = ['x-default-note', 'x-invalid-effect', 'x-auto', 'x-normalize', 'x-requires-stage', 'x-alias-of', 'deprecated', 'x-deprecated', 'properties', 'if', 'allOf'];

/** The changes DeepSpeed's releases make to the schema at `schemaPath`, and the strictness snapshot. */
export function deepspeed(dir, schemaPath) {
  const schema = readSchema(schemaPath);
  const releases = deepspeedReleases(dir);
  console.log(`DeepSpeed: ${releases.length} releases compared (${releases[0].version} … ${releases.at(-1).version}${releases.at(-1).rev.startsWith('refs/') ? ' = master' : ''})`);
  const changes = [];
  const report = { disagree: [], resolved: [], added: [], sameAsSection: 0, deprecated: [], unjudged: [], never: [] };
  // The x-since each key ends up with, for its children (a key read from the release its section
  // arrived in needs no x-since of its own).
  const effective = new Map();
  const sectionSince = (dotted) => {
    const parts = dotted.split('.');
    for (let i = parts.length - 1; i > 0; i--) {
      const v = effective.get(parts.slice(0, i).join('.'));
      if (v) return v;
    }
    return undefined;
  };
  const later = (a, b) => (!a ? b : !b ? a : compareVersions(a, b) >= 0 ? a : b);
  for (const [dotted, props] of schemaKeys(schema)) {
    if (SKIP_DS.some((re) => re.test(dotted))) continue;
    const since = props.map((p) => p['x-since']).find(Boolean);
    const dep = props.map((p) => p['x-deprecated']).find(Boolean);
    const parent = sectionSince(dotted);
    const resolved = DEEPSPEED_RESOLVED[dotted];
    const setSinceDs = (to, why) => changes.push({ key: dotted, field: 'x-since', from: since, to, why, set: () => props.forEach((p) => setKeyBefore(p, 'x-since', to, DS_SINCE_BEFORE)) });
    const f = deepspeedFacts(dotted, releases);
    let final = since;
    if (resolved && 'x-since' in resolved) {
      final = resolved['x-since'];
      if (final !== since) setSinceDs(final, resolved.why);
      report.resolved.push(`${dotted}: ${since ?? '(none)'} → ${final ?? '(none)'}${f?.first ? ` (first read ${f.first} in ${f.file})` : ''}: ${resolved.why}`);
    } else if (!f) {
      if (since || dep?.since) report.unjudged.push(`${dotted} (x-since ${since ?? '-'}, deprecated ${dep?.since ?? '-'})`);
    } else if (!f.first) report.never.push(`${dotted} (x-since ${since ?? '-'})`);
    else {
      // A key cannot be read before its section is.
      const computed = later(f.firstIndex === 0 ? undefined : f.first, parent);
      if (since !== computed && !(since === undefined && computed === parent)) {
        if (since) report.disagree.push(`${dotted}: schema ${since}, first read ${computed ?? `${f.first} (oldest compared)`} in ${f.file}`);
        else {
          final = computed;
          setSinceDs(computed, `first read in ${f.file}`);
          report.added.push(`${dotted}: ${computed} (${f.file})`);
        }
      } else if (since === undefined && computed && computed === parent) report.sameAsSection++;
    }
    effective.set(dotted, later(final, parent));
    if (dep) {
      const rep = dep.replacement && !dep.replacement.includes('.') ? deepspeedFacts([...dotted.split('.').slice(0, -1), dep.replacement.replace(/^\//, '')].join('.'), releases) : undefined;
      report.deprecated.push(`${dotted}: deprecated since ${dep.since ?? '(none)'} (${dep.effect}); key read ${f?.first ?? '?'}…${f?.lastHad ?? '?'}${f?.gone ? `, gone in ${f.gone}` : ''}${rep?.first ? `; replacement ${dep.replacement} first read ${rep.first}` : ''}`);
      // A deprecation in phases (`earlier`) starts at its first phase; `since` is the newest one's.
      const first = dep.earlier?.[0]?.since ?? dep.since;
      if (resolved && 'deprecatedSince' in resolved && resolved.deprecatedSince !== first)
        changes.push({ key: dotted, field: 'x-deprecated.since', from: dep.since, to: resolved.deprecatedSince, why: resolved.why, set: () => props.forEach((p) => p['x-deprecated'] && setKeyBefore(p['x-deprecated'], 'since', resolved.deprecatedSince, ['effect'])) });
    }
  }
  changes.push(...deepspeedOptimizerChanges(dir, releases, schema));
  changes.push(...deepspeedLostKeys(dir, releases, schema, SECTION_FILES));
  deepspeedUnread(dir, releases, schemaKeys(schema), Object.keys(SECTION_MODELS), (dotted) => effective.get(dotted));
  changes.push(...deepspeedCheckChanges(dir, releases, schemaKeys(schema), SECTION_FILES));
  changes.push(...deepspeedRefusedPairs(dir, releases, SECTION_MODELS, schemaKeys(schema)));
  changes.push(...deepspeedEnumChanges(dir, releases, schemaKeys(schema), (dotted) => effective.get(dotted)));
  changes.push(...deepspeedDtypeChanges(dir, releases, schemaKeys(schema), (dotted) => effective.get(dotted)));
  const defaults = {};
  changes.push(...deepspeedDefaults(releases, schema, defaults));
  changes.push(...deepspeedNullChanges(releases, schema));
  const strictness = {};
  changes.push(...deepspeedStrictness(releases, schema, strictness));
  printLists([
    ['corrected by hand (DEEPSPEED_RESOLVED)', report.resolved],
    ['x-since disagreements left as they are', report.disagree],
    ['x-since added (first read after v0.3.0 and after its section)', report.added],
    ['deprecated keys', report.deprecated],
    ['keys with version facts not judged (name too common for the files searched)', report.unjudged],
    ['keys no release reads by that literal (passed through, or read under another name)', report.never],
  ]);
  console.log(`\nkeys first read in the release their section arrived in (no x-since needed): ${report.sameAsSection}`);
  // A snapshot per table read, written only when it holds something.
  const snapshot = (name, what, field, table) => (Object.keys(table).length ? [{ name, what, releases: releases.map((r) => r.version), field, table }] : []);
  const snapshots = () => [
    ...snapshot('deepspeed-strictness.json', 'Which DeepSpeed releases refuse an unknown key in each section read by a pydantic model, read by scripts/schema-history.mjs from every vX.Y.Z tag (and master when it announces a newer version): strict when the model that reads the section (SECTION_MODELS) is defined and used at that release and it or a base class sets extra = "forbid"; otherwise the section is read key by key, or not at all, and unknown keys are ignored. Runs of releases with the same answer, from v0.3.0 (before a section exists its runs say nothing).', 'strict', strictness),
    ...snapshot('deepspeed-defaults.json', 'The default of each key of the sections DeepSpeed reads with a pydantic model (SECTION_MODELS), by release, read by scripts/schema-history.mjs from every vX.Y.Z tag (and master when it announces a newer version): the literal a field of the model (or a base class) is given, `name: T = value` or `Field(value, alias=...)`, under its alias; at a release without the model, the `<SECTION>_<KEY>_DEFAULT` constant its key-by-key reader uses (deepspeed-key-defaults.mjs; a default of None is null: DeepSpeed 0.5.7 to 0.6.7 default an offload device to None, which their check of the device refuses). Runs of releases with the same default; a release where neither exists or the default is computed says nothing.', 'default', defaults),
  ];
  return { schema, changes, path: schemaPath, tool: 'DeepSpeed', snapshots };
}

/** DeepSpeed builds its models on pydantic 2 from this release (runtime/config_utils.py@v0.15.0). */
const PYDANTIC_2 = '0.15.0';

/** The files a SECTION_MODELS entry's class is looked up in first: its `files` (a test or a pattern), else every file. */
function filesMatch({ files = () => true }) {
  return typeof files === 'function' ? files : (p) => files.test(p);
}

/** The schema keys directly under a section: [key, dotted, props]. */
function sectionKeys(keys, section) {
  return [...keys].filter(([dotted]) => dotted.startsWith(`${section}.`) && !dotted.slice(section.length + 1).includes('.')).map(([dotted, props]) => [dotted.slice(section.length + 1), dotted, props]);
}

/**
 * Per release, the fields of a section's model class and of its bases (its own over inherited ones),
 * each as `pick` reads it from a class; with `whole`, undefined for a release that lacks the model.
 */
function modelFields(releases, model, pick, whole = false) {
  const { cls } = model;
  const match = filesMatch(model);
  return releases.map((r) => {
    const byName = new Map();
    for (const [path, id] of r.files) for (const [n, c] of blobCache.get(id).classes) if (!byName.has(n) || match(path)) byName.set(n, c);
    if (whole && !byName.has(cls)) return undefined;
    const out = new Map();
    const collect = (name, seen = new Set()) => {
      const c = byName.get(name);
      if (!c || seen.has(name)) return;
      seen.add(name);
      for (const b of c.bases) collect(b, seen);
      for (const [k, v] of pick(c, byName)) out.set(k, v);
    };
    collect(cls);
    return out;
  });
}

/**
 * `x-null-effect` of the keys of the sections a pydantic model reads (SECTION_MODELS): from the
 * release on which, through the newest, the model declares the field without None, an explicit null
 * is refused when DeepSpeed reads the config (a validation error). A field whose only None is its
 * default (`x: int = None`) takes None under pydantic 1 and refuses it under pydantic 2 (0.15.0 on).
 * A field the newest release makes optional gets nothing (older refusals are only printed); an
 * `x-null-effect` written by hand with the same `since` is kept as it is, and releases before the
 * model read the section key by key, which the text of a hand-written one says.
 */
function deepspeedNullChanges(releases, schema) {
  const keys = schemaKeys(schema);
  const changes = [];
  const report = [];
  for (const [section, model] of Object.entries(SECTION_MODELS)) {
    const { cls } = model;
    // Per release: key -> how the model (or a base class) declares it, undefined without the model.
    const perRelease = modelFields(releases, model, (c) => c.nullable ?? [], true);
    for (const [key, dotted, props] of sectionKeys(keys, section)) {
      const refused = releases.map((r, i) => {
        const n = perRelease[i]?.get(key);
        if (n === undefined) return undefined;
        return n === false || (n === 'default' && compareVersions(r.version, PYDANTIC_2) >= 0);
      });
      if (refused.at(-1) !== true) {
        if (refused.some((x) => x === true)) report.push(`${dotted}: refused by some releases, taken by the newest (no x-null-effect)`);
        continue;
      }
      let first = refused.length - 1;
      while (first > 0 && refused[first - 1] === true) first--;
      const since = releases[first].version;
      const prop = props[0];
      const have = prop['x-null-effect'];
      if (have && have.since === since) continue;
      const want = { since, effect: `the section's pydantic model (${cls}) declares the field without None, so DeepSpeed refuses null with a validation error when it reads the config` };
      const to = have ? { ...have, since } : want;
      changes.push({ key: dotted, field: 'x-null-effect', from: have, to, why: `the first release from which ${cls} declares the field without None through the newest`, set: () => props.forEach((p) => setKey(p, 'x-null-effect', to, ['x-value-checked-since', 'description'])) });
    }
  }
  printLists([['keys some releases refuse null for but the newest takes (left as they are)', report]]);
  return changes;
}

/**
 * A field default that names a member of an Enum of the release's config files
 * (`device: OffloadDeviceEnum = OffloadDeviceEnum.none`, zero/offload_config.py@v0.7.0:19) is that
 * member's literal value; any other default is returned as it is.
 */
function memberDefault(d, byName) {
  const m = d?.dynamic !== undefined && /^([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)$/.exec(d.dynamic);
  const members = m ? byName.get(m[1])?.members : undefined;
  return members?.has(m[2]) ? { value: members.get(m[2]) } : d;
}

/**
 * Defaults by release of the keys of the sections a pydantic model reads (in the releases before the
 * model, the `<KEY>_DEFAULT` constant its key-by-key reader passes): where the literal default
 * of the field changed within the releases compared, `x-default-before` gives the older ones (each
 * the default of the releases before its key), when the newest agrees with the schema's `default`;
 * any other disagreement is only printed.
 */
function deepspeedDefaults(releases, schema, snapshot) {
  const keys = schemaKeys(schema);
  const changes = [];
  const report = [];
  const keyByKey = releases.map((r) => keyByKeyDefaults([...r.files.values()].map((id) => blobCache.get(id)), keys));
  for (const [section, model] of Object.entries(SECTION_MODELS)) {
    const { cls } = model;
    const twins = Object.keys(SECTION_MODELS).filter((s) => s !== section && SECTION_MODELS[s].cls === cls);
    // Per release: key -> default literal (own fields over inherited ones).
    const perRelease = modelFields(releases, model, (c, byName) => [...c.defaults].map(([k, d]) => [k, memberDefault(d, byName)]));
    for (const [key, dotted, props] of sectionKeys(keys, section)) {
      // A release without the model reads the section key by key, with the constants' defaults.
      const states = releases.map((r, i) => {
        // A legacy spelling of a section (`bfloat16`) has the constants of the section it stands for.
        const d = perRelease[i].size ? perRelease[i].get(key) : keyByKey[i].get(dotted) ?? twins.map((t) => keyByKey[i].get(`${t}.${key}`)).find(Boolean);
        // A default of None stays None, even where the key's values include the text "none": the
        // offload `device` of 0.5.7 to 0.6.7 defaults to None, which the reader's own check of the
        // device refuses (zero/offload_config.py@v0.5.7:44,62), not to the later "none".
        return { version: r.version, nextVersion: releases[i + 1]?.version, kind: d && d.dynamic === undefined ? JSON.stringify(d.value) : undefined };
      });
      const known = states.filter((st) => st.kind !== undefined);
      if (!known.length) continue;
      snapshot[dotted] = snapshotRanges(known.map((st, i) => ({ ...st, nextVersion: known[i + 1]?.version }))).map(({ kind, ...r }) => ({ ...r, default: JSON.parse(kind) }));
      const prop = props[0];
      if (!('default' in prop)) continue;
      const newest = known.at(-1);
      if (newest.kind !== JSON.stringify(schemaDefault(prop.default))) {
        report.push(`${dotted}: schema default ${JSON.stringify(schemaDefault(prop.default))}, ${cls} at ${newest.version}: ${newest.kind}`);
        continue;
      }
      // Runs of the older defaults, each ending where the next begins.
      const runs = snapshotRanges(known.map((st, i) => ({ ...st, nextVersion: known[i + 1]?.version })));
      const before = {};
      for (let i = 0; i + 1 < runs.length; i++) before[runs[i + 1].from] = JSON.parse(runs[i].kind);
      const want = Object.keys(before).length ? before : undefined;
      const have = defaultBefore(prop);
      if (JSON.stringify(have) === JSON.stringify(want)) continue;
      changes.push({ key: dotted, field: 'x-default-before', from: have, to: want, why: `the default ${cls} gives the field at each release`, set: () => props.forEach((p) => (want ? setKey(p, 'x-default-before', want, ['default']) : delete p['x-default-before'])) });
    }
  }
  printLists([['defaults the newest release disagrees with (left as they are)', report]], true);
  return changes;
}

/**
 * `optimizer.type`: DeepSpeed builds its own optimizers by the lower-cased names of
 * DEEPSPEED_OPTIMIZERS (runtime/config.py, each a constant of that file); any other name must be a
 * torch.optim class (`getattr(torch.optim, name)`), else the engine asserts it is not supported. A
 * name of DeepSpeed's own is accepted from the release that lists it, in any letter case: the table
 * is keyed in lower case (`x-enum-since-case: lower`), and the exact spellings of torch.optim classes
 * (`x-enum-since-exact`: `AdamW`, `Adagrad`, `Muon`) are left out of it, since an older release builds
 * that class instead (`Muon` only where PyTorch has it, 2.9 on: which PyTorch runs is not known here).
 */
const TORCH_OPTIMIZERS = new Set(['Adam', 'AdamW', 'Adagrad', 'SGD', 'RMSprop', 'Adadelta', 'Adamax', 'ASGD', 'NAdam', 'RAdam', 'Rprop', 'SparseAdam', 'LBFGS', 'Adafactor', 'Muon']);
function deepspeedOptimizerChanges(dir, releases, schema) {
  const prop = schema.properties?.optimizer?.properties?.type;
  const spellings = (prop?.anyOf ?? []).flatMap((a) => a.enum ?? []);
  if (!prop || !spellings.length) return [];
  const first = new Map();
  for (const [i, r] of releases.entries()) {
    const src = show(dir, r.rev, 'deepspeed/runtime/config.py');
    const list = src && /^DEEPSPEED_OPTIMIZERS\s*=\s*\[([^\]]*)\]/m.exec(src);
    if (!list) continue;
    const constants = new Map([...src.matchAll(/^([A-Z0-9_]+)\s*=\s*['"]([a-z0-9_]+)['"]/gm)].map((m) => [m[1], m[2]]));
    for (const name of list[1].split(',').map((x) => x.trim()).filter(Boolean)) {
      const value = constants.get(name);
      if (value && !first.has(value)) first.set(value, i === 0 ? undefined : r.version);
    }
  }
  const want = {};
  for (const [value, version] of [...first].sort((a, b) => (a[0] < b[0] ? -1 : 1))) if (version) want[value] = version;
  const to = Object.keys(want).length ? want : undefined;
  const exact = to ? [...TORCH_OPTIMIZERS].filter((n) => Object.prototype.hasOwnProperty.call(want, n.toLowerCase())).sort() : undefined;
  const fields = [
    ['x-enum-since', to, 'first release whose DEEPSPEED_OPTIMIZERS lists the name (lower case)', ['x-invalid-effect']],
    ['x-enum-since-case', to ? 'lower' : undefined, 'DeepSpeed lower-cases a name of its own before looking it up', ['x-enum-since']],
    ['x-enum-since-exact', exact?.length ? exact : undefined, 'spellings older releases build from torch.optim instead', ['x-enum-since-case']],
  ];
  return fields
    .filter(([field, value]) => JSON.stringify(prop[field]) !== JSON.stringify(value))
    .map(([field, value, why, after]) => ({ key: 'optimizer.type', field, from: prop[field], to: value, why, set: () => setKey(prop, field, value, after) }));
}

