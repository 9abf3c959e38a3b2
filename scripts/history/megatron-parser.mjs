// The parser of one Megatron-LM release, read statically from the source at a revision (`git show`
// and `git grep` of the Megatron-LM mirror; writes nothing): the command-line spellings it accepts,
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
// For each spelling, the choices the parser checks a value against, read from the same calls: a
// literal `choices=[...]` / `choices=(...)` of add_argument (also `list(SomeEnum)`,
// `[e.name for e in SomeEnum]`, `[e.value for e in SomeEnum]`, `range(a, b)`), else the names a
// `type=` converter looks up in an Enum (with the literals it passes through), or for a flag
// ArgumentGroupFactory derives, `argparse_meta["choices"]`, else a `Literal[...]` annotation (also
// inside Optional/list), else the members of an Enum annotation (an Enum's aliases included wherever
// the text is looked up by name, left out where the class is iterated; `signal.Signals` from a table
// of its Linux members); a switch (store_true and the like,
// a bool field) takes no value, an argument without choices takes any. And its default: `default=`
// of add_argument, else what its action implies, else None; the dataclass field behind a flag
// ArgumentGroupFactory builds, its `argparse_meta` default first; for `x-cli: false` the config
// dataclass field; as a literal (a string, number, bool, None, or a list of them) or unread. And the
// attribute it stores into (`dest=`, the first long flag's name, the dataclass field or its
// `argparse_meta` dest).
import { gitLines } from './git.mjs';
import { argumentTokens, closing, depthAt, functions, listStrings, literalDefault, literalValues, pythonStatements } from './python.mjs';

// The choices argparse checks a value against, as read from the source: `{ values }` for a static
// list (`choices=[...]`, `choices=(...)`, `Literal[...]`, `list(SomeEnum)` / an Enum-typed dataclass
// field when the enum's members can be read), `{ dynamic: text }` for choices computed at run time
// that this script does not evaluate, `{ novalue: true }` for a switch (store_true and the like, a
// bool dataclass field). No entry: the argument has no choices (any value passes argparse).

/**
 * The statements of the module under megatron/ that defines the class `cls` at `rev` (one outside
 * the tests first) and the index of its `class` line; undefined when no module defines it.
 */
function findClass(dir, rev, cls) {
  const hits = gitLines(dir, 'grep', '-l', '-E', `^class ${cls}\\b`, rev, '--', 'megatron').map((l) => l.slice(rev.length + 1));
  const path = hits.find((p) => !p.includes('/tests/')) ?? hits[0];
  if (!path) return undefined;
  const stmts = pythonStatements(dir, rev, path);
  const k = stmts.findIndex((s) => s.indent === 0 && s.toks[0]?.v === 'class' && s.toks[1]?.v === cls);
  return k < 0 ? undefined : { stmts, k };
}

/**
 * Members `{ name, value, alias }` of an Enum class defined under megatron/ at `rev` (value: a
 * literal's text, else undefined), in definition order; undefined when the class is not found or is
 * not an enum. A member whose literal value equals an earlier member's, or that names an earlier
 * member (`B = A`), is an alias (Python's Enum): iterating the class (`list(E)`, `for e in E`) skips
 * it, while a lookup by name (`E['B']`) finds it and returns the member it aliases.
 */
const enumCache = new Map();
function enumMembers(dir, rev, cls) {
  const key = `${rev}\0${cls}`;
  if (enumCache.has(key)) return enumCache.get(key);
  let out = STDLIB_ENUMS[cls];
  const found = out ? undefined : findClass(dir, rev, cls);
  const head = found ? found.stmts[found.k].toks : [];
  if (head[2]?.v === '(' && head.slice(3, closing(head, 2)).some((t) => t.t === 'name' && /Enum$/.test(t.v))) {
    const { stmts, k } = found;
    out = [];
    const bodyIndent = stmts[k + 1]?.indent;
    for (let j = k + 1; j < stmts.length && stmts[j].indent > 0; j++) {
      const t = stmts[j].toks;
      if (stmts[j].indent !== bodyIndent || t[0]?.t !== 'name' || t[0].v.startsWith('_') || t[1]?.v !== '=') continue;
      const literal = t.length === 3 && (t[2].t === 'str' || t[2].t === 'num') && !t[2].f ? t[2] : undefined;
      const alias = literal
        ? out.some((m) => m.literal && m.literal.t === literal.t && m.literal.v === literal.v)
        : t.length === 3 && t[2].t === 'name' && out.some((m) => m.name === t[2].v);
      out.push({ name: t[0].v, value: literal?.v, literal, alias });
    }
  }
  enumCache.set(key, out);
  return out;
}

