// DeepSpeed's own value checks: for the keys of the sections DeepSpeed reads key by key (no pydantic
// model), whether the code that reads the key checks its value at the newest release compared — an
// `assert` or a `raise` that names the key (its literal, an attribute of that name, or the key's name
// in the message), or a call that passes the key to a local function that asserts or raises — and
// the `x-invalid-effect` sentence that follows: where a check is found, that DeepSpeed checks the key
// in that file and stops on a value the check refuses; otherwise a sentence that claims no check
// either way. A key whose name has no underscore is never taken as checked (the name is too common to
// tell its check from another section's). A `raise` message split over several literals is read as
// one text. A presence check (`"key" in config`) is not a value check. Only the sentences this
// module writes (and the older stock sentence) are replaced; a sentence written by hand stays.
import { show } from './git.mjs';
import { closing, statements, tokenize } from './python.mjs';
import { printLists, setKey } from './write.mjs';

/** The sentence for a key whose reader has no check of its own (or none found). */
export const UNCHECKED = 'DeepSpeed stops, or silently misbehaves, where it first uses a wrong value (for example an unresolved `"auto"`).';
/**
 * The sentence for a key whose reader checks it, in `file`. Whether an unresolved `"auto"` passes
 * depends on the check (a text pattern takes it, a type or a number test does not), so the sentence
 * names no example.
 */
export const checkedIn = (file) => `DeepSpeed checks this key where it reads it (\`${file}\`) and stops with an error that names it when the value fails that check; a wrong value the check lets through fails, or silently misbehaves, where it is first used.`;
/**
 * The sentence for a key whose reader checks it against the values it knows, in `file` (an `assert
 * value in [...]`, an `if`/`elif` chain whose `else` raises): any other value stops it, an unresolved
 * `"auto"` among them.
 */
export const checkedAmongIn = (file) => `DeepSpeed checks this key against the values it knows where it reads it (\`${file}\`) and stops with an error on any other value, an unresolved \`"auto"\` included.`;
/**
 * The sentence for a key whose only check is a conversion into an enum (`DtypeEnum(value)`), in
 * `file`: the ValueError it raises quotes the value and the enum, not the key. No enum DeepSpeed
 * converts a config value into has the name `auto`, so an unresolved `"auto"` stops it too.
 */
export const convertedIn = (file, name) => `DeepSpeed converts this key with \`${name}\` where it reads it (\`${file}\`) and stops with a ValueError that quotes the value, not the key (\`'…' is not a valid ${name}\`), when the value is not one of its names, an unresolved \`"auto"\` included; a wrong value the conversion lets through fails, or silently misbehaves, where it is first used.`;
/**
 * The sentence for a key of a section the engine only stores, whose values are checked by classes
 * the model's own code builds from it (`file`): nothing checks them unless that code runs.
 */
