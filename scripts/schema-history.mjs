#!/usr/bin/env node
// Recomputes the version facts of the schemas from the upstream git history.
//
//   node scripts/schema-history.mjs [--megatron <Megatron-LM git dir>] [--deepspeed <DeepSpeed git dir>] [--bridge <Megatron-Bridge git dir>] [--accelerate <accelerate git dir>] [--write] [--verbose]
//
// Megatron Bridge (with --bridge and --megatron): the Bridge paths of the training-layer sections
// (`train`, `checkpoint`, `logger`, …) that nothing reads at `x-source.bridgeCommit`: no `.field` or
// `"field"` in Bridge's src (recipes aside) nor in megatron/core at the Megatron-LM commit Bridge
// pins (`x-source.bridgeMegatronCommit`). A static search, so an upper bound: `x-bridge-unread`.
//
// Megatron Bridge values (with --bridge): `x-bridge-enum` of the fields whose enum holds names only
// Megatron-LM's `--yaml-cfg` loader knows (x-cli: false): the names Bridge restores a string
// override of that field by (ACTIVATION_FUNC_MAP for the fields of _SERIALIZABLE_CALLABLE_FIELDS),
// or none.
//
// Accelerate (--accelerate <git dir>): for every final release tag, the fields of the config
// dataclasses, the flags of `accelerate launch`, the sections its launcher copies onto them and
// the prefix it adds; `x-since` of every key (either spelling), `x-flag-since` of a spelling read
// later than its key, `x-bare-until` of a prefixed key read only without its prefix before the
// launcher added it, and `x-key-prefix.since`; `x-default-before` of a config dataclass field
// whose literal default (or the utils/constants.py constant it names) changed. A key no longer
// read is compared with its deprecation and only printed.
//
// Megatron-LM: for every final release tag core_vX.Y.Z (0.4.0 onward, no rc) plus the commit named
// in `x-source.commit` (the version in `x-source.version`), collects the command-line spellings the
// parser of that release accepts, read statically from the source:
//   - the string literals passed to `add_argument(...)` in the functions the argument builder
//     (`add_megatron_arguments`, or `parse_args` before it existed) calls, in
//     megatron/training/arguments.py (megatron/arguments.py before 0.6.0), with the `--no-` form
//     argparse.BooleanOptionalAction adds;
//   - the flags `ArgumentGroupFactory(SomeConfig, exclude=...)` derives from a dataclass (0.16.0
//     onward): `--field-name`, `--no-field-name`/`--disable-field-name` for a bool that does not
//     default to False, or the field's `argparse_meta.arg_names`;
//   - for flags only some entry points have (`x-entrypoints`), the helper those entry points share
//     (`add_modelopt_args`/`add_ammo_args`, `add_vlm_extra_args`, the inference helpers);
//   - for `x-cli: false` fields, the field names of the config dataclasses (TransformerConfig,
//     ModelParallelConfig, the heterogeneous config).
// Then `x-since` is the first release whose parser has any spelling of the property (none when the
// oldest release compared has it), `x-flag-since` the first release of a spelling that came later,
// and `x-removed.version` the first release after the last one that had it. Every disagreement with
// the schema is printed. --write fills in `x-since` where the schema has none and the flag arrived
// below 0.13.0 (from 0.13.0 on the schema was built from argparse dumps, the better source for
// flags built at run time), keeps the tag list in `x-source`, and applies MEGATRON_RESOLVED: the
// disagreements and other facts checked by hand against upstream.
//
// Megatron-LM enum values: for every property with an `enum`, the choices each release's parser
// checks a value against, read from the same calls: a literal `choices=[...]` / `choices=(...)` of
// add_argument (also `list(SomeEnum)`, `[e.name for e in SomeEnum]`, `[e.value for e in SomeEnum]`,
// `range(a, b)`), or for a flag ArgumentGroupFactory derives, `argparse_meta["choices"]`, else a
// `Literal[...]` annotation (also inside Optional/list), else the members of an Enum annotation; a
// switch (store_true and the like, a bool field) takes no value, an argument without choices takes
// any. `x-enum-since` of a value is the first release whose parser accepts it (none when the first
// release with the flag already does). --write adds the entries the schema lacks; an entry it has is
// never changed (a disagreement is printed). Values a later release refuses again are printed only:
// the schema has no keyword for them.
//
// Megatron-LM defaults: the default of every property at each release, read from the same calls
// (`default=` of add_argument, else what its action implies, else None; the dataclass field
// behind a flag ArgumentGroupFactory builds, its `argparse_meta` default first; for `x-cli: false`
// the config dataclass field), as a literal (a string, number, bool, None, or a list of them) or
// unread. `x-default-before` records the defaults of older releases where the literal default
// changed: `{ "<release>": value }`, the default of the releases before that one. --write sets it
// where the newest literal default is the schema's `default`; other differences are printed.
// schemas/history/megatron-choices.json and megatron-defaults.json keep what was read, per
// release, for the tests (test/unit/facts-sample.test.ts), which have no checkout.
//
// DeepSpeed strictness: for the sections read by a pydantic model (SECTION_MODELS), whether each
// release refuses an unknown key (the model exists, is used, and forbids extra keys) or reads the
// section key by key; compared with `x-unknown-key-effect`, `x-strict-since` and the `unused`
// ranges of `x-value-forms`; --write corrects `x-strict-since` where one change point explains
// the read. schemas/history/deepspeed-strictness.json keeps the read.
//
// DeepSpeed: for every final release tag v0.3.0 onward (plus master when its version.txt is newer
// than the last tag), collects the string literals and pydantic field names of the config code
// (deepspeed/runtime/**/*.py, deepspeed/__init__.py, the config/constants files of the other
// packages). A key is judged in the files of its section (SECTION_FILES); a common name (`enabled`,
// `dtype`) only where the section has files of its own. --write fills in `x-since` where the schema
// has none and the key is first read after v0.3.0 and after its section arrived (a key that comes
// with its section needs none), and applies DEEPSPEED_RESOLVED (x-since and x-deprecated.since
// corrections checked by hand); other disagreements are only printed.
//
// Without --write nothing is changed: the script prints what it would change.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const opt = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const WRITE = argv.includes('--write');
const VERBOSE = argv.includes('--verbose');
const megatronDir = opt('--megatron');
const deepspeedDir = opt('--deepspeed');
const bridgeDir = opt('--bridge');
const accelerateDir = opt('--accelerate');
if (!megatronDir && !deepspeedDir && !accelerateDir) {
  console.error('usage: node scripts/schema-history.mjs [--megatron <gitdir> [--bridge <gitdir>]] [--deepspeed <gitdir>] [--accelerate <gitdir>] [--write] [--verbose]');
  process.exit(2);
}

// ------------------------------------------------------------------------------------------------
// git and versions

const gitCache = new Map();
function git(dir, ...args) {
  const key = `${dir}\0${args.join('\0')}`;
  if (!gitCache.has(key)) {
    let out;
    try {
      out = execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] });
    } catch {
      out = null;
    }
    gitCache.set(key, out);
  }
  return gitCache.get(key);
}
const show = (dir, rev, path) => git(dir, 'show', `${rev}:${path}`);
const lsFiles = (dir, rev, ...paths) => (git(dir, 'ls-tree', '-r', '--name-only', rev, '--', ...paths) ?? '').split('\n').filter(Boolean);

const parseVersion = (v) => v.split('.').map(Number);
function compareVersions(a, b) {
  const x = parseVersion(a);
  const y = parseVersion(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

/** Final release tags `prefix<major>.<minor>.<patch>`, oldest first, between `from` and `to`. */
function releaseTags(dir, prefix, from, to) {
  const re = new RegExp(`^${prefix.replace(/\./g, '\\.')}(\\d+\\.\\d+\\.\\d+)$`);
  return (git(dir, 'tag') ?? '')
    .split('\n')
    .map((t) => [t, re.exec(t)?.[1]])
    .filter(([, v]) => v && compareVersions(v, from) >= 0 && (!to || compareVersions(v, to) <= 0))
    .map(([tag, version]) => ({ rev: tag, version }))
    .sort((a, b) => compareVersions(a.version, b.version));
}

// ------------------------------------------------------------------------------------------------
// JSON that keeps the schema's number spellings (`1.0`, `1e-05`) and its one-line arrays through a
// rewrite.

class RawNumber {
  constructor(text) {
    this.text = text;
  }
  valueOf() {
    return Number(this.text);
  }
}

const oneLine = new WeakSet();

function parseJson(text) {
  let i = 0;
  const ws = () => {
    while (/\s/.test(text[i])) i++;
  };
  const value = () => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const out = {};
      ws();
      if (text[i] === '}') return i++, out;
      for (;;) {
        ws();
        const k = value();
        ws();
        i++; // :
        out[k] = value();
        ws();
        if (text[i++] === '}') return out;
      }
    }
    if (c === '[') {
      const start = i++;
      const out = [];
      ws();
      if (text[i] === ']') return i++, out;
      for (;;) {
        out.push(value());
        ws();
        if (text[i++] === ']') {
          if (!text.slice(start, i).includes('\n')) oneLine.add(out);
          return out;
        }
      }
    }
    if (c === '"') {
      const m = /^"(?:[^"\\]|\\.)*"/.exec(text.slice(i));
      i += m[0].length;
      return JSON.parse(m[0]);
    }
    const m = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)/.exec(text.slice(i, i + 40));
    i += m[0].length;
    return m[0] === 'true' ? true : m[0] === 'false' ? false : m[0] === 'null' ? null : new RawNumber(m[0]);
  };
  return value();
}