/**
 * Enums of Python's standard library that arguments are typed with, which this script cannot read
 * from Megatron's source: `signal.Signals` as CPython builds it on Linux (the members sorted by
 * number; SIGIOT, SIGCLD and SIGPOLL share the numbers of SIGABRT, SIGCHLD and SIGIO and are aliases).
 */
const SIGNALS = ['SIGHUP', 'SIGINT', 'SIGQUIT', 'SIGILL', 'SIGTRAP', 'SIGABRT', 'SIGBUS', 'SIGFPE', 'SIGKILL', 'SIGUSR1', 'SIGSEGV', 'SIGUSR2', 'SIGPIPE', 'SIGALRM', 'SIGTERM', 'SIGSTKFLT', 'SIGCHLD', 'SIGCONT', 'SIGSTOP', 'SIGTSTP', 'SIGTTIN', 'SIGTTOU', 'SIGURG', 'SIGXCPU', 'SIGXFSZ', 'SIGVTALRM', 'SIGPROF', 'SIGWINCH', 'SIGIO', 'SIGPWR', 'SIGSYS', 'SIGRTMIN', 'SIGRTMAX'];
const STDLIB_ENUMS = {
  'signal.Signals': [...SIGNALS.map((name) => ({ name, alias: false })), ...['SIGIOT', 'SIGCLD', 'SIGPOLL'].map((name) => ({ name, alias: true }))],
};

/** The names a lookup by name (`E[text]`) accepts: every member's, the aliases' too. */
const lookupNames = (members) => members.map((m) => m.name);
/** The members iterating the class yields (`list(E)`, `for e in E`): the aliases left out. */
const iterated = (members) => members.filter((m) => !m.alias);