export const checkedWhenBuilt = (file) => `DeepSpeed's engine reads this key without checking it; the classes of \`${file}\`, which a model's code builds from this section, check it and stop with an error that names it when the value fails that check. A wrong value nothing checks fails, or silently misbehaves, where it is first used.`;
const GENERATED = [/^DeepSpeed reads this key with a plain dictionary lookup and does not check its type/, /^DeepSpeed stops, or silently misbehaves, where it first uses a wrong value/, /^DeepSpeed checks this key where it reads it \(`[^`]+`\) and stops/, /^DeepSpeed checks this key against the values it knows where it reads it \(`[^`]+`\)/, /^DeepSpeed converts this key with `[^`]+` where it reads it/, /^DeepSpeed's engine reads this key without checking it; the classes of `[^`]+`, which a model's code builds/];

/** Files that read a section's values beyond its config parser (checked at the newest release). */
const CHECK_FILES = {
  '': /^deepspeed\/runtime\/(config|constants|engine)\.py$/,
  curriculum_learning: /^deepspeed\/runtime\/data_pipeline\/curriculum_scheduler\.py$/,
  progressive_layer_drop: /^deepspeed\/runtime\/progressive_layer_drop\.py$/,
  scheduler: /^deepspeed\/runtime\/lr_schedules\.py$/,
  sparse_attention: /^deepspeed\/ops\/sparse_attention\/sparsity_config\.py$/,
};

/**
 * Sections the engine reads and keeps (runtime/config.py get_sparse_attention) but never hands to a
 * class of its own: the model's code builds the checking classes (ops/sparse_attention, e.g.
 * SparseAttentionUtils, BertSparseSelfAttention) from the values, so the check runs only there.
 */
const BUILT_BY_MODEL = new Set(['sparse_attention']);

/**
 * Checks the scan cannot see, checked by hand at the newest release: the key is named through a
 * constant and checked by an enum or a shared validator of another module (`{ file, enum }`: its only
 * check is the conversion into that enum; `{ file, among: true }`: a check against the values it
 * knows, which refuses any other, `"auto"` included).
 */
const CHECKED_BY_HAND = {
  // get_torch_autocast_dtype returns DtypeEnum(value).value for every config (runtime/config.py@v0.19.5:175-183): an unknown
  // name raises DtypeEnum's ValueError, which the `except KeyError` there does not catch.
  'torch_autocast.dtype': { file: 'deepspeed/runtime/config.py', enum: 'DtypeEnum' },
  // get_checkpoint_writer_config upper-cases both and asserts each is in VALID_VALUES (_validate_config_values, model_checkpointing/config.py@v0.19.5:22-28,56).
  'checkpoint.writer.type': { file: 'deepspeed/runtime/model_checkpointing/config.py', among: true },
  'checkpoint.writer.data_parallel': { file: 'deepspeed/runtime/model_checkpointing/config.py', among: true },
  // The compression sub-sections assert these against constant lists whenever `shared_parameters` is written (compression/config.py@v0.19.5:177-184, :365-367).
  'compression_training.activation_quantization.shared_parameters.quantization_type': { file: 'deepspeed/compression/config.py', among: true },
  'compression_training.activation_quantization.shared_parameters.range_calibration': { file: 'deepspeed/compression/config.py', among: true },
  'compression_training.head_pruning.shared_parameters.method': { file: 'deepspeed/compression/config.py', among: true },
  // CurriculumScheduler raises RuntimeError for a schedule it does not know (runtime/data_pipeline/curriculum_scheduler.py@v0.19.5:104-105).
  'curriculum_learning.schedule_type': { file: 'deepspeed/runtime/data_pipeline/curriculum_scheduler.py', among: true },
  // The engine converts these with DtypeEnum, which raises ValueError on a name it lacks (runtime/engine.py@v0.19.5:1471, :1492;
  // grad_accum_dtype in get_data_types, :1454, when it sets up an optimizer). DtypeEnum has no `_missing_`, so the message names no key.
  'data_types.param_dtype': { file: 'deepspeed/runtime/engine.py', enum: 'DtypeEnum' },
  'data_types.buffer_dtype': { file: 'deepspeed/runtime/engine.py', enum: 'DtypeEnum' },
  'data_types.grad_accum_dtype': { file: 'deepspeed/runtime/engine.py', enum: 'DtypeEnum' },
  // SparsityConfig raises NotImplementedError for any other word (ops/sparse_attention/sparsity_config.py@v0.19.5:135-136).
  'sparse_attention.attention': 'deepspeed/ops/sparse_attention/sparsity_config.py',
  // `null`: read with no check, though the scan finds a check of a key of the same name elsewhere in the
  // file (sparse pruning's `schedule_offset` assert, compression/config.py@v0.19.5:260; these two are
  // only read, :185-187 and the head-pruning reader).
  'compression_training.activation_quantization.shared_parameters.schedule_offset': null,
  'compression_training.head_pruning.shared_parameters.schedule_offset': null,
};

/** The names of the functions (nested ones too) whose body asserts or raises. */
function checkers(stmts) {
  const out = new Set();
  for (let i = 0; i < stmts.length; i++) {
    const t = stmts[i].toks;
    const k = t[0]?.v === 'async' ? 1 : 0;
    if (t[k]?.v !== 'def' || t[k + 1]?.t !== 'name') continue;
    for (let j = i + 1; j < stmts.length && stmts[j].indent > stmts[i].indent; j++) if (['assert', 'raise'].includes(stmts[j].toks[0]?.v)) out.add(t[k + 1].v);
  }
  return out;
}

/** The classes of a module that are enums (`class X(Enum)`, `(str, Enum)`, `IntEnum`): calling one with a value it lacks raises. */
function enumClasses(stmts) {
  const out = new Set();
  for (const st of stmts) {
    const t = st.toks;
    if (t[0]?.v !== 'class' || t[1]?.t !== 'name' || t[2]?.v !== '(') continue;
    if (t.slice(3, closing(t, 2)).some((x) => x.t === 'name' && /^(Enum|IntEnum|StrEnum)$/.test(x.v))) out.add(t[1].v);
  }
  return out;
}

/**
 * The enum a function converts `key`'s value into (`PartitionType(spec.get("partition_type"))`,
 * directly or through a local name assigned from the key in the same function), if one does: the
 * conversion raises ValueError on a value the enum lacks, a check as much as an `assert`.
 */
function convertsKey(stmts, key, enums) {
  if (!enums.size) return undefined;
  let from = new Set();
  let fnIndent = -1;
  for (const st of stmts) {
    const t = st.toks;
    if (t[0]?.v === 'def' || (t[0]?.v === 'async' && t[1]?.v === 'def')) {
      from = new Set();
      fnIndent = st.indent;
      continue;
    }
    if (fnIndent >= 0 && st.indent <= fnIndent) from = new Set();
    const names = (x, j) => (x.t === 'str' && !x.f && x.v === key) || (x.t === 'name' && x.v === key && t[j - 1]?.v === '.') || (x.t === 'name' && from.has(x.v) && t[j - 1]?.v !== '.');
    for (let j = 0; j + 1 < t.length; j++) {
      if (t[j].t !== 'name' || !enums.has(t[j].v) || t[j + 1].v !== '(' || t[j - 1]?.v === '.') continue;
      if (t.slice(j + 2, closing(t, j + 1)).some((x, k) => names(x, k + j + 2))) return t[j].v;
    }
    if (t[0]?.t === 'name' && t[1]?.v === '=' && t.slice(2).some((x, k) => names(x, k + 2))) from.add(t[0].v);
  }
  return undefined;
}

/**
 * Whether a statement checks `key`: an `assert` on the key's literal or attribute (not a presence
 * test `"key" in d`, not a method call `self.key()`), a `raise` whose message says the key must be
 * something (`key must …`, `invalid key`), or a call of a local checker with the key.
 */
function checksKey(st, key, local) {
  const t = st.toks;
  // `key must …`, `invalid key`, or `key value of '…' is invalid` (DeepSpeed's message for
  // checkpoint.parallel_write.pipeline_stage, split over a literal and an f-string).
  const said = new RegExp(`(^|[^A-Za-z0-9_])${key}[^A-Za-z0-9_]{0,4}(must|should|cannot|has to|needs to|is not (a |an )?(valid|supported))|(invalid|unsupported|unknown) ${key}([^A-Za-z0-9_]|$)|(^|[^A-Za-z0-9_])${key} value of [^.]{0,40}? is invalid`, 'i');
  // The message of a `raise` is often split over several literals: judged as one text.
  const message = t.filter((x) => x.t === 'str').map((x) => x.v).join('');
  const names = (x, j) => (x.t === 'str' && !x.f && x.v === key && !(t[j + 1]?.v === 'in' || (t[j + 1]?.v === 'not' && t[j + 2]?.v === 'in'))) || (x.t === 'name' && x.v === key && t[j - 1]?.v === '.' && t[j + 1]?.v !== '(');
  if (t[0]?.v === 'assert') return t.some(names) || t.some((x) => x.t === 'str' && said.test(x.v));
  if (t[0]?.v === 'raise') return said.test(message);
  return t.some((x, j) => x.t === 'name' && local.has(x.v) && t[j + 1]?.v === '(') && t.some(names);
}

/**
 * The `x-invalid-effect` changes. `keys`: the schema's properties by dotted path; `sectionFiles`:
 * the files of each top-level section's parser (deepspeed.mjs SECTION_FILES).
 */
export function deepspeedCheckChanges(dir, releases, keys, sectionFiles) {
  const newest = releases.at(-1);
  const parsed = new Map();
  const stmtsOf = (path) => {
    if (!parsed.has(path)) parsed.set(path, statements(tokenize(show(dir, newest.rev, path) ?? '')));
    return parsed.get(path);
  };
  const changes = [];
  const report = { checked: [], unchecked: 0 };
  for (const [dotted, props] of keys) {
    const owned = props.filter((p) => typeof p['x-invalid-effect'] === 'string' && GENERATED.some((re) => re.test(p['x-invalid-effect'])));
    if (!owned.length) continue;
    const parts = dotted.split('.');
    const key = parts.at(-1);
    const section = parts.length === 1 ? '' : parts[0];
    const own = sectionFiles[section];
    const extra = CHECK_FILES[section];
    const files = [...newest.tree.keys()].filter((p) => p.endsWith('.py') && ((own && own.test(p)) || (extra && extra.test(p)) || (section === '' && CHECK_FILES[''].test(p))));
    const byHand = CHECKED_BY_HAND[dotted];
    let where = byHand && typeof byHand === 'object' ? byHand.file : byHand;
    let converted = byHand && typeof byHand === 'object' ? byHand.enum : undefined;
    const among = !!(byHand && typeof byHand === 'object' && byHand.among);
    // A name without an underscore (`enabled`, `dtype`, `block`) is also another section's attribute.
    if (!where && byHand !== null && key.includes('_')) for (const path of files) {
      const stmts = stmtsOf(path);
      const local = checkers(stmts);
      const checked = stmts.some((st) => checksKey(st, key, local));
      const into = checked ? undefined : convertsKey(stmts, key, enumClasses(stmts));
      if (checked || into) {
        where = path;
        converted = into;
        break;
      }
    }
    const want = where ? (BUILT_BY_MODEL.has(section) ? checkedWhenBuilt(where) : converted ? convertedIn(where, converted) : among ? checkedAmongIn(where) : checkedIn(where)) : UNCHECKED;
    if (where) report.checked.push(`${dotted}: ${where}`);
    else report.unchecked++;
    const stale = owned.filter((p) => p['x-invalid-effect'] !== want);
    if (!stale.length) continue;
    changes.push({ key: dotted, field: 'x-invalid-effect', from: stale[0]['x-invalid-effect'], to: want, why: where ? `checked in ${where}` : 'no check of the value found where it is read', set: () => stale.forEach((p) => setKey(p, 'x-invalid-effect', want)) });
  }
  printLists([[`keys read key by key whose reader checks the value (${newest.version}); ${report.unchecked} others get the sentence that claims no check`, report.checked]]);
  return changes;
}