/** A value on one line, as the schemas write a one-line array: `[{"a": 1, "b": ["x", "y"]}]`. */
function compactJson(v) {
  if (v instanceof RawNumber) return v.text;
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(compactJson).join(', ')}]`;
  return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${compactJson(x)}`).join(', ')}}`;
}

function stringifyJson(v, indent = '') {
  if (v instanceof RawNumber) return v.text;
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (oneLine.has(v)) return compactJson(v);
  const inner = `${indent}  `;
  if (Array.isArray(v)) return v.length === 0 ? '[]' : `[\n${v.map((x) => inner + stringifyJson(x, inner)).join(',\n')}\n${indent}]`;
  const keys = Object.keys(v);
  return keys.length === 0 ? '{}' : `{\n${keys.map((k) => `${inner}${JSON.stringify(k)}: ${stringifyJson(v[k], inner)}`).join(',\n')}\n${indent}}`;
}

// ------------------------------------------------------------------------------------------------
// A small Python tokenizer: names, numbers, strings (value kept, f-strings marked), operators,
// and logical-line ends, each token with the column its line starts at.

function tokenize(src) {
  const toks = [];
  let i = 0;
  let depth = 0;
  let line = 1;
  let lineStart = true;
  let indent = 0;
  const n = src.length;
  const push = (t, v, extra) => {
    if (lineStart) {
      lineStart = false;
      toks.push({ t: 'start', v: '', indent, line });
    }
    toks.push({ t, v, line, ...extra });
  };
  while (i < n) {
    const c = src[i];
    if (c === '\n') {
      line++;
      i++;
      if (depth === 0 && !lineStart) {
        toks.push({ t: 'nl', v: '', line });
        lineStart = true;
      }
      if (lineStart) {
        indent = 0;
        while (src[i] === ' ' || src[i] === '\t') (indent += src[i] === '\t' ? 8 : 1), i++;
      }
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f') {
      i++;
      continue;
    }
    if (c === '\\' && src[i + 1] === '\n') {
      i += 2;
      line++;
      continue;
    }
    if (c === '#') {
      while (i < n && src[i] !== '\n') i++;
      continue;
    }
    const str = /^([rRbBuUfF]{0,2})('''|"""|'|")/.exec(src.slice(i, i + 5));
    if (str && (str[1] === '' || /[A-Za-z]/.test(c))) {
      const prefix = str[1];
      const q = str[2];
      const raw = /r/i.test(prefix);
      let j = i + prefix.length + q.length;
      let value = '';
      while (j < n && src.slice(j, j + q.length) !== q) {
        if (src[j] === '\\' && !raw) {
          value += src[j + 1];
          j += 2;
          continue;
        }
        if (src[j] === '\n') {
          line++;
          if (q.length === 1) break;
        }
        value += src[j];
        j++;
      }
      push('str', value, { f: /f/i.test(prefix) });
      i = j + q.length;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i, i + 200));
    if (name) {
      push('name', name[0]);
      i += name[0].length;
      continue;
    }
    const num = /^[0-9][0-9a-zA-Z_.]*(?:[eE][-+]?[0-9]+)?/.exec(src.slice(i, i + 60));
    if (num) {
      push('num', num[0]);
      i += num[0].length;
      continue;
    }
    const op = /^(\*\*=?|\/\/=?|->|:=|==|!=|<=|>=|<<|>>|[-+*/%&|^@]=|[-+*/%&|^~<>=.,:;@()[\]{}])/.exec(src.slice(i, i + 3));
    const v = op ? op[0] : c;
    if ('([{'.includes(v)) depth++;
    if (')]}'.includes(v)) depth = Math.max(0, depth - 1);
    push('op', v);
    i += v.length;
  }
  if (!lineStart) toks.push({ t: 'nl', v: '', line });
  return toks;
}

/** Logical lines: `{ indent, toks }` (without the start and end markers). */
function statements(toks) {
  const out = [];
  let cur = null;
  for (const t of toks) {
    if (t.t === 'start') cur = { indent: t.indent, line: t.line, toks: [] };
    else if (t.t === 'nl') {
      if (cur) out.push(cur);
      cur = null;
    } else cur?.toks.push(t);
  }
  return out;
}

/** The index of the bracket closing the one at `i`. */
function closing(toks, i) {
  let d = 0;
  for (let j = i; j < toks.length; j++) {
    if (toks[j].t === 'op' && '([{'.includes(toks[j].v)) d++;
    if (toks[j].t === 'op' && ')]}'.includes(toks[j].v) && --d === 0) return j;
  }
  return toks.length - 1;
}

/** The string literals directly inside the list at `toks[i]` (`[`). */
function listStrings(toks, i) {
  const end = closing(toks, i);
  return toks.slice(i + 1, end).filter((t) => t.t === 'str' && !t.f).map((t) => t.v);
}

/**
 * The values of the list or tuple literal at `toks[i]` (`[` or `(`) when every element is a plain
 * string or number literal (`None` elements are skipped: argparse never matches them), as the text
 * a config would write; undefined when an element is anything else (a name, a call, a comprehension).
 */
function literalValues(toks, i) {
  const end = closing(toks, i);
  const out = [];
  for (let j = i + 1; j < end; ) {
    const neg = toks[j].v === '-' && toks[j + 1]?.t === 'num';
    if (neg) j++;
    const t = toks[j];
    if (t.t === 'str' && !t.f && !neg) out.push(t.v);
    else if (t.t === 'num' && /^[0-9][0-9_]*(\.[0-9_]*)?([eE][-+]?[0-9]+)?$/.test(t.v)) out.push(String(Number((neg ? '-' : '') + t.v.replace(/_/g, ''))));
    else if (!(t.t === 'name' && t.v === 'None' && !neg)) return undefined;
    j++;
    if (j < end && toks[j].v !== ',') return undefined;
    j++;
  }
  return out;
}

/** The tokens of an argument at `toks[i]` up to the `,` or closing bracket that ends it. */
function argumentTokens(toks, i) {
  const out = [];
  for (let j = i, d = 0; j < toks.length; j++) {
    const v = toks[j].t === 'op' ? toks[j].v : '';
    if (d === 0 && (v === ',' || v === ')' || v === ']' || v === '}')) break;
    if ('([{'.includes(v) && v) d++;
    if (')]}'.includes(v) && v) d--;
    out.push(toks[j]);
  }
  return out;
}

/**
 * The value of a default written as a literal (`'x'`, `3`, `-1e-5`, `True`, `None`): `{ value }`
 * (None as null); `{ dynamic: text }` for anything computed (a name, a call, a list, an f-string).
 */
function literalDefault(expr) {
  // `( 'a' )` and implicit concatenation `'a' 'b'`
  while (expr[0]?.v === '(' && closing(expr, 0) === expr.length - 1 && !expr.some((t, j) => t.v === ',' && depthAt(expr, j) === 1)) expr = expr.slice(1, -1);
  if (expr.length > 1 && expr.every((t) => t.t === 'str' && !t.f)) return { value: expr.map((t) => t.v).join('') };
  // A list or tuple of literals: a JSON array.
  if ((expr[0]?.v === '[' || expr[0]?.v === '(') && closing(expr, 0) === expr.length - 1) {
    const items = [];
    for (let j = 1; j < expr.length - 1; ) {
      const item = argumentTokens(expr, j);
      const d = literalDefault(item);
      if (!item.length || d.dynamic !== undefined) return { dynamic: 'a list of computed values' };
      items.push(d.value);
      j += item.length + 1;
    }
    return { value: items };
  }
  const text = expr.map((t) => (t.t === 'str' ? JSON.stringify(t.v) : t.v)).join('');
  if (expr.length === 1) {
    const t = expr[0];
    if (t.t === 'str' && !t.f) return { value: t.v };
    if (t.t === 'name' && t.v in PY_CONSTANTS) return { value: PY_CONSTANTS[t.v] };
  }
  const num = expr.every((t) => t.t === 'num' || (t.t === 'op' && (t.v === '-' || t.v === '+' || t.v === '.'))) ? text.replace(/_/g, '') : '';
  if (/^-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$/.test(num)) return { value: Number(num) };
  return { dynamic: text.length > 80 ? `${text.slice(0, 77)}...` : text };
}
const PY_CONSTANTS = { True: true, False: false, None: null };

// The choices argparse checks a value against, as read from the source: `{ values }` for a static
// list (`choices=[...]`, `choices=(...)`, `Literal[...]`, `list(SomeEnum)` / an Enum-typed dataclass
// field when the enum's members can be read), `{ dynamic: text }` for choices computed at run time
// that this script does not evaluate, `{ novalue: true }` for a switch (store_true and the like, a
// bool dataclass field). No entry: the argument has no choices (any value passes argparse).

/** Members `{ name, value }` of an Enum class defined under megatron/ at `rev` (value: a literal's
 * text, else undefined); undefined when the class is not found or is not an enum. */
const enumCache = new Map();
function enumMembers(dir, rev, cls) {
  const key = `${rev}\0${cls}`;
  if (enumCache.has(key)) return enumCache.get(key);
  let out;
  const hits = (git(dir, 'grep', '-l', '-E', `^class ${cls}\\b`, rev, '--', 'megatron') ?? '').split('\n').filter(Boolean).map((l) => l.slice(rev.length + 1));
  const path = hits.find((p) => !p.includes('/tests/')) ?? hits[0];
  if (path) {
    const stmts = statements(tokenize(show(dir, rev, path)));
    const k = stmts.findIndex((s) => s.indent === 0 && s.toks[0]?.v === 'class' && s.toks[1]?.v === cls);
    const head = k >= 0 ? stmts[k].toks : [];
    if (head[2]?.v === '(' && head.slice(3, closing(head, 2)).some((t) => t.t === 'name' && /Enum$/.test(t.v))) {
      out = [];
      const bodyIndent = stmts[k + 1]?.indent;
      for (let j = k + 1; j < stmts.length && stmts[j].indent > 0; j++) {
        const t = stmts[j].toks;
        if (stmts[j].indent === bodyIndent && t[0]?.t === 'name' && !t[0].v.startsWith('_') && t[1]?.v === '=')
          out.push({ name: t[0].v, value: t.length === 3 && (t[2].t === 'str' || t[2].t === 'num') && !t[2].f ? t[2].v : undefined });
      }
    }
  }
  enumCache.set(key, out);
  return out;
}

/** The choices given by the expression `expr` (the tokens after `choices=` or `"choices":`). */
function choicesOf(dir, rev, expr) {
  const text = expr.map((t) => (t.t === 'str' ? JSON.stringify(t.v) : t.v)).join(' ');
  if ((expr[0]?.v === '[' || expr[0]?.v === '(') && closing(expr, 0) === expr.length - 1) {
    const values = literalValues(expr, 0);
    if (values) return { values };
  }
  // list(SomeEnum): the members; argparse compares the converted value (SomeEnum[name]).
  if (expr.length === 4 && expr[0].v === 'list' && expr[1].v === '(' && expr[2].t === 'name' && expr[3].v === ')') {
    const members = enumMembers(dir, rev, expr[2].v);
    if (members) return { values: members.map((m) => m.name), viaEnum: expr[2].v };
  }
  // [e.name for e in SomeEnum] / [e.value for e in SomeEnum]
  const comp = /^\[ (\w+) \. (name|value) for (\w+) in (\w+) \]$/.exec(text);
  if (comp && comp[1] === comp[3]) {
    const members = enumMembers(dir, rev, comp[4]);
    const values = members?.map((m) => (comp[2] === 'name' ? m.name : m.value));
    if (values && values.every((v) => v !== undefined)) return { values, viaEnum: comp[4] };
  }
  // range(stop) / range(start, stop) with integer literals
  const r = /^range \( (?:(-?\d+) , )?(-?\d+) \)$/.exec(text.replace(/- (\d)/g, '-$1'));
  if (r) {
    const values = [];
    for (let n = Number(r[1] ?? 0); n < Number(r[2]); n++) values.push(String(n));
    return { values };
  }
  return { dynamic: text };
}

/**
 * The choices ArgumentGroupFactory derives for a dataclass field (megatron/training/argument_utils.py):
 * `argparse_meta["choices"]` when given; else a `Literal[...]` annotation (also in Optional[...],
 * `... | None`, list[...]); else an Enum annotation (its member names). Other annotations: none.
 */
function fieldChoices(dir, rev, ann, value) {
  for (let j = 0; j < value.length; j++)
    if (value[j].t === 'str' && value[j].v === 'choices' && value[j + 1]?.v === ':') return choicesOf(dir, rev, argumentTokens(value, j + 2));
  const wrappers = new Set(['Optional', 'Union', 'None', 'typing', 'List', 'list', 'Literal']);
  const k = ann.findIndex((t, j) => t.v === 'Literal' && ann[j + 1]?.v === '[');
  if (k >= 0) {
    // A union with another type: the factory cannot infer a type and the choices come only from argparse_meta.
    const end = closing(ann, k + 1);
    if (ann.some((t, j) => (j < k || j > end) && t.t === 'name' && !wrappers.has(t.v))) return undefined;
    const values = literalValues(ann, k + 1);
    return values ? { values } : { dynamic: ann.map((t) => t.v).join('') };
  }
  const names = ann.filter((t) => t.t === 'name' && !wrappers.has(t.v));
  if (names.length === 1 && !['str', 'int', 'float', 'bool', 'dict', 'Dict', 'Any', 'Path', 'tuple', 'Tuple'].includes(names[0].v)) {
    const members = enumMembers(dir, rev, names[0].v);
    if (members) return { values: members.map((m) => m.name), viaEnum: names[0].v };
  }
  // A class of another module (signal.Signals): an Enum's members, which this script cannot read.
  if (ann.some((t) => t.v === '.')) return { dynamic: ann.map((t) => t.v).join('') };
  return undefined;
}

/** Top-level `def`s of a module: name → statements of its body (nested defs included). */
function functions(stmts) {
  const fns = new Map();
  let cur = null;
  for (const s of stmts) {
    if (s.indent === 0) {
      cur = null;
      const k = s.toks[0]?.v === 'async' ? 1 : 0;
      if (s.toks[k]?.v === 'def' && s.toks[k + 1]?.t === 'name') fns.set(s.toks[k + 1].v, (cur = []));
    }
    if (cur) cur.push(s);
  }
  return fns;
}

/**
 * What a function body adds to a parser: flags of add_argument calls (with their `choices=`, read
 * when `choice` is given: (tokens) => choices), factories, local calls.
 */
function scanFunction(body, localNames, choice) {
  const flags = [];
  const factories = [];
  const calls = new Set();
  const lists = new Map();
  const choices = new Map();
  const defaults = new Map();
  for (const s of body) {
    const t = s.toks;
    // NAME = [ 'a', 'b' ] (an exclude list handed to a factory)
    if (t[0]?.t === 'name' && t[1]?.v === '=' && t[2]?.v === '[') lists.set(t[0].v, listStrings(t, 2));
    for (let i = 0; i < t.length; i++) {
      if (t[i].v === 'add_argument' && t[i - 1]?.v === '.' && t[i + 1]?.v === '(') {
        const names = [];
        for (let j = i + 2; t[j]?.t === 'str'; j += 2) {
          if (!t[j].f && t[j].v.startsWith('-')) names.push(t[j].v);
          if (t[j + 1]?.v !== ',') break;
        }
        flags.push(...names);
        const end = closing(t, i + 1);
        if (choice)
          for (let j = i + 2, d = 0; j < end; j++) {
            if (t[j].t === 'op' && '([{'.includes(t[j].v)) d++;
            if (t[j].t === 'op' && ')]}'.includes(t[j].v)) d--;
            if (d === 0 && t[j].t === 'name' && t[j].v === 'choices' && t[j + 1]?.v === '=') {
              const c = choice(argumentTokens(t, j + 2));
              for (const n of names) choices.set(n, c);
            }
            // An action that takes no value (a switch): no value is accepted.
            if (d === 0 && t[j].t === 'name' && t[j].v === 'action' && t[j + 1]?.v === '=') {
              const a = argumentTokens(t, j + 2);
              if ((a.length === 1 && a[0].t === 'str' && /^(store_true|store_false|store_const|count|append_const)$/.test(a[0].v)) || a.at(-1)?.v === 'BooleanOptionalAction')
                for (const n of names) if (!choices.has(n)) choices.set(n, { novalue: true });
            }
          }
        if (choice) {
          const d = argumentDefault(t, i + 1, end);
          for (const n of names) defaults.set(n, d);
        }
        // argparse.BooleanOptionalAction adds `--no-<flag>` for every `--<flag>`.
        if (t.slice(i + 2, end).some((x) => x.v === 'BooleanOptionalAction')) flags.push(...names.filter((x) => x.startsWith('--')).map((x) => `--no-${x.slice(2)}`));
      } else if (t[i].v === 'ArgumentGroupFactory' && t[i - 1]?.v !== 'import' && t[i - 1]?.v !== ',' && t[i + 1]?.v === '(' && t[i + 2]?.t === 'name') {
        const end = closing(t, i + 1);
        let exclude = [];
        for (let j = i + 3; j < end; j++)
          if (t[j].v === 'exclude' && t[j + 1]?.v === '=') {
            if (t[j + 2]?.v === '[') exclude = listStrings(t, j + 2);
            else if (t[j + 2]?.t === 'name') exclude = lists.get(t[j + 2].v) ?? [];
          }
        factories.push({ cls: t[i + 2].v, exclude });
      } else if (t[i].t === 'name' && t[i + 1]?.v === '(' && t[i - 1]?.v !== '.' && t[i - 1]?.v !== 'def' && localNames.has(t[i].v)) calls.add(t[i].v);
    }
  }
  return { flags, factories, calls, choices, defaults };
}

/**
 * The default of the add_argument call whose `(` is at `t[open]`: its `default=`, else what the
 * action implies (store_true: False, store_false: True), else None.
 */
function argumentDefault(t, open, end) {
  let action;
  for (let j = open + 1, d = 0; j < end; j++) {
    if (t[j].t === 'op' && '([{'.includes(t[j].v)) d++;
    if (t[j].t === 'op' && ')]}'.includes(t[j].v)) d--;
    if (d !== 0 || t[j].t !== 'name' || t[j + 1]?.v !== '=') continue;
    if (t[j].v === 'default') return literalDefault(argumentTokens(t, j + 2));
    if (t[j].v === 'action') action = argumentTokens(t, j + 2);
  }
  if (action?.length === 1 && action[0].t === 'str' && !action[0].f) return { value: action[0].v === 'store_true' ? false : action[0].v === 'store_false' ? true : null };
  return action && action.at(-1)?.v !== 'BooleanOptionalAction' ? { dynamic: `action=${action.map((x) => x.v).join('')}` } : { value: null };
}

// ------------------------------------------------------------------------------------------------
// Dataclass fields, as ArgumentGroupFactory turns them into flags (megatron/training/argument_utils.py):
// field name → { flags, choices }.

function classFlags(dir, rev, cls, seen = new Set(), allFields = false) {
  if (seen.has(cls)) return new Map();
  seen.add(cls);
  const hits = (git(dir, 'grep', '-l', '-E', `^class ${cls}\\b`, rev, '--', 'megatron') ?? '').split('\n').filter(Boolean).map((l) => l.slice(rev.length + 1));
  if (hits.length === 0) return null;
  const path = hits.find((p) => !p.includes('/tests/')) ?? hits[0];
  const stmts = statements(tokenize(show(dir, rev, path)));
  const k = stmts.findIndex((s) => s.indent === 0 && s.toks[0]?.v === 'class' && s.toks[1]?.v === cls);
  if (k < 0) return null;
  const head = stmts[k].toks;
  const fields = new Map();
  if (head[2]?.v === '(') {
    const end = closing(head, 2);
    for (let j = 3; j < end; j++)
      if (head[j].t === 'name' && (head[j + 1]?.v === ',' || head[j + 1]?.v === ')') && head[j - 1]?.v !== '=') {
        const base = classFlags(dir, rev, head[j].v, seen, allFields);
        if (base) for (const [f, v] of base) fields.set(f, v);
      }
  }
  const body = [];
  for (let j = k + 1; j < stmts.length && stmts[j].indent > 0; j++) body.push(stmts[j]);
  const bodyIndent = body[0]?.indent;
  for (const s of body) {
    const t = s.toks;
    if (s.indent !== bodyIndent || t[0]?.t !== 'name' || t[1]?.v !== ':' || ['def', 'class', 'async'].includes(t[0].v)) continue;
    let eq = t.findIndex((x, j) => j > 1 && x.v === '=' && depthAt(t, j) === 0);
    const ann = t.slice(2, eq < 0 ? t.length : eq);
    if (ann.some((x) => x.v === 'ClassVar' || x.v === 'InitVar')) continue;
    const names = ann.filter((x) => x.t === 'name' && !['Optional', 'Union', 'None', 'typing'].includes(x.v)).map((x) => x.v);
    const isBool = names.length === 1 && names[0] === 'bool';
    const value = eq < 0 ? [] : t.slice(eq + 1);
    let dflt = value;
    let init = true;
    let argNames;
    let metaDefault;
    let factoryDefault;
    if (value[0]?.v === 'field' && value[1]?.v === '(') {
      dflt = [];
      const end = closing(value, 1);
      for (let j = 2; j < end; j++) {
        if (depthAt(value, j) !== 1) continue;
        if (value[j].v === 'default' && value[j + 1]?.v === '=') dflt = argumentTokens(value, j + 2);
        // default_factory=list, or a lambda returning a literal: the value the factory builds.
        if (value[j].v === 'default_factory' && value[j + 1]?.v === '=') {
          const f = argumentTokens(value, j + 2);
          factoryDefault = f.length === 1 && f[0].v === 'list' ? { value: [] } : f[0]?.v === 'lambda' && f[1]?.v === ':' ? literalDefault(f.slice(2)) : { dynamic: 'default_factory' };
        }
        if (value[j].v === 'init' && value[j + 1]?.v === '=' && value[j + 2]?.v === 'False') init = false;
      }
      for (let j = 2; j < end; j++) if (value[j].t === 'str' && value[j].v === 'arg_names' && value[j + 1]?.v === ':' && value[j + 2]?.v === '[') argNames = listStrings(value, j + 2);
      // argparse_meta's "default" takes precedence over the field's (argument_utils.py).
      for (let j = 2; j < end; j++) if (value[j].t === 'str' && value[j].v === 'default' && value[j + 1]?.v === ':') metaDefault = literalDefault(argumentTokens(value, j + 2));
    }
    if (!init && !allFields) {
      fields.delete(t[0].v);
      continue;
    }
    const dashed = (p) => `--${p}${t[0].v}`.replace(/_/g, '-');
    const isFalse = dflt.length === 1 && dflt[0].v === 'False';
    const flags = argNames ?? (isBool && !isFalse ? [dashed('no_'), dashed('disable_')] : [dashed('')]);
    const hasDefault = eq >= 0 && !(value[0]?.v === 'field' && value[1]?.v === '(' && dflt.length === 0);
    const fieldDefault = metaDefault ?? factoryDefault ?? (!hasDefault ? { dynamic: eq < 0 ? '(required)' : 'field(...)' } : literalDefault(value[0]?.v === 'field' ? dflt : value));
    fields.set(t[0].v, { flags, choices: allFields ? undefined : isBool ? { novalue: true } : fieldChoices(dir, rev, ann, value), default: fieldDefault });
  }
  return fields;
}

function depthAt(toks, j) {
  let d = 0;
  for (let i = 0; i < j; i++) {
    if (toks[i].t !== 'op') continue;
    if ('([{'.includes(toks[i].v)) d++;
    if (')]}'.includes(toks[i].v)) d--;
  }
  return d;
}

// ------------------------------------------------------------------------------------------------
// Megatron-LM: the flags of every release

/** The flags a module's `entry` function (and the local functions it calls) adds. */
function moduleFlags(dir, rev, path, entries, problems) {
  const src = show(dir, rev, path);
  if (src == null) return null;
  const fns = functions(statements(tokenize(src)));
  const local = new Set(fns.keys());
  const entry = entries.find((e) => fns.has(e));
  if (!entry) return null;
  const flags = new Set();
  const seen = new Set();
  const dynamic = new Set();
  const choices = new Map();
  const defaults = new Map();
  const visit = (name) => {
    if (seen.has(name)) return;
    seen.add(name);
    const { flags: f, factories, calls, choices: c, defaults: d } = scanFunction(fns.get(name), local, (expr) => choicesOf(dir, rev, expr));
    for (const x of f) flags.add(x);
    for (const [x, v] of c) choices.set(x, v);
    for (const [x, v] of d) if (!defaults.has(x)) defaults.set(x, v);
    for (const { cls, exclude } of factories) {
      const fields = classFlags(dir, rev, cls);
      if (!fields) {
        problems.push(`${rev}: ${path}: class ${cls} (ArgumentGroupFactory) not found`);
        continue;
      }
      for (const [field, { flags: fl, choices: c, default: dv }] of fields)
        if (!exclude.includes(field))
          for (const x of fl) {
            flags.add(x);
            dynamic.add(x);
            if (c) choices.set(x, c);
            if (dv && !defaults.has(x)) defaults.set(x, dv);
          }
    }
    for (const c of calls) visit(c);
  };
  visit(entry);
  const unused = [...fns.keys()].filter((f) => !seen.has(f) && scanFunction(fns.get(f), local).flags.length > 0);
  return { flags, dynamic, entry, unused, choices, defaults };
}

const MEGATRON_SOURCES = {
  // The main parser every entry point has.
  main: [{ paths: ['megatron/training/arguments.py', 'megatron/arguments.py'], entries: ['add_megatron_arguments', 'parse_args'] }],
  modelopt: [{ paths: ['megatron/post_training/arguments.py', 'megatron/inference/arguments.py'], entries: ['add_modelopt_args', 'add_ammo_args'] }],
  vlm: [{ paths: ['pretrain_vlm.py'], entries: ['add_vlm_extra_args'] }],
  inference: [
    { paths: ['megatron/inference/utils.py', 'examples/inference/gpt/utils.py'], entries: ['add_inference_args', 'add_common_inference_args'] },
    // Dynamic-batching flags lived in this example until 0.17.0 moved them into the helper.
    { paths: ['examples/inference/gpt/gpt_dynamic_inference.py'], entries: ['add_dynamic_inference_args'] },
  ],
};
// Before the shared inference helper existed (0.12.0), its flags lived in the individual inference
// scripts and tools, which are among the entry points: a flag the helper had from its first release
// cannot be dated by the helper.
const UNDATED_AT_FIRST = new Set(['inference']);

// Fields only the --yaml-cfg, Bridge and NeMo formats write (`x-cli: false`): dated by the config
// dataclasses that hold them.
const CONFIG_FILES = ['megatron/core/model_parallel_config.py', 'megatron/core/transformer/transformer_config.py', 'megatron/core/transformer/heterogeneous/heterogeneous_config.py'];

function configFields(dir, rev) {
  const names = new Map();
  for (const path of CONFIG_FILES) {
    const src = show(dir, rev, path);
    if (src == null) continue;
    for (const s of statements(tokenize(src)))
      if (s.indent === 0 && s.toks[0]?.v === 'class' && s.toks[1]?.t === 'name') for (const [f, v] of classFlags(dir, rev, s.toks[1].v, new Set(), true) ?? []) if (!names.has(f)) names.set(f, v.default);
  }
  return names;
}

function sourceOf(prop) {
  if (prop['x-cli'] === false) return 'config';
  const eps = prop['x-entrypoints'];
  if (!eps) return 'main';
  if (eps.includes('examples/post_training/modelopt')) return 'modelopt';
  if (eps.includes('pretrain_vlm.py')) return 'vlm';
  if (eps.includes('examples/inference')) return 'inference';
  return null;
}

function megatronReleases(dir, schema) {
  const src = schema['x-source'];
  const releases = releaseTags(dir, 'core_v', '0.4.0');
  if (!git(dir, 'cat-file', '-e', `${src.commit}^{commit}`) && git(dir, 'cat-file', '-t', src.commit)?.trim() !== 'commit') throw new Error(`commit ${src.commit} (x-source.commit) is not in ${dir}`);
  releases.push({ rev: src.commit, version: src.version });
  const problems = [];
  for (const r of releases) {
    r.flags = {};
    r.choices = {};
    r.defaults = {};
    for (const [key, cands] of Object.entries(MEGATRON_SOURCES)) {
      for (const c of cands) {
        for (const p of c.paths) {
          const got = moduleFlags(dir, r.rev, p, c.entries, problems);
          if (!got) continue;
          r.flags[key] = new Set([...(r.flags[key] ?? []), ...got.flags]);
          r.choices[key] = new Map([...(r.choices[key] ?? []), ...got.choices]);
          r.defaults[key] = new Map([...got.defaults, ...(r.defaults[key] ?? [])]);
          if (key === 'main') {
            r.mainPath = p;
            r.dynamic = got.dynamic;
            if (got.unused.length) problems.push(`${r.version}: ${p}: functions with add_argument calls the builder does not call: ${got.unused.join(', ')}`);
          }
          break;
        }
      }
    }
    r.defaults.config = configFields(dir, r.rev);
    r.flags.config = new Set(r.defaults.config.keys());
    if (!r.flags.main || r.flags.main.size === 0) throw new Error(`${r.rev}: no arguments file found`);
  }
  return { releases, problems };
}

const spellings = (p) => [...new Set([p['x-flag'], ...(p['x-flags'] ?? [])].filter(Boolean))];

/** The versions in which any spelling of a property is present, with the computed facts. */
function megatronFacts(key, prop, releases) {
  const source = sourceOf(prop);
  if (!source) return null;
  const names = source === 'config' ? [key] : spellings(prop);
  if (names.length === 0) return null;
  const have = releases.map((r) => (r.flags[source] ? names.some((f) => r.flags[source].has(f)) : false));
  const firstSource = releases.findIndex((r) => r.flags[source]);
  const first = have.indexOf(true);
  const last = have.lastIndexOf(true);
  const facts = { source, names, present: releases.filter((_, i) => have[i]).map((r) => r.version), dynamicOnly: false };
  if (first < 0) return { ...facts, never: true };
  // Gaps: a flag that went away and came back.
  facts.gaps = releases.filter((_, i) => i > first && i < last && !have[i]).map((r) => r.version);
  facts.since = first === 0 || (first === firstSource && (source === 'main' || source === 'config' || UNDATED_AT_FIRST.has(source))) ? undefined : releases[first].version;
  facts.removed = last === releases.length - 1 ? undefined : releases[last + 1].version;
  facts.lastHad = releases[last].version;
  // A spelling that arrived after the property (another spelling, or another flag with the same
  // dest, came first): `x-flag-since`.
  facts.flagSince = {};
  for (const f of names) {
    const k = releases.findIndex((r) => r.flags[source]?.has(f));
    if (k > first) facts.flagSince[f] = releases[k].version;
  }
  if (source === 'main') facts.dynamicOnly = names.every((f) => releases.every((r) => !r.flags.main.has(f) || r.dynamic.has(f)));
  return facts;
}

/** An enum value as argparse sees the text a config writes (numbers by their value). */
const enumText = (v) => (v instanceof RawNumber ? String(Number(v.text)) : String(v));

/**
 * The values a property's parser accepted at each release that has the property: per release
 * `absent`, `free` (no choices: any value), `novalue` (a switch: no value), `dynamic` (choices
 * computed at run time) or `static` (with the values); then, per value of the schema's enum, the first release that accepts it (none when the
 * first release with the property does), the releases after that which refuse it again, and the
 * upstream values the schema's enum lacks. Undefined for a property without an enum; `notCovered`
 * when its values cannot be read.
 */
function megatronEnumFacts(key, prop, releases) {
  const values = prop.enum ?? prop.items?.enum;
  if (!values) return undefined;
  const source = sourceOf(prop);
  if (source === 'config') return { key, notCovered: 'no command-line flag (x-cli: false): its values are not argparse choices' };
  const names = source ? spellings(prop) : [];
  if (!source || names.length === 0) return { key, notCovered: 'entry point not read by this script' };
  const states = releases.map((r) => {
    const present = names.filter((n) => r.flags[source]?.has(n));
    if (present.length === 0) return { version: r.version, kind: 'absent' };
    // A spelling without a value (store_const, store_false) says nothing about the values of another.
    const all = present.map((n) => r.choices[source]?.get(n));
    const infos = all.filter((c) => c && !c.novalue);
    if (infos.length === 0) return { version: r.version, kind: all.some((c) => !c) ? 'free' : 'novalue' };
    const dyn = infos.find((c) => c.dynamic);
    if (dyn) return { version: r.version, kind: 'dynamic', text: dyn.dynamic };
    return { version: r.version, kind: 'static', values: new Set(infos.flatMap((c) => c.values)), viaEnum: infos.find((c) => c.viaEnum)?.viaEnum };
  });
  states.forEach((st, i) => (st.nextVersion = states[i + 1]?.version));
  const present = states.filter((s) => s.kind !== 'absent');
  if (present.length === 0) return { key, notCovered: 'no release compared has the flag' };
  const accepts = (s, v) => (s.kind === 'free' ? true : s.kind === 'novalue' ? false : s.kind === 'dynamic' ? undefined : s.values.has(v));
  const facts = { key, source, names, states: present, values: {}, extra: [] };
  for (const raw of values) {
    const v = enumText(raw);
    const a = present.map((s) => accepts(s, v));
    const first = a.indexOf(true);
    const f = { value: v };
    if (first < 0) f.never = true;
    else if (first > 0) {
      if (a.slice(0, first).some((x) => x === undefined)) f.uncertain = `choices unread (${present.find((s) => s.kind === 'dynamic').text}) before ${present[first].version}`;
      else f.since = present[first].version;
    }
    // Refused again after it was accepted: the first release of each such run.
    f.removedIn = present.filter((s, i) => i > first && first >= 0 && a[i] === false && a[i - 1] !== false).map((s) => s.version);
    f.backIn = present.filter((s, i) => i > first && first >= 0 && a[i] === true && a[i - 1] === false).map((s) => s.version);
    facts.values[v] = f;
  }
  // Values some release accepts that the schema's enum does not list.
  const listed = new Set(values.map(enumText));
  const upstream = new Map();
  for (const s of present) if (s.kind === 'static') for (const v of s.values) if (!listed.has(v)) (upstream.get(v) ?? upstream.set(v, []).get(v)).push(s.version);
  facts.extra = [...upstream].map(([v, vs]) => {
    const last = present.findIndex((s) => s.version === vs.at(-1));
    return { value: v, releases: vs, removedIn: present[last + 1]?.version };
  });
  const newest = present.at(-1);
  facts.newest = newest.kind;
  if (newest.kind === 'dynamic') facts.newestDynamic = newest.text;
  if (newest.kind === 'free') facts.newestFree = true;
  return facts;
}

/**
 * The default of a property at each release that has it: `value` (a literal), `dynamic` (computed,
 * or spellings that disagree) or `absent`. For a flag, argparse's default of its spellings (the
 * `default=`, what the action implies, the dataclass field behind an ArgumentGroupFactory flag);
 * for an `x-cli: false` field, the config dataclass's. Undefined for a property the script does
 * not read.
 */
function megatronDefaultStates(key, prop, releases) {
  const source = sourceOf(prop);
  if (!source) return undefined;
  const names = source === 'config' ? [key] : spellings(prop);
  if (names.length === 0) return undefined;
  return releases.map((r, i) => {
    const base = { version: r.version, nextVersion: releases[i + 1]?.version };
    const present = names.filter((n) => r.flags[source]?.has(n));
    if (present.length === 0) return { ...base, kind: 'absent' };
    const ds = present.map((n) => r.defaults[source]?.get(n));
    const k = ds.findIndex((d) => !d || d.dynamic !== undefined);
    if (k >= 0) return { ...base, kind: 'dynamic', text: ds[k]?.dynamic ?? '(unread)' };
    if (ds.some((d) => JSON.stringify(d.value) !== JSON.stringify(ds[0].value))) return { ...base, kind: 'dynamic', text: `spellings disagree: ${ds.map((d) => JSON.stringify(d.value)).join(' / ')}` };
    return { ...base, kind: 'value', value: ds[0].value };
  });
}

/** A schema default as the snapshot writes it (numbers by their value; no default: None). */
const schemaDefault = (v) => (v === undefined ? null : v instanceof RawNumber ? Number(v.text) : Array.isArray(v) ? v.map(schemaDefault) : v);

/**
 * The defaults each release had, as the tests read them (schemas/history/megatron-defaults.json),
 * and `x-default-before` of every property whose literal default changed: `{ "<release>": value }`,
 * the default of the releases before that one (back to the previous entry); from the last entry on,
 * the schema's `default`. Written only where the newest release's default is the schema's and no
 * release in between is unread; every other difference is printed.
 */
const DEFAULTS_SNAPSHOT = {};
function megatronDefaultChanges(props, releases) {
  const all = releases.map((r) => r.version);
  const report = { written: [], differ: [], uncertain: [] };
  const changes = [];
  let read = 0;
  for (const [key, prop] of Object.entries(props)) {
    const states = megatronDefaultStates(key, prop, releases);
    if (!states) continue;
    const present = states.filter((s) => s.kind !== 'absent');
    if (!present.some((s) => s.kind === 'value')) continue;
    read++;
    DEFAULTS_SNAPSHOT[key] = snapshotRanges(present, (s) => s.value);
    const runs = [];
    for (const s of present) {
      const last = runs.at(-1);
      if (last && last.kind === s.kind && JSON.stringify(last.value) === JSON.stringify(s.value)) last.versions.push(s.version);
      else runs.push({ kind: s.kind, value: s.value, text: s.text, versions: [s.version] });
    }
    const literal = runs.filter((r) => r.kind === 'value');
    // Releases after the last literal default whose default is not read: the schema's default stands for them.
    const newest = literal.at(-1) ?? present.at(-1);
    const have = prop['x-default-before'] && Object.fromEntries(Object.entries(prop['x-default-before']).map(([k, v]) => [k, schemaDefault(v)]));
    let want;
    if (newest.kind === 'value' && JSON.stringify(newest.value) !== JSON.stringify(schemaDefault(prop.default))) {
      report.differ.push(`${key}: schema default ${JSON.stringify(schemaDefault(prop.default))}, ${newest.versions?.at(-1) ?? newest.version} ${JSON.stringify(newest.value)}`);
      want = have;
    } else if (literal.length > 1 && runs.some((r, i) => r.kind === 'dynamic' && i > 0 && i < runs.indexOf(literal.at(-1)))) {
      report.uncertain.push(`${key}: ${runs.map((r) => `${r.kind === 'value' ? JSON.stringify(r.value) : `(${r.text})`} in ${ranges(r.versions, all)}`).join('; ')}`);
      want = have;
    } else if (newest.kind === 'value' && literal.length > 1) {
      want = {};
      for (let i = 0; i + 1 < runs.indexOf(literal.at(-1)) + 1; i++) if (runs[i].kind === 'value') want[runs[i + 1].versions[0]] = runs[i].value;
      report.written.push(`${key}: ${runs.map((r) => `${r.kind === 'value' ? JSON.stringify(r.value) : `(${r.text})`} in ${ranges(r.versions, all)}`).join('; ')}`);
    }
    if (JSON.stringify(want) !== JSON.stringify(have)) changes.push({ key, field: 'x-default-before', from: have, to: want, why: 'the default of the releases before each one named', set: () => setKey(prop, 'x-default-before', want, AFTER['x-default-before']) });
  }
  console.log(`\nDefaults (${read} properties with a literal default in some release):`);
  for (const [title, list] of [
    ['defaults that changed between releases (x-default-before)', report.written],
    ['the newest release read differs from the schema default (left as it is)', report.differ],
    ['changed with unread releases in between (left as it is)', report.uncertain],
  ]) {
    console.log(`  ${title} (${list.length}):`);
    for (const l of VERBOSE || list !== report.differ ? list : list.slice(0, 40)) console.log(`    ${l}`);
  }
  return changes;
}

/** The training-layer sections of Megatron Bridge, whose fields Bridge's own loop reads (or not). */
const BRIDGE_TRAINING_SECTIONS = ['train', 'checkpoint', 'logger', 'scheduler', 'dist', 'profiling', 'rerun_state_machine', 'straggler', 'validation', 'rng'];

/** x-bridge-unread of every property: its Bridge paths in those sections that no code reads by name. */
function bridgeUnreadChanges(bridgeDir, megatronDir, schema) {
  const src = schema['x-source'];
  const used = (dir, rev, field, paths) => {
    const out = git(dir, 'grep', '-l', '-E', `(\\.${field}\\b|["']${field}["'])`, rev, '--', ...paths);
    return !!out && out.trim().length > 0;
  };
  const changes = [];
  const unread = [];
  for (const [key, prop] of Object.entries(schema.properties)) {
    const paths = (prop['x-bridge'] ?? []).filter((b) => BRIDGE_TRAINING_SECTIONS.includes(b.split('.')[0]));
    const dead = paths.filter((b) => {
      const field = b.split('.').at(-1);
      return !used(bridgeDir, src.bridgeCommit, field, ['src/megatron/bridge', ':(exclude,glob)**/recipes/**']) && !used(megatronDir, src.bridgeMegatronCommit, field, ['megatron/core']);
    });
    unread.push(...dead);
    const have = prop['x-bridge-unread'];
    const want = dead.length ? dead : undefined;
    if (JSON.stringify(have) !== JSON.stringify(want)) changes.push({ key, field: 'x-bridge-unread', from: have, to: want, why: 'no reader of the Bridge field in Bridge (recipes aside) or Megatron Core', set: () => (want ? setKey(prop, 'x-bridge-unread', want, ['x-bridge']) : delete prop['x-bridge-unread']) });
  }
  console.log(`\nBridge fields of the training-layer sections nothing reads (${unread.length}):`);
  for (const u of unread) console.log(`  ${u}`);
  return changes;
}

/**
 * x-bridge-enum of the fields Megatron Bridge reads as callables, whose values in a Megatron-LM
 * `--yaml-cfg` file are names its yaml loader knows (x-cli: false with an enum): Bridge turns a
 * string override into a callable only for the fields of `_SERIALIZABLE_CALLABLE_FIELDS`
 * (training/utils/omegaconf_utils.py), by the names of `ACTIVATION_FUNC_MAP`
 * (utils/activation_map.py); any other string is kept as written. So the values Bridge reads are
 * those names, or none.
 */
function bridgeEnumChanges(bridgeDir, schema) {
  const rev = schema['x-source'].bridgeCommit;
  const utils = show(bridgeDir, rev, 'src/megatron/bridge/training/utils/omegaconf_utils.py') ?? '';
  const fields = new Set(/_SERIALIZABLE_CALLABLE_FIELDS[^=]*=\s*frozenset\(\{([^}]*)\}/.exec(utils)?.[1].match(/["'][A-Za-z_]+["']/g)?.map((x) => x.slice(1, -1)) ?? []);
  const map = show(bridgeDir, rev, 'src/megatron/bridge/utils/activation_map.py') ?? '';
  const names = [];
  for (const block of map.matchAll(/ACTIVATION_FUNC_MAP(?:\s*:[^=]*)?\s*=\s*\{([^}]*)\}|ACTIVATION_FUNC_MAP\.update\(\s*\{([^}]*)\}/g))
    for (const m of (block[1] ?? block[2]).matchAll(/^\s*["']([A-Za-z0-9_.]+)["']\s*:/gm)) names.push(m[1]);
  const changes = [];
  for (const [key, prop] of Object.entries(schema.properties)) {
    if (prop['x-cli'] !== false || !prop.enum || !(prop['x-bridge'] ?? []).length) continue;
    const want = fields.has(key) ? names : [];
    if (JSON.stringify(prop['x-bridge-enum']) !== JSON.stringify(want))
      changes.push({ key, field: 'x-bridge-enum', from: prop['x-bridge-enum'], to: want, why: fields.has(key) ? 'the names of ACTIVATION_FUNC_MAP, which Bridge restores for this field' : 'Bridge keeps a string written here as it is', set: () => setKey(prop, 'x-bridge-enum', want, ['x-bridge']) });
  }
  console.log(`\nBridge: callable fields restored from a name (${[...fields].join(', ') || 'none read'}), ${names.length} names`);
  return changes;
}

/**
 * The choices of each release, as the tests read them without a checkout
 * (schemas/history/megatron-choices.json): per argument, runs of releases with the same state.
 */
const CHOICES_SNAPSHOT = {};
function snapshotRanges(states, valueOf) {
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

/** Releases as ranges: `0.4.0–0.9.0, 0.12.0`. */
function ranges(versions, all) {
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

/** Sets obj[key], placing a new key right after the first of `after` that obj has (in place). */
function setKey(obj, key, value, after = []) {
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
const AFTER = {
  'x-since': ['x-group'],
  'x-flag-since': ['x-since', 'x-group'],
  'x-enum-since': ['x-since', 'x-group'],
  'x-enum-removed': ['x-enum-since', 'x-since', 'x-group'],
  'x-default-before': ['x-default-note', 'default', 'markdownEnumDescriptions', 'enum', 'items', 'type'],
  items: ['type'],
  deprecated: ['default', 'markdownEnumDescriptions', 'enum', 'items', 'type'],
  'x-deprecated': ['x-removed', 'x-flag-since', 'x-since', 'x-group'],
};

// Facts checked by hand against upstream. `x-since` / `x-flag-since`: the value the schema keeps
// or gets where the static read disagrees; `apply`: other corrections, each returning the changes
// it would make (none once applied).
const change = (key, field, from, to, why, set) => (JSON.stringify(from) === JSON.stringify(to) ? [] : [{ key, field, from, to, why, set }]);
const setProp = (p, key, field, to, why) => change(key, field, p[field], to, why, () => setKey(p, field, to, AFTER[field]));
const deprecatedSince = (version, why) => ({
  apply: (p, key) => change(key, 'x-deprecated.since', p['x-deprecated']?.since, version, why, () => (p['x-deprecated'].since = version)),
});
const CUDA_GRAPH_SCOPE_MESSAGE = 'Renamed to `cuda_graph_modules`: the old field is copied into it with a deprecation warning, and setting both aborts.';
const MEGATRON_RESOLVED = {
  // The dest `enable_msc` arrived in 0.13.0 behind `--disable-msc` (store_false); the `--enable-msc`
  // spelling in 0.18.0, which `x-flag-since` records. x-since dates the argument, not the spelling.
  enable_msc: { 'x-since': '0.13.0', why: 'dest enable_msc since 0.13.0 (via --disable-msc); --enable-msc dated by x-flag-since' },
  // `'--save-interval', '--persistent-save-interval'` in one add_argument call from 0.9.0 on.
  save_interval: { 'x-flag-since': { '--persistent-save-interval': '0.9.0' }, why: 'alias added in 0.9.0' },
  // 0.16.0 builds the flag from ModelParallelConfig (default True: --no-… and --disable-…).
  async_tensor_model_parallel_allreduce: { 'x-flag-since': { '--disable-async-tensor-model-parallel-allreduce': '0.16.0' }, why: 'ArgumentGroupFactory spelling from 0.16.0' },
  // validate_args at core_v0.4.0 already exits on --checkpoint-activations and asserts that
  // --batch-size, --warmup and --model-parallel-size are unset; it turns
  // --use-rotary-position-embeddings into rope and raises on --no-position-embedding without rope.
  checkpoint_activations: deprecatedSince('0.4.0', 'exits in validate_args at core_v0.4.0'),
  batch_size: deprecatedSince('0.4.0', 'asserted unset in validate_args at core_v0.4.0'),
  warmup: deprecatedSince('0.4.0', 'asserted unset in validate_args at core_v0.4.0'),
  model_parallel_size: deprecatedSince('0.4.0', 'asserted unset in validate_args at core_v0.4.0'),
  use_rotary_position_embeddings: deprecatedSince('0.4.0', 'turned into --position-embedding-type rope at core_v0.4.0'),
  add_position_embedding: deprecatedSince('0.4.0', 'raises without rope at core_v0.4.0'),
  // core_v0.8.0: --use-mcore-models gets dest deprecated_use_mcore_models (ignored, --use-legacy-models
  // added) and --ckpt-fully-parallel-save dest ckpt_fully_parallel_save_deprecated (a notice).
  deprecated_use_mcore_models: deprecatedSince('0.8.0', 'dest deprecated_use_mcore_models, ignored, from core_v0.8.0'),
  ckpt_fully_parallel_save_deprecated: deprecatedSince('0.8.0', 'notice-only from core_v0.8.0'),
  // core_v0.9.0: --use-dist-ckpt / --dist-ckpt-format get *_deprecated dests and only print a notice.
  use_dist_ckpt_deprecated: deprecatedSince('0.9.0', 'notice-only from core_v0.9.0 (--ckpt-format)'),
  dist_ckpt_format_deprecated: deprecatedSince('0.9.0', 'notice-only from core_v0.9.0 (--ckpt-format)'),
  // Bridge's GPT and hybrid providers have no max_position_embeddings: GPTModel/HybridModel get
  // max_sequence_length=self.seq_length (gpt_provider.py, hybrid_provider.py), and
  // translate_mlm_to_bridge.py --reverse derives --max-position-embeddings from model.seq_length.
  // T5ModelProvider still has model.max_position_embeddings.
  max_position_embeddings: {
    apply: (p, key) => [
      ...change(key, 'x-bridge', p['x-bridge'], ['model.seq_length', 'model.max_position_embeddings'], 'GPT/hybrid providers size the position table by seq_length', () => (p['x-bridge'] = ['model.seq_length', 'model.max_position_embeddings'])),
      ...(() => {
        const md = 'Maximum sequence positions the model supports. Required by Megatron and must be ≥ `--seq-length`. Megatron Bridge\'s GPT and hybrid providers have no such field: the position table is sized by `model.seq_length` (T5 keeps `model.max_position_embeddings`). NeMo writes it under `model:`.\n\n`--max-position-embeddings`  \nMegatron Bridge: `model.seq_length` (GPT, hybrid), `model.max_position_embeddings` (T5)  \nNeMo: `model.max_position_embeddings`';
        return change(key, 'markdownDescription', p.markdownDescription, md, 'Bridge paths', () => (p.markdownDescription = md));
      })(),
    ],
  },
  // TransformerConfig.cuda_graph_scope: a str from core_v0.12.0, also a list from core_v0.16.0
  // (Union[str, CudaGraphScope, List[...]]); core_v0.18.0 renames it cuda_graph_modules and
  // __post_init__ migrates the old field with a DeprecationWarning (both set: assertion).
  cuda_graph_scope: {
    apply: (p, key) => {
      const want = {
        description: 'Old name of cuda_graph_modules (a module name or a list of them); migrated with a warning.',
        markdownDescription: `**Deprecated.** ${CUDA_GRAPH_SCOPE_MESSAGE}\n\nParts of each layer captured in per-layer CUDA graphs: one name or a list (\`attn\`, \`mlp\`, \`moe\`, \`moe_router\`, \`moe_preprocess\`, \`mamba\`; \`full\` = the whole layer). A list is accepted from Megatron Core 0.16.0.\n\nno command-line flag · since Megatron Core 0.12.0  \nMegatron Bridge: \`model.cuda_graph_scope\``,
        type: ['array', 'string'],
        items: { type: 'string' },
        deprecated: true,
        'x-deprecated': { since: '0.18.0', effect: 'migrated', replacement: 'cuda_graph_modules', message: CUDA_GRAPH_SCOPE_MESSAGE },
      };
      const out = [];
      for (const [k, v] of Object.entries(want)) out.push(...setProp(p, key, k, v, 'TransformerConfig at core_v0.16.0 / core_v0.18.0'));
      return out;
    },
  },
};

/**
 * x-enum-since of every property with an enum: prints what the choices of each release say, and
 * returns the entries to add (a value the schema does not date yet and that arrived after its
 * flag). An entry the schema has and the read disagrees with is printed, never changed.
 */
function megatronEnumChanges(props, releases) {
  const all = releases.map((r) => r.version);
  const report = { added: [], agree: [], disagree: [], uncertain: [], removed: [], extra: [], free: [], dynamic: [], notCovered: [] };
  const changes = [];
  let read = 0;
  for (const [key, prop] of Object.entries(props)) {
    const f = megatronEnumFacts(key, prop, releases);
    if (!f) continue;
    if (f.notCovered) {
      report.notCovered.push(`${key}: ${f.notCovered}`);
      continue;
    }
    const free = f.states.filter((s) => s.kind === 'free').map((s) => s.version);
    const novalue = f.states.filter((s) => s.kind === 'novalue').map((s) => s.version);
    if (novalue.length) report.free.push(`${key}: a switch taking no value in ${ranges(novalue, all)}`);
    const dynamic = f.states.filter((s) => s.kind === 'dynamic');
    if (free.length) report.free.push(`${key}: no choices in ${ranges(free, all)}${f.newestFree ? ' (the newest release included: the enum is not from argparse)' : ''}`);
    if (dynamic.length) report.dynamic.push(`${key}: choices computed at run time in ${ranges(dynamic.map((s) => s.version), all)} (${[...new Set(dynamic.map((s) => s.text))].join('; ')})`);
    if (f.states.every((s) => s.kind !== 'static')) {
      report.notCovered.push(`${key}: no release has static choices`);
      continue;
    }
    read++;
    CHOICES_SNAPSHOT[key] = snapshotRanges(f.states);
    const viaEnum = f.states.find((s) => s.viaEnum)?.viaEnum;
    if (viaEnum) report.free.push(`${key}: choices are the members of ${viaEnum} in ${ranges(f.states.filter((s) => s.viaEnum).map((s) => s.version), all)}`);
    const have = prop['x-enum-since'] ?? {};
    const want = { ...have };
    const firstVersion = f.states[0].version;
    for (const [v, x] of Object.entries(f.values)) {
      if (x.removedIn.length) report.removed.push(`${key}: ${JSON.stringify(v)} refused again from ${x.removedIn.join(', ')}${x.backIn.length ? ` (accepted again from ${x.backIn.join(', ')})` : ''}`);
      if (x.never) {
        report.disagree.push(`${key}: ${JSON.stringify(v)} is in the schema's enum but no release compared accepts it`);
        continue;
      }
      if (x.uncertain) {
        report.uncertain.push(`${key}: ${JSON.stringify(v)}: ${x.uncertain}${have[v] ? ` (schema ${have[v]})` : ''}`);
        continue;
      }
      if (have[v] === x.since) {
        if (x.since) report.agree.push(`${key}: ${JSON.stringify(v)} ${x.since}`);
        continue;
      }
      if (have[v] === undefined) {
        want[v] = x.since;
        report.added.push(`${key}: ${JSON.stringify(v)} since ${x.since} (flag since ${firstVersion === all[0] ? `≤ ${firstVersion}` : firstVersion})`);
      } else report.disagree.push(`${key}: ${JSON.stringify(v)} schema x-enum-since ${have[v]}, first accepted ${x.since ?? `${firstVersion} with the flag (none)`}`);
    }
    for (const v of Object.keys(have)) if (!(v in f.values)) report.disagree.push(`${key}: x-enum-since names ${JSON.stringify(v)}, which is not in the enum`);
    for (const e of f.extra) {
      if (e.removedIn) report.removed.push(`${key}: ${JSON.stringify(e.value)} (not in the enum) accepted in ${ranges(e.releases, all)}, refused from ${e.removedIn}`);
      else report.extra.push(`${key}: ${JSON.stringify(e.value)} accepted in ${ranges(e.releases, all)}, not in the schema's enum`);
    }
    // Values a run of releases accepted and later ones refuse (not in the enum): dated by x-enum-removed,
    // so that a file for one of those releases is not told its value is refused.
    const removedHave = prop['x-enum-removed'] ?? {};
    const removedWant = {};
    for (const e of f.extra) {
      const idx = e.releases.map((v) => all.indexOf(v));
      const contiguous = idx.every((x, i) => i === 0 || x === idx[i - 1] + 1);
      if (!e.removedIn || !contiguous) continue;
      removedWant[e.value] = { ...(e.releases[0] !== all[0] ? { since: e.releases[0] } : {}), removed: e.removedIn };
    }
    if (JSON.stringify(removedWant) !== JSON.stringify(removedHave)) {
      changes.push({ key, field: 'x-enum-removed', from: prop['x-enum-removed'], to: removedWant, why: 'values a run of releases accepted, refused from `removed`', set: () => setKey(prop, 'x-enum-removed', removedWant, AFTER['x-enum-removed']) });
    }
    if (JSON.stringify(want) !== JSON.stringify(have)) {
      // The enum's order; entries for values it no longer lists stay at the end.
      const order = Object.keys(f.values);
      const to = Object.fromEntries(Object.entries(want).sort(([a], [b]) => (order.indexOf(a) + 1 || 1e9) - (order.indexOf(b) + 1 || 1e9)));
      changes.push({ key, field: 'x-enum-since', from: prop['x-enum-since'], to, why: 'first release whose choices accept the value', set: () => setKey(prop, 'x-enum-since', to, AFTER['x-enum-since']) });
    }
  }
  console.log(`\nEnum values (${read} properties with static choices read):`);
  for (const [title, list] of [
    ['x-enum-since to add (first release whose parser accepts the value)', report.added],
    ['x-enum-since the schema has and the read confirms', report.agree],
    ['x-enum-since disagreements left as they are', report.disagree],
    ['values not dated: choices unread before the first release that accepts them', report.uncertain],
    ['values a later release refused again (those not in the enum are dated by x-enum-removed)', report.removed],
    ['values the newest release accepts that the enum does not list', report.extra],
    ['releases whose choices are not a literal list', [...report.free, ...report.dynamic]],
    ['enums not covered', report.notCovered],
  ]) {
    console.log(`  ${title} (${list.length}):`);
    for (const l of list) console.log(`    ${l}`);
  }
  return changes;
}

function megatron(dir, schemaPath) {
  const schema = parseJson(readFileSync(schemaPath, 'utf8'));
  const { releases, problems } = megatronReleases(dir, schema);
  const props = schema.properties;
  console.log(`Megatron-LM: ${releases.length} releases compared (${releases[0].version} … ${releases.at(-1).version} = ${releases.at(-1).rev.slice(0, 12)})`);
  for (const r of releases) console.log(`  ${r.version.padEnd(7)} ${r.mainPath}: ${r.flags.main.size} flags (${r.dynamic.size} from dataclasses)${Object.entries(r.flags).filter(([k]) => k !== 'main').map(([k, v]) => `, ${k} ${v.size}`).join('')}`);
  for (const p of problems) console.log(`  note: ${p}`);

  const changes = [];
  const newlyDated = {};
  const disagreements = [];
  const undatable = [];
  const removedIssues = [];
  const flagSinceIssues = [];
  for (const [key, prop] of Object.entries(props)) {
    const f = megatronFacts(key, prop, releases);
    if (!f) continue;
    const firstOf = (name) => {
      const k = releases.findIndex((r) => r.flags[f.source]?.has(name));
      return k <= 0 ? undefined : releases[k].version;
    };
    const resolved = MEGATRON_RESOLVED[key];
    if (f.never) {
      if (!prop['x-removed'] || compareVersions(prop['x-removed'].version, releases[0].version) > 0) undatable.push(`${key} (${f.names.join(', ')}, ${f.source})`);
      continue;
    }
    if (f.gaps.length) disagreements.push({ key, kind: 'gap', detail: `${f.names.join(', ')} absent in ${f.gaps.join(', ')} between releases that have it` });
    // x-since
    const cur = prop['x-since'];
    if (cur !== f.since) {
      const entry = { key, kind: 'x-since', schema: cur ?? '(none)', computed: f.since ?? '(none)', flags: f.names.join(', '), source: f.source, dynamicOnly: f.dynamicOnly };
      if (resolved && 'x-since' in resolved) {
        if (resolved['x-since'] !== cur) changes.push({ key, field: 'x-since', from: cur, to: resolved['x-since'], why: resolved.why });
      } else if (!cur && f.since && compareVersions(f.since, '0.13.0') < 0) {
        changes.push({ key, field: 'x-since', from: cur, to: f.since, why: 'first release with the flag' });
        (newlyDated[f.since] ??= []).push(key);
      } else disagreements.push(entry);
    }
    // x-flag-since: per spelling, where it is later than the property
    const fsSchema = prop['x-flag-since'] ?? {};
    for (const name of new Set([...Object.keys(fsSchema), ...Object.keys(f.flagSince)])) {
      // A spelling the schema dates later than its property's x-since because the property's dest
      // came first under another flag: later than the computed first, so computed from the flag itself.
      const want = f.flagSince[name] ?? (fsSchema[name] && f.present.length && name !== undefined ? firstOf(name) : undefined);
      if (fsSchema[name] !== want) {
        const r = resolved?.['x-flag-since']?.[name];
        if (r !== undefined) {
          if (r !== fsSchema[name]) changes.push({ key, field: 'x-flag-since', flag: name, from: fsSchema[name], to: r, why: resolved.why });
        } else flagSinceIssues.push(`${key}: ${name} schema ${fsSchema[name] ?? '(none)'}, computed ${want ?? '(none)'}`);
      }
    }
    // x-removed
    const rem = prop['x-removed']?.version;
    if (rem !== f.removed) {
      const entry = { key, kind: 'x-removed', schema: rem ?? '(none)', computed: f.removed ?? '(none)', lastHad: f.lastHad, flags: f.names.join(', ') };
      if (resolved && 'x-removed' in resolved) {
        if (resolved['x-removed'] !== rem) changes.push({ key, field: 'x-removed', from: rem, to: resolved['x-removed'], why: resolved.why });
      } else removedIssues.push(entry);
    }
  }
  for (const [key, r] of Object.entries(MEGATRON_RESOLVED)) if (r.apply) changes.push(...r.apply(props[key], key));

  console.log('\nNewly dated flags (no x-since in the schema, first release below 0.13.0):');
  let total = 0;
  for (const v of Object.keys(newlyDated).sort(compareVersions)) {
    total += newlyDated[v].length;
    console.log(`  ${v}: ${newlyDated[v].length}${VERBOSE ? `  ${newlyDated[v].join(' ')}` : ''}`);
  }
  console.log(`  total: ${total}`);
  console.log(`\nx-since disagreements left as they are (${disagreements.length}):`);
  for (const d of disagreements) console.log(`  ${d.key}: ${d.kind === 'gap' ? d.detail : `schema ${d.schema}, static read ${d.computed} (${d.flags}; ${d.source}${d.dynamicOnly ? '; only from dataclasses' : ''})`}`);
  console.log(`\nx-removed disagreements left as they are (${removedIssues.length}):`);
  for (const d of removedIssues) console.log(`  ${d.key}: schema ${d.schema}, computed ${d.computed} (last in ${d.lastHad}; ${d.flags})`);
  console.log(`\nx-flag-since disagreements left as they are (${flagSinceIssues.length}):`);
  for (const d of flagSinceIssues) console.log(`  ${d}`);
  console.log(`\nFlags no release compared has (${undatable.length}):`);
  for (const u of undatable) console.log(`  ${u}`);

  changes.push(...megatronEnumChanges(props, releases));
  changes.push(...megatronDefaultChanges(props, releases));
  if (bridgeDir) changes.push(...bridgeUnreadChanges(bridgeDir, dir, schema), ...bridgeEnumChanges(bridgeDir, schema));

  const method = 'Version facts (x-since, x-flag-since, x-removed, x-enum-since): from 0.13.0 on, the argparse parser of each tag was built by running add_megatron_arguments() with the heavy imports stubbed and every action was dumped (flags, dest, type, nargs, default, choices, group); every tag from 0.4.0 (0.4.0 to 0.12.3 dated by this alone) is also read statically by scripts/schema-history.mjs (the add_argument string literals of megatron/training/arguments.py, megatron/arguments.py before 0.6.0, the flags ArgumentGroupFactory derives from the config dataclasses from 0.16.0, the entry-point helpers for x-entrypoints flags, and the TransformerConfig/ModelParallelConfig fields for x-cli: false); from 0.13.0 on the two agree. x-enum-since dates a value by the first release whose parser accepts it, read the same way: a literal choices list, a Literal[...] annotation or the members of an Enum of the dataclass field behind the flag. TransformerConfig fields come from the dataclasses; Bridge paths from the ConfigContainer dataclasses and translate_mlm_to_bridge.py; descriptions are written for Shardwise.';
  // What follows the part this script writes (the NeMo key sources) is kept.
  const end = 'descriptions are written for Shardwise.';
  const had = schema['x-source'].method ?? '';
  const full = method + (had.includes(end) ? had.slice(had.indexOf(end) + end.length) : '');
  if (had !== full) changes.push({ key: 'x-source', field: 'method', from: had, to: full, why: 'how the version facts were computed' });
  const tags = releases.slice(0, -1).map((r) => r.version);
  if (JSON.stringify(schema['x-source'].tagsCompared) !== JSON.stringify(tags)) changes.push({ key: 'x-source', field: 'tagsCompared', from: schema['x-source'].tagsCompared.join(', '), to: tags, why: 'every final release compared' });
  return { schema, changes, path: schemaPath };
}

// ------------------------------------------------------------------------------------------------
// DeepSpeed: the keys the config code of every release reads

/** Reads many blobs with one `git cat-file --batch`. */
function readBlobs(dir, ids) {
  const out = new Map();
  const todo = ids.filter((id) => !blobCache.has(id));
  for (let i = 0; i < todo.length; i += 2000) {
    const chunk = todo.slice(i, i + 2000);
    const buf = execFileSync('git', ['--git-dir', dir, 'cat-file', '--batch'], { input: chunk.join('\n') + '\n', maxBuffer: 1 << 30 });
    let at = 0;
    for (const id of chunk) {
      const nl = buf.indexOf(10, at);
      const [, , size] = buf.subarray(at, nl).toString().split(' ');
      const start = nl + 1;
      blobCache.set(id, scanBlob(buf.subarray(start, start + Number(size)).toString('utf8')));
      at = start + Number(size) + 1;
    }
  }
  for (const id of ids) out.set(id, blobCache.get(id));
  return out;
}
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
  return { literals, fields, ...classesOf(stmts), refs: new Set(toks.filter((t, j) => t.t === 'name' && toks[j - 1]?.v !== 'class').map((t) => t.v)) };
}

/**
 * The top-level classes of a module: name → `{ bases, extra }`, `extra` the pydantic setting for
 * unknown keys its body writes (`extra = "forbid"` in `class Config`, `extra="forbid"` in
 * `model_config = ConfigDict(...)`), undefined when it writes none.
 */
function classesOf(stmts) {
  const classes = new Map();
  let cur = null;
  for (const st of stmts) {
    const t = st.toks;
    if (st.indent === 0) {
      cur = null;
      if (t[0]?.v === 'class' && t[1]?.t === 'name') {
        const bases = t[2]?.v === '(' ? t.slice(3, closing(t, 2)).filter((x, j, a) => x.t === 'name' && a[j + 1]?.v !== '.' && a[j + 1]?.v !== '=').map((x) => x.v) : [];
        classes.set(t[1].v, (cur = { bases, extra: undefined }));
      }
      continue;
    }
    if (!cur) continue;
    for (let j = 0; j + 2 < t.length; j++) if (t[j].v === 'extra' && t[j + 1].v === '=' && t[j + 2].t === 'str') cur.extra = t[j + 2].v;
  }
  return { classes };
}

// The files whose literals count as "read by the config code".
const isConfigFile = (p) => p.endsWith('.py') && (p === 'deepspeed/__init__.py' || p.startsWith('deepspeed/runtime/') || /(^|\/)(constants|config|config_utils|[a-z_]*_config)\.py$/.test(p) || p.startsWith('deepspeed/monitor/') || p.startsWith('deepspeed/comm/'));

let DEEPSPEED_RELEASES = [];
function deepspeedReleases(dir) {
  const releases = releaseTags(dir, 'v', '0.3.0');
  // Keys on master that no release has yet: the version master announces (version.txt).
  const master = git(dir, 'show', 'refs/heads/master:version.txt')?.trim();
  if (master && compareVersions(master, releases.at(-1).version) > 0) releases.push({ rev: 'refs/heads/master', version: master });
  for (const r of releases) {
    const files = (git(dir, 'ls-tree', '-r', r.rev, '--', 'deepspeed') ?? '').split('\n').filter(Boolean).map((l) => {
      const [meta, path] = l.split('\t');
      return { path, id: meta.split(' ')[2] };
    });
    r.files = new Map(files.filter((f) => isConfigFile(f.path)).map((f) => [f.path, f.id]));
  }
  const all = [...new Set(releases.flatMap((r) => [...r.files.values()]))];
  readBlobs(dir, all);
  DEEPSPEED_RELEASES = releases.map((r) => r.version);
  return releases;
}

/** Every property of the schema, by dotted path (allOf/then/anyOf branches merged). */
function schemaKeys(schema) {
  const out = new Map();
  const walk = (node, path, holder) => {
    if (!node || typeof node !== 'object') return;
    if (node.$ref?.startsWith('#/definitions/')) walk(schema.definitions?.[node.$ref.slice(14)], path, holder);
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
// DeepSpeed strictness: which releases refuse an unknown key in a section

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

/** Per section of SECTION_MODELS: per release, `strict` (unknown keys refused) or `lenient`. */
const STRICTNESS_SNAPSHOT = {};
function deepspeedStrictness(releases, schema) {
  const keys = schemaKeys(schema);
  const report = [];
  const changes = [];
  for (const [section, { cls, files = () => true }] of Object.entries(SECTION_MODELS)) {
    const match = typeof files === 'function' ? files : (p) => files.test(p);
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
      const kind = home && used && forbids(cls) ? 'strict' : 'lenient';
      return { version: r.version, nextVersion: releases[i + 1]?.version, kind };
    });
    STRICTNESS_SNAPSHOT[section] = snapshotRanges(states).map(({ kind, ...r }) => ({ ...r, strict: kind === 'strict' }));
    const prop = keys.get(section)?.[0];
    if (!prop) continue;
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
  console.log(`\nStrictness of the sections read by a pydantic model (${Object.keys(SECTION_MODELS).length}):`);
  for (const [section, runs] of Object.entries(STRICTNESS_SNAPSHOT)) console.log(`  ${section}: ${runs.map((r) => `${r.strict ? 'strict' : 'lenient'} ${r.from}–${r.to}`).join(', ')}`);
  console.log(`  disagreements with the schema (${report.length}):`);
  for (const l of report) console.log(`    ${l}`);
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
  // torch_autocast is parsed in runtime/torch_autocast.py / runtime/config.py whose "enabled"
  // literal belongs to other sections too: the schema's 0.17.2 stands.
  'torch_autocast.enabled': { 'x-since': '0.17.2', why: 'generic literal; the section arrived in v0.17.2' },
};
const DS_SINCE_BEFORE = ['x-default-note', 'x-invalid-effect', 'x-auto', 'x-normalize', 'x-requires-stage', 'x-alias-of', 'deprecated', 'x-deprecated', 'properties', 'if', 'allOf'];

/** Sets obj[key] (undefined: deletes it), placing a new key before the first of `before` obj has. */
function setKeyBefore(obj, key, value, before) {
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

function deepspeed(dir, schemaPath) {
  const schema = parseJson(readFileSync(schemaPath, 'utf8'));
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
      if (resolved && 'deprecatedSince' in resolved && resolved.deprecatedSince !== dep.since)
        changes.push({ key: dotted, field: 'x-deprecated.since', from: dep.since, to: resolved.deprecatedSince, why: resolved.why, set: () => props.forEach((p) => p['x-deprecated'] && setKeyBefore(p['x-deprecated'], 'since', resolved.deprecatedSince, ['effect'])) });
    }
  }
  changes.push(...deepspeedOptimizerChanges(dir, releases, schema));
  changes.push(...deepspeedStrictness(releases, schema));
  for (const [title, list] of [
    ['corrected by hand (DEEPSPEED_RESOLVED)', report.resolved],
    ['x-since disagreements left as they are', report.disagree],
    ['x-since added (first read after v0.3.0 and after its section)', report.added],
    ['deprecated keys', report.deprecated],
    ['keys with version facts not judged (name too common for the files searched)', report.unjudged],
    ['keys no release reads by that literal (passed through, or read under another name)', report.never],
  ]) {
    console.log(`\n${title} (${list.length}):`);
    for (const l of list) console.log(`  ${l}`);
  }
  console.log(`\nkeys first read in the release their section arrived in (no x-since needed): ${report.sameAsSection}`);
  return { schema, changes, path: schemaPath };
}

/**
 * `optimizer.type`: DeepSpeed builds its own optimizers by the lower-cased names of
 * DEEPSPEED_OPTIMIZERS (runtime/config.py, each a constant of that file); any other name must be a
 * torch.optim class (`getattr(torch.optim, name)`), else the engine asserts it is not supported. A
 * name of DeepSpeed's own is accepted from the release that lists it: in lower case always; in the
 * schema's spelling unless torch.optim has a class of that name (which older releases build instead).
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
  for (const [value, version] of [...first].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    if (!version) continue;
    want[value] = version;
    const spelled = spellings.find((x) => x.toLowerCase() === value);
    if (spelled && spelled !== value && !TORCH_OPTIMIZERS.has(spelled)) want[spelled] = version;
  }
  const to = Object.keys(want).length ? Object.fromEntries(Object.entries(want).sort((a, b) => (a[0].toLowerCase() < b[0].toLowerCase() ? -1 : a[0].toLowerCase() > b[0].toLowerCase() ? 1 : a[0] < b[0] ? -1 : 1))) : undefined;
  if (JSON.stringify(prop['x-enum-since']) === JSON.stringify(to)) return [];
  return [{ key: 'optimizer.type', field: 'x-enum-since', from: prop['x-enum-since'], to, why: 'first release whose DEEPSPEED_OPTIMIZERS lists the name', set: () => (to ? setKey(prop, 'x-enum-since', to, ['x-invalid-effect']) : delete prop['x-enum-since']) }];
}

// ------------------------------------------------------------------------------------------------
// Accelerate: the keys the config file and the launcher of every release read

// The sections of a cluster config whose keys the launcher copies onto its arguments, with the
// prefix it adds to a key written without it (from the release whose launcher adds it).
const ACCELERATE_SECTIONS = {
  fsdp_config: { prefix: 'fsdp_', unlessStartsWith: 'fsdp' },
  fp8_config: { prefix: 'fp8_', unlessStartsWith: 'fp8' },
  dynamo_config: { prefix: 'dynamo_', unlessStartsWith: 'dynamo_' },
  deepspeed_config: {},
  megatron_lm_config: {},
  parallelism_config: {},
  mpirun_config: {},
};

/**
 * Per release: the fields of the config dataclasses (src/accelerate/commands/config/config_args.py:
 * BaseConfig with ClusterConfig, with SageMakerConfig), the dests of `accelerate launch`'s flags
 * (src/accelerate/commands/launch.py), and the sections whose prefix the launcher adds
 * (`"fsdp_" + key`).
 */
function accelerateReleases(dir) {
  const releases = releaseTags(dir, 'v', '0.2.0');
  for (const r of releases) {
    const cfg = show(dir, r.rev, 'src/accelerate/commands/config/config_args.py') ?? '';
    const constants = new Map();
    for (const st of statements(tokenize(show(dir, r.rev, 'src/accelerate/utils/constants.py') ?? ''))) {
      const t = st.toks;
      if (st.indent === 0 && t[0]?.t === 'name' && t[1]?.v === '=') {
        const d = literalDefault(t.slice(2));
        if (d.dynamic === undefined) constants.set(t[0].v, d);
      }
    }
    const classes = new Map();
    let cur = null;
    for (const st of statements(tokenize(cfg))) {
      const t = st.toks;
      if (st.indent === 0) {
        cur = t[0]?.v === 'class' && t[1]?.t === 'name' ? { bases: t[2]?.v === '(' ? t.slice(3, closing(t, 2)).filter((x) => x.t === 'name').map((x) => x.v) : [], fields: new Set(), defaults: new Map() } : null;
        if (cur) classes.set(t[1].v, cur);
      } else if (cur && t[0]?.t === 'name' && t[1]?.v === ':' && !['def', 'class', 'async'].includes(t[0].v)) {
        cur.fields.add(t[0].v);
        const eq = t.findIndex((x, j) => j > 1 && x.v === '=' && depthAt(t, j) === 0);
        const value = t.slice(eq + 1);
        // A module-level constant of the package (utils/constants.py): its literal value.
        const named = value.length === 1 && value[0].t === 'name' ? constants.get(value[0].v) : undefined;
        cur.defaults.set(t[0].v, eq < 0 ? { dynamic: '(required)' } : named ?? literalDefault(value));
      }
    }
    const fieldsOf = (name, seen = new Set()) => {
      const c = classes.get(name);
      if (!c || seen.has(name)) return [];
      seen.add(name);
      return [...c.bases.flatMap((b) => fieldsOf(b, seen)), ...c.fields];
    };
    r.cluster = new Set(fieldsOf('ClusterConfig'));
    r.sagemaker = new Set(fieldsOf('SageMakerConfig'));
    // The default of each field (a subclass's own over its base's).
    const defaultsOf = (name, seen = new Set()) => {
      const c = classes.get(name);
      if (!c || seen.has(name)) return new Map();
      seen.add(name);
      return new Map([...c.bases.flatMap((b) => [...defaultsOf(b, seen)]), ...c.defaults]);
    };
    r.defaults = { cluster: defaultsOf('ClusterConfig'), sagemaker: defaultsOf('SageMakerConfig') };
    const launch = show(dir, r.rev, 'src/accelerate/commands/launch.py') ?? '';
    const toks = tokenize(launch);
    r.dests = new Set();
    r.prefixed = new Set();
    r.copies = new Set();
    r.copiesAll = false;
    for (let i = 0; i < toks.length; i++) {
      if (toks[i].v === 'add_argument' && toks[i + 1]?.v === '(')
        for (let j = i + 2; toks[j]?.t === 'str'; j += 2) {
          if (toks[j].v.startsWith('--')) r.dests.add(toks[j].v.slice(2).replace(/-/g, '_'));
          if (toks[j + 1]?.v !== ',') break;
        }
      if (toks[i].t === 'str' && toks[i + 1]?.v === '+') for (const [name, sec] of Object.entries(ACCELERATE_SECTIONS)) if (sec.prefix && toks[i].v === sec.prefix) r.prefixed.add(name);
      // The sections whose keys it copies onto its arguments: `defaults.fsdp_config`, `name == "fp8_config"`,
      // or every dict of the config (`for key, value in attr.items()`).
      if (toks[i].v === 'defaults' && toks[i + 1]?.v === '.' && toks[i + 2]?.v in ACCELERATE_SECTIONS) r.copies.add(toks[i + 2].v);
      if (toks[i].t === 'str' && toks[i].v in ACCELERATE_SECTIONS && toks[i - 1]?.v === '==') r.copies.add(toks[i].v);
      if (toks[i].v === 'attr' && toks[i + 1]?.v === '.' && toks[i + 2]?.v === 'items' && toks[i - 1]?.v === 'in') r.copiesAll = true;
    }
  }
  return releases;
}

/**
 * Whether a release reads the key `key` of a section: a field of the config class (cluster,
 * sagemaker); in a section the launcher copies onto its arguments (none before it does: Accelerate
 * writes `fp8_config` from 0.34.0, its launcher reads it from 1.4.0), a flag of that name, or, for a
 * key written without the prefix, the prefixed flag where the launcher adds the prefix.
 */
function accelerateReads(r, def, key) {
  if (def === 'cluster' || def === 'sagemaker') return r[def].has(key);
  const sec = ACCELERATE_SECTIONS[def];
  if (!sec || !r.cluster.has(def) || !(r.copies.has(def) || r.copiesAll)) return false;
  if (sec.prefix && r.prefixed.has(def) && !key.startsWith(sec.unlessStartsWith)) return r.dests.has(sec.prefix + key);
  return r.dests.has(key);
}

/**
 * x-default-before of a field of the config dataclasses whose literal default changed between the
 * releases that read it (from the oldest covered one), where the newest literal default is the
 * schema's `default`; other differences are printed.
 */
function accelerateDefaultChanges(dotted, prop, states, report) {
  const runs = [];
  for (const { version, d } of states.filter((st) => compareVersions(st.version, '0.3.0') >= 0)) {
    const kind = d && d.dynamic === undefined ? 'value' : 'dynamic';
    const last = runs.at(-1);
    if (last && last.kind === kind && JSON.stringify(last.value) === JSON.stringify(d?.value)) continue;
    runs.push({ kind, value: d?.value, from: version });
  }
  const literal = runs.filter((r) => r.kind === 'value');
  if (literal.length < 2) return [];
  const newest = literal.at(-1);
  const have = prop['x-default-before'] && Object.fromEntries(Object.entries(prop['x-default-before']).map(([k, v]) => [k, schemaDefault(v)]));
  if (JSON.stringify(newest.value) !== JSON.stringify(schemaDefault(prop.default)) || runs.slice(0, runs.indexOf(newest)).some((r) => r.kind === 'dynamic')) {
    report.disagree.push(`${dotted}: defaults ${runs.map((r) => `${r.kind === 'value' ? JSON.stringify(r.value) : '(unread)'} from ${r.from}`).join(', ')}; schema default ${JSON.stringify(schemaDefault(prop.default))}`);
    return [];
  }
  const want = {};
  for (let i = 0; i < runs.indexOf(newest); i++) want[runs[i + 1].from] = runs[i].value;
  return JSON.stringify(want) === JSON.stringify(have) ? [] : [{ key: dotted, field: 'x-default-before', from: have, to: want, why: 'the default of the releases before each one named', set: () => setKey(prop, 'x-default-before', want, AFTER['x-default-before']) }];
}

const ACCELERATE_SPELLINGS = {};
let ACCELERATE_RELEASES = [];
function accelerate(dir, schemaPath) {
  const schema = parseJson(readFileSync(schemaPath, 'utf8'));
  const releases = accelerateReleases(dir);
  const all = releases.map((r) => r.version);
  ACCELERATE_RELEASES = all;
  const floor = '0.3.0';
  console.log(`Accelerate: ${releases.length} releases compared (${all[0]} … ${all.at(-1)})`);
  const changes = [];
  const report = { agree: 0, disagree: [], never: [] };
  for (const [def, node] of Object.entries(schema.definitions)) {
    if (!node.properties || !(def in ACCELERATE_SECTIONS || def === 'cluster' || def === 'sagemaker')) continue;
    const sec = ACCELERATE_SECTIONS[def] ?? {};
    for (const [key, prop] of Object.entries(node.properties)) {
      const read = releases.map((r) => accelerateReads(r, def, key));
      // The other spelling of a key of a prefixed section: without the prefix, or with it.
      const stripped = sec.prefix && key.startsWith(sec.prefix) ? key.slice(sec.prefix.length) : undefined;
      const alt = !sec.prefix ? undefined : stripped !== undefined ? (stripped.startsWith(sec.unlessStartsWith) ? undefined : stripped) : key.startsWith(sec.unlessStartsWith) ? undefined : sec.prefix + key;
      const altRead = alt ? releases.map((r) => accelerateReads(r, def, alt)) : undefined;
      const any = read.map((x, i) => x || !!altRead?.[i]);
      const firstAny = any.indexOf(true);
      if (firstAny < 0) {
        report.never.push(`${def}.${key}`);
        continue;
      }
      const lastAny = any.lastIndexOf(true);
      // The floor: keys of the oldest releases are dated by the oldest covered one.
      const dated = (i) => (compareVersions(all[i], floor) < 0 ? floor : all[i]);
      const since = dated(firstAny);
      const removed = lastAny < all.length - 1 ? all[lastAny + 1] : undefined;
      if (prop['x-since'] === since) report.agree++;
      else {
        report.disagree.push(`${def}.${key}: schema ${prop['x-since'] ?? '(none)'}, read ${since}`);
        changes.push({ key: `${def}.${key}`, field: 'x-since', from: prop['x-since'], to: since, why: 'first release that reads the key (either spelling)', set: () => setKey(prop, 'x-since', since, ['x-env', 'default', 'type']) });
      }
      if (def === 'cluster' || def === 'sagemaker') changes.push(...accelerateDefaultChanges(`${def}.${key}`, prop, releases.filter((r, i) => read[i]).map((r) => ({ version: r.version, d: r.defaults[def].get(key) })), report));
      // A key no longer read is dated by its deprecation (the release that ignores, refuses or migrates it).
      const gone = prop['x-removed']?.version ?? prop['x-deprecated']?.since;
      if (gone !== removed) report.disagree.push(`${def}.${key}: no longer read from ${removed ?? '(still read)'}, schema ${gone ?? '(none)'}`);
      const runsOf = (reads) => snapshotRanges(releases.map((r, i) => ({ version: r.version, nextVersion: all[i + 1], kind: reads[i] ? 'read' : 'unread' }))).filter((x) => x.kind === 'read').map(({ from, to }) => ({ from, to }));
      ACCELERATE_SPELLINGS[`${def}.${key}`] = { [key]: runsOf(read), ...(alt ? { [alt]: runsOf(altRead) } : {}) };
      if (!alt) continue;
      // The property's own spelling, read later than the key: x-flag-since.
      const own = read.indexOf(true);
      const flagSince = own > firstAny ? { [key]: dated(own) } : undefined;
      if (JSON.stringify(prop['x-flag-since']) !== JSON.stringify(flagSince)) changes.push({ key: `${def}.${key}`, field: 'x-flag-since', from: prop['x-flag-since'], to: flagSince, why: `\`${key}\` is read from ${flagSince?.[key]}, \`${alt}\` before`, set: () => setKey(prop, 'x-flag-since', flagSince, ['x-since']) });
      // A prefixed key the launcher read only without its prefix, before it added the prefix: x-bare-until.
      const prefixFrom = releases.findIndex((r) => r.prefixed.has(def));
      const bareOnly = stripped !== undefined && altRead.some((x, i) => x && !read[i] && (prefixFrom < 0 || i < prefixFrom));
      const bareUntil = bareOnly && prefixFrom >= 0 ? all[prefixFrom] : undefined;
      if (prop['x-bare-until'] !== bareUntil) changes.push({ key: `${def}.${key}`, field: 'x-bare-until', from: prop['x-bare-until'], to: bareUntil, why: `before ${bareUntil} the launcher read only \`${alt}\``, set: () => setKey(prop, 'x-bare-until', bareUntil, ['x-flag-since', 'x-since']) });
    }
  }
  for (const [name, sec] of Object.entries(ACCELERATE_SECTIONS)) {
    if (!sec.prefix) continue;
    const from = releases.find((r) => r.prefixed.has(name))?.version;
    const have = schema.definitions[name]?.['x-key-prefix']?.since;
    const kp = schema.definitions[name]?.['x-key-prefix'];
    const want = from && from !== all[0] ? from : undefined;
    if (kp && have !== want) changes.push({ key: name, field: 'x-key-prefix.since', from: have, to: want, why: `the launcher adds \`${sec.prefix}\` from ${from}`, set: () => setKey(kp, 'since', want) });
    console.log(`  ${name}: the launcher adds \`${sec.prefix}\` from ${from ?? '(never)'}${have !== undefined || from ? ` (x-key-prefix.since ${have ?? '(none)'})` : ''}`);
  }
  for (const [title, list] of [
    ['disagreements with the schema', report.disagree],
    ['keys no release reads', report.never],
  ]) {
    console.log(`\n${title} (${list.length}):`);
    for (const l of list) console.log(`  ${l}`);
  }
  console.log(`\nkeys whose x-since the read confirms: ${report.agree}`);
  return { schema, changes, path: schemaPath };
}

// ------------------------------------------------------------------------------------------------
// Applying changes

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

function printChanges(title, changes) {
  console.log(`\n${title}: ${changes.length} change(s)${WRITE ? '' : ' (not written; pass --write)'}`);
  for (const c of changes) {
    if (c.field === 'x-since' && c.why === 'first release with the flag' && !VERBOSE) continue;
    console.log(`  ${c.key}: ${c.field}${c.flag ? ` ${c.flag}` : ''} ${JSON.stringify(c.from ?? null)} → ${JSON.stringify(c.to ?? null)}${c.why ? `  (${c.why})` : ''}`);
  }
}

const results = [];
if (accelerateDir) {
  const r = accelerate(accelerateDir, join(root, 'schemas/accelerate.schema.json'));
  printChanges('accelerate.schema.json', r.changes);
  results.push([r, 'Accelerate']);
}
if (megatronDir) {
  const r = megatron(megatronDir, join(root, 'schemas/megatron.schema.json'));
  printChanges('megatron.schema.json', r.changes);
  results.push([r, 'Megatron Core']);
}
if (deepspeedDir) {
  const r = deepspeed(deepspeedDir, join(root, 'schemas/deepspeed.schema.json'));
  printChanges('deepspeed.schema.json', r.changes);
  results.push([r, 'DeepSpeed']);
}
if (WRITE)
  for (const [r, tool] of results) {
    apply(r, tool);
    writeFileSync(r.path, `${stringifyJson(r.schema)}\n`);
    console.log(`wrote ${r.path}`);
  }
if (WRITE && accelerateDir && Object.keys(ACCELERATE_SPELLINGS).length)
  writeSnapshot('accelerate-keys.json', 'The releases of Accelerate that read each key of the config file, read by scripts/schema-history.mjs from every vX.Y.Z tag: a field of the config dataclasses (cluster, sagemaker), or in a section the launcher copies onto its arguments, the name of one of its flags (with the prefix the launcher adds, from the release that adds it). Per key, each spelling (as the schema writes it, and with or without the section prefix) with the runs of releases that read it.', ACCELERATE_RELEASES, 'keys', ACCELERATE_SPELLINGS);
if (WRITE && deepspeedDir && Object.keys(STRICTNESS_SNAPSHOT).length)
  writeSnapshot('deepspeed-strictness.json', 'Which DeepSpeed releases refuse an unknown key in each section read by a pydantic model, read by scripts/schema-history.mjs from every vX.Y.Z tag (and master when it announces a newer version): strict when the model that reads the section (SECTION_MODELS) is defined and used at that release and it or a base class sets extra = "forbid"; otherwise the section is read key by key, or not at all, and unknown keys are ignored. Runs of releases with the same answer, from v0.3.0 (before a section exists its runs say nothing).', DEEPSPEED_RELEASES, 'strict', STRICTNESS_SNAPSHOT);
if (WRITE && megatronDir && Object.keys(CHOICES_SNAPSHOT).length) {
  const schema = parseJson(readFileSync(join(root, 'schemas/megatron.schema.json'), 'utf8'));
  const releases = [...schema['x-source'].tagsCompared, schema['x-source'].version];
  const path = join(root, 'schemas/history/megatron-choices.json');
  mkdirSync(dirname(path), { recursive: true });
  const sorted = Object.fromEntries(Object.entries(CHOICES_SNAPSHOT).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(path, `${JSON.stringify({ what: 'The choices each Megatron Core release accepts for the arguments with a fixed set, read by scripts/schema-history.mjs from the parser of each core_vX.Y.Z tag (and the commit x-source names): runs of releases with the same state (absent, free: any value, novalue: a switch, dynamic: computed at run time, static: the values).', releases, choices: sorted }, null, 1)}\n`);
  console.log(`wrote ${path}`);
  writeSnapshot('megatron-defaults.json', 'The default of each Megatron-LM argument at each release, read by scripts/schema-history.mjs from the parser of each core_vX.Y.Z tag (and the commit x-source names): argparse\'s default of its flags (`default=`, what the action implies, the dataclass field behind a flag ArgumentGroupFactory builds), or for a field without a flag (x-cli: false) the config dataclass\'s; runs of releases with the same default (value: a literal, null for None; dynamic: computed, not read). Releases without the argument are left out.', releases, 'defaults', DEFAULTS_SNAPSHOT);
}

/** A snapshot of upstream facts the tests compare the schemas with: one line per key, keys sorted. */
function writeSnapshot(name, what, releases, field, table) {
  const path = join(root, 'schemas/history', name);
  mkdirSync(dirname(path), { recursive: true });
  const keys = Object.keys(table).sort((a, b) => a.localeCompare(b));
  const body = keys.map((k) => `  ${JSON.stringify(k)}: ${JSON.stringify(table[k])}`).join(',\n');
  writeFileSync(path, `{\n "what": ${JSON.stringify(what)},\n "releases": ${JSON.stringify(releases)},\n ${JSON.stringify(field)}: {\n${body}\n }\n}\n`);
  console.log(`wrote ${path}`);
}