/** The choices given by the expression `expr` (the tokens after `choices=` or `"choices":`). */
function choicesOf(dir, rev, expr) {
  const text = expr.map((t) => (t.t === 'str' ? JSON.stringify(t.v) : t.v)).join(' ');
  if ((expr[0]?.v === '[' || expr[0]?.v === '(') && closing(expr, 0) === expr.length - 1) {
    const values = literalValues(expr, 0);
    if (values) return { values };
  }
  // list(SomeEnum): the members; argparse compares the converted value (SomeEnum[name]), which an
  // alias's name converts to the member it aliases, so the aliases' names pass too.
  if (expr.length === 4 && expr[0].v === 'list' && expr[1].v === '(' && expr[2].t === 'name' && expr[3].v === ')') {
    const members = enumMembers(dir, rev, expr[2].v);
    if (members) return { values: lookupNames(members), viaEnum: expr[2].v };
  }
  // [e.name for e in SomeEnum] / [e.value for e in SomeEnum]
  const comp = /^\[ (\w+) \. (name|value) for (\w+) in (\w+) \]$/.exec(text);
  if (comp && comp[1] === comp[3]) {
    const members = enumMembers(dir, rev, comp[4]);
    const values = members && iterated(members).map((m) => (comp[2] === 'name' ? m.name : m.value));
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
 * The values a `type=` converter lets through when it looks the text up in an Enum by name (an
 * argument without `choices=`: the lookup's KeyError refuses any other value at parse time):
 * `lambda x: E[x]`, `lambda x: E[x] if x != 'lit' else x`, or a function of the module (`fns`) of
 * one parameter whose body, after a docstring, returns the text itself for the literals of an
 * `if x in {...}:` / `if x == '...':` test and ends with `return E[x]`. The literals passed through
 * are accepted as well (`passed`). Undefined for any other converter (any value may pass).
 */
function typeChoices(dir, rev, expr, fns) {
  const text = (toks) => toks.map((t) => (t.t === 'str' ? JSON.stringify(t.v) : t.v)).join(' ');
  const lookup = (toks, x) => {
    const m = /^(\w+) \[ (\w+) \]$/.exec(text(toks));
    return m && m[2] === x ? m[1] : undefined;
  };
  const build = (cls, passed) => {
    const members = enumMembers(dir, rev, cls);
    return members ? { values: [...lookupNames(members), ...passed.filter((v) => !members.some((m) => m.name === v))], viaEnum: cls, passed } : undefined;
  };
  if (expr[0]?.v === 'lambda' && expr[1]?.t === 'name' && expr[2]?.v === ':') {
    const x = expr[1].v;
    const body = expr.slice(3);
    const cls = lookup(body, x);
    if (cls) return build(cls, []);
    const m = /^(\w+) \[ (\w+) \] if (\w+) != ("(?:[^"\\]|\\.)*") else (\w+)$/.exec(text(body));
    return m && m[2] === x && m[3] === x && m[5] === x ? build(m[1], [JSON.parse(m[4])]) : undefined;
  }
  if (expr.length !== 1 || expr[0].t !== 'name' || !fns?.has(expr[0].v)) return undefined;
  const [def, ...body] = fns.get(expr[0].v);
  const d = def.toks;
  if (!(d[1]?.v === expr[0].v && d[2]?.v === '(' && d[3]?.t === 'name' && d[4]?.v === ')')) return undefined;
  const x = d[3].v;
  const passed = [];
  let cls;
  for (let i = 0; i < body.length; i++) {
    const t = body[i].toks;
    if (i === 0 && t.length === 1 && t[0].t === 'str') continue;
    if (cls) return undefined;
    if (t[0]?.v === 'return') {
      cls = lookup(t.slice(1), x);
      if (!cls) return undefined;
      continue;
    }
    // if x in {'a', 'b'}: return x   /   if x == 'a': return x   (the return on the same line or the next)
    let m = /^if (\w+) in [{[(] ((?:"(?:[^"\\]|\\.)*" ,? ?)+)[}\])] :( return (\w+))?$/.exec(text(t));
    const eq = /^if (\w+) == ("(?:[^"\\]|\\.)*") :( return (\w+))?$/.exec(text(t));
    if (!m && !eq) return undefined;
    const [tested, lits, , ret] = m ? [m[1], JSON.parse(`[${m[2].replace(/ ,\s?/g, ',').trim().replace(/,$/, '')}]`), m[3], m[4]] : [eq[1], [JSON.parse(eq[2])], eq[3], eq[4]];
    let back = ret;
    if (!back) {
      const next = body[i + 1]?.toks;
      if (!next || text(next) !== `return ${x}` || body[i + 1].indent <= body[i].indent) return undefined;
      back = x;
      i++;
    }
    if (tested !== x || back !== x) return undefined;
    passed.push(...lits);
  }
  return cls ? build(cls, passed) : undefined;
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
  // The factory converts the text with `E[text]` and checks the member against `list(E)`
  // (argument_utils.py@core_v0.16.0:85-95): an alias's name finds the member it aliases and passes.
  const names = ann.filter((t) => t.t === 'name' && !wrappers.has(t.v));
  if (names.length === 1 && !['str', 'int', 'float', 'bool', 'dict', 'Dict', 'Any', 'Path', 'tuple', 'Tuple'].includes(names[0].v)) {
    const members = enumMembers(dir, rev, names[0].v);
    if (members) return { values: lookupNames(members), viaEnum: names[0].v };
  }
  // A class of another module: the standard library's enums this script knows (signal.Signals);
  // any other's members it cannot read.
  const dotted = ann.filter((t) => t.t === 'name' && !wrappers.has(t.v) || t.v === '.').map((t) => t.v).join('');
  if (STDLIB_ENUMS[dotted]) return { values: lookupNames(STDLIB_ENUMS[dotted]), viaEnum: dotted };
  if (ann.some((t) => t.v === '.')) return { dynamic: ann.map((t) => t.v).join('') };
  return undefined;
}
/**
 * What a function body adds to a parser: flags of add_argument calls (with their `choices=`, read
 * when `choice` is given: (tokens) => choices), factories, local calls.
 */
function scanFunction(body, localNames, choice, typeChoice) {
  const flags = [];
  const factories = [];
  const calls = new Set();
  const lists = new Map();
  const choices = new Map();
  const defaults = new Map();
  const dests = new Map();
  const boolText = new Set();
  const nargsOf = new Map();
  const typeOf = new Map();
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
        // The attribute argparse stores the value under: `dest=`, else the first long flag's name.
        let dest;
        for (let j = i + 2, d = 0; j < end; j++) {
          if (t[j].t === 'op' && '([{'.includes(t[j].v)) d++;
          if (t[j].t === 'op' && ')]}'.includes(t[j].v)) d--;
          if (d === 0 && t[j].v === 'dest' && t[j + 1]?.v === '=' && t[j + 2]?.t === 'str' && !t[j + 2].f) dest = t[j + 2].v;
        }
        dest ??= (names.find((x) => x.startsWith('--')) ?? names[0] ?? '').replace(/^-+/, '').replace(/-/g, '_');
        for (const n of names) dests.set(n, dest);
        let converted;
        if (choice)
          for (let j = i + 2, d = 0; j < end; j++) {
            if (t[j].t === 'op' && '([{'.includes(t[j].v)) d++;
            if (t[j].t === 'op' && ')]}'.includes(t[j].v)) d--;
            if (d === 0 && t[j].t === 'name' && t[j].v === 'choices' && t[j + 1]?.v === '=') {
              const c = choice(argumentTokens(t, j + 2));
              for (const n of names) choices.set(n, c);
            }
            if (d === 0 && typeChoice && t[j].t === 'name' && t[j].v === 'type' && t[j + 1]?.v === '=') converted = typeChoice(argumentTokens(t, j + 2));
            // An action that takes no value (a switch): no value is accepted.
            if (d === 0 && t[j].t === 'name' && t[j].v === 'action' && t[j + 1]?.v === '=') {
              const a = argumentTokens(t, j + 2);
              if ((a.length === 1 && a[0].t === 'str' && /^(store_true|store_false|store_const|count|append_const)$/.test(a[0].v)) || a.at(-1)?.v === 'BooleanOptionalAction')
                for (const n of names) if (!choices.has(n)) choices.set(n, { novalue: true });
            }
          }
        // `type=bool` with no action: the flag takes a word, which Python's bool() turns into True
        // unless it is empty (`--onnx-safe False` is on), and a bare flag is refused.
        {
          let boolType = false;
          let action = false;
          for (let j = i + 2, d = 0; j < end; j++) {
            if (t[j].t === 'op' && '([{'.includes(t[j].v)) d++;
            if (t[j].t === 'op' && ')]}'.includes(t[j].v)) d--;
            if (d === 0 && t[j].t === 'name' && t[j + 1]?.v === '=' && t[j].v === 'type' && t[j + 2]?.v === 'bool' && (t[j + 3]?.v === ',' || t[j + 3]?.v === ')')) boolType = true;
            if (d === 0 && t[j].t === 'name' && t[j].v === 'action' && t[j + 1]?.v === '=') action = true;
          }
          if (boolType && !action) for (const n of names) boolText.add(n);
          // How many words the flag takes (`nargs=`), null for one.
          let nargs = null;
          for (let j = i + 2, d = 0; j < end; j++) {
            if (t[j].t === 'op' && '([{'.includes(t[j].v)) d++;
            if (t[j].t === 'op' && ')]}'.includes(t[j].v)) d--;
            if (d === 0 && t[j].t === 'name' && t[j].v === 'nargs' && t[j + 1]?.v === '=') nargs = t[j + 2]?.v ?? null;
          }
          for (const n of names) nargsOf.set(n, nargs);
          // The converter of each word (`type=int`, `type=float`): 'integer' or 'number', null for another.
          let type = null;
          for (let j = i + 2, d = 0; j < end; j++) {
            if (t[j].t === 'op' && '([{'.includes(t[j].v)) d++;
            if (t[j].t === 'op' && ')]}'.includes(t[j].v)) d--;
            if (d === 0 && t[j].t === 'name' && t[j].v === 'type' && t[j + 1]?.v === '=') {
              const a = argumentTokens(t, j + 2);
              type = a.length === 1 && Object.hasOwn(NUMERIC, a[0].v) ? NUMERIC[a[0].v] : null;
            }
          }
          for (const n of names) typeOf.set(n, type);
        }
        // Without `choices=`, a converter that looks the text up in an Enum decides what passes.
        if (converted) for (const n of names) if (!choices.has(n)) choices.set(n, converted);
        if (choice) {
          const d = argumentDefault(t, i + 1, end);
          for (const n of names) defaults.set(n, d);
        }
        // argparse.BooleanOptionalAction adds `--no-<flag>` for every `--<flag>`.
        if (t.slice(i + 2, end).some((x) => x.v === 'BooleanOptionalAction'))
          for (const x of names.filter((y) => y.startsWith('--'))) {
            flags.push(`--no-${x.slice(2)}`);
            dests.set(`--no-${x.slice(2)}`, dest);
          }
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
  return { flags, factories, calls, choices, defaults, dests, boolText, nargsOf, typeOf };
}

/** The JSON Schema type of the values a numeric argparse converter (`int`, `float`) lets through. */
const NUMERIC = { int: 'integer', float: 'number' };

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

// Dataclass fields, as ArgumentGroupFactory turns them into flags (megatron/training/argument_utils.py):
// field name → { flags, choices }.

function classFlags(dir, rev, cls, seen = new Set(), allFields = false, own = false) {
  if (seen.has(cls)) return new Map();
  seen.add(cls);
  const found = findClass(dir, rev, cls);
  if (!found) return null;
  const { stmts, k } = found;
  const head = stmts[k].toks;
  const fields = new Map();
  if (head[2]?.v === '(') {
    const end = closing(head, 2);
    for (let j = 3; j < end; j++)
      if (head[j].t === 'name' && (head[j + 1]?.v === ',' || head[j + 1]?.v === ')') && head[j - 1]?.v !== '=') {
        const base = classFlags(dir, rev, head[j].v, seen, allFields, own);
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
    let metaDest;
    let metaDefault;
    let metaType;
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
      for (let j = 2; j < end; j++) if (value[j].t === 'str' && value[j].v === 'dest' && value[j + 1]?.v === ':' && value[j + 2]?.t === 'str') metaDest = value[j + 2].v;
      // argparse_meta's "default" takes precedence over the field's (argument_utils.py).
      for (let j = 2; j < end; j++) if (value[j].t === 'str' && value[j].v === 'default' && value[j + 1]?.v === ':') metaDefault = literalDefault(argumentTokens(value, j + 2));
      for (let j = 2; j < end; j++) if (value[j].t === 'str' && value[j].v === 'type' && value[j + 1]?.v === ':') metaType = argumentTokens(value, j + 2);
    }
    if (!init && !allFields) {
      fields.delete(t[0].v);
      continue;
    }
    const dashed = (p) => `--${p}${t[0].v}`.replace(/_/g, '-');
    const isFalse = dflt.length === 1 && dflt[0].v === 'False';
    const flags = argNames ?? (isBool && !isFalse ? [dashed('no_'), dashed('disable_')] : [dashed('')]);
    const hasDefault = eq >= 0 && !(value[0]?.v === 'field' && value[1]?.v === '(' && dflt.length === 0);
    // `own`: the dataclass's default (what a config built without the flag gets), not the flag's.
    const fieldDefault = (own ? undefined : metaDefault) ?? factoryDefault ?? (!hasDefault ? { dynamic: eq < 0 ? '(required)' : 'field(...)' } : literalDefault(value[0]?.v === 'field' ? dflt : value));
    // The converter ArgumentGroupFactory gives the flag: argparse_meta's "type", else the annotation's
    // own type (`int`, `Optional[int]`, `int | None`); a list, a Literal or a union: none read here.
    const typeName = metaType ? (metaType.length === 1 ? metaType[0].v : undefined) : ann.some((x) => ['list', 'List', 'Literal'].includes(x.v)) || names.length !== 1 ? undefined : names[0];
    const type = typeName && Object.hasOwn(NUMERIC, typeName) ? NUMERIC[typeName] : null;
    fields.set(t[0].v, { flags, dest: metaDest ?? t[0].v, choices: allFields ? undefined : isBool ? { novalue: true } : fieldChoices(dir, rev, ann, value), default: fieldDefault, type });
  }
  return fields;
}
/** The flags a module's `entry` function (and the local functions it calls) adds. */
export function moduleFlags(dir, rev, path, entries, problems) {
  const fns = functions(pythonStatements(dir, rev, path));
  const local = new Set(fns.keys());
  const entry = entries.find((e) => fns.has(e));
  if (!entry) return null;
  const flags = new Set();
  const seen = new Set();
  const dynamic = new Set();
  const choices = new Map();
  const defaults = new Map();
  const dests = new Map();
  const boolText = new Set();
  const nargsOf = new Map();
  const typeOf = new Map();
  const visit = (name) => {
    if (seen.has(name)) return;
    seen.add(name);
    const { flags: f, factories, calls, choices: c, defaults: d, dests: ds, boolText: b, nargsOf: na, typeOf: ty } = scanFunction(fns.get(name), local, (expr) => choicesOf(dir, rev, expr), (expr) => typeChoices(dir, rev, expr, fns));
    for (const x of f) flags.add(x);
    for (const [x, v] of c) choices.set(x, v);
    for (const [x, v] of d) if (!defaults.has(x)) defaults.set(x, v);
    for (const [x, v] of ds) if (!dests.has(x)) dests.set(x, v);
    for (const x of b ?? []) boolText.add(x);
    for (const [x, v] of na ?? []) if (!nargsOf.has(x)) nargsOf.set(x, v);
    for (const [x, v] of ty ?? []) if (!typeOf.has(x)) typeOf.set(x, v);
    for (const { cls, exclude } of factories) {
      const fields = classFlags(dir, rev, cls);
      if (!fields) {
        problems.push(`${rev}: ${path}: class ${cls} (ArgumentGroupFactory) not found`);
        continue;
      }
      for (const [field, { flags: fl, dest, choices: c, default: dv, type: ft }] of fields)
        if (!exclude.includes(field))
          for (const x of fl) {
            flags.add(x);
            if (!typeOf.has(x)) typeOf.set(x, ft ?? null);
            if (!dests.has(x)) dests.set(x, dest);
            dynamic.add(x);
            if (c) choices.set(x, c);
            if (dv && !defaults.has(x)) defaults.set(x, dv);
          }
    }
    for (const c of calls) visit(c);
  };
  visit(entry);
  const unused = [...fns.keys()].filter((f) => !seen.has(f) && scanFunction(fns.get(f), local).flags.length > 0);
  return { flags, dynamic, unused, choices, defaults, dests, boolText, nargsOf, typeOf };
}

// Fields only the --yaml-cfg, Bridge and NeMo formats write (`x-cli: false`): dated by the config
// dataclasses that hold them.
const CONFIG_FILES = ['megatron/core/model_parallel_config.py', 'megatron/core/transformer/transformer_config.py', 'megatron/core/transformer/heterogeneous/heterogeneous_config.py'];

/** The fields of one config dataclass at `rev` with those of its bases, init=False ones included. */
export function classFields(dir, rev, cls) {
  return new Set((classFlags(dir, rev, cls, new Set(), true) ?? new Map()).keys());
}

/**
 * The defaults a config dataclass gives its fields at `rev` when it is built without them (the
 * dataclass's own `default=`/`default_factory=`, not the flag's argparse_meta default), with those of
 * its bases: name → `{ value }` or `{ dynamic }`; undefined when the class is not found.
 */
export function classDefaults(dir, rev, cls) {
  const fields = classFlags(dir, rev, cls, new Set(), true, true);
  return fields ? new Map([...fields].map(([f, v]) => [f, v.default])) : undefined;
}

/** The fields of the config dataclasses at `rev`, init=False ones included: name → default. */
export function configFields(dir, rev) {
  const names = new Map();
  for (const path of CONFIG_FILES)
    for (const s of pythonStatements(dir, rev, path))
      if (s.indent === 0 && s.toks[0]?.v === 'class' && s.toks[1]?.t === 'name') for (const [f, v] of classFlags(dir, rev, s.toks[1].v, new Set(), true) ?? []) if (!names.has(f)) names.set(f, v.default);
  return names;
}
