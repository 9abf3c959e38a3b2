// The fields of Megatron Bridge's config sections at one Bridge release: the sections of its
// `ConfigContainer` (training/config.py) and, for each, the dataclass fields of the class its
// annotation names (a union: the fields of any of them), with the fields of every class it extends.
// A class is followed through the imports of the file that names it: a `megatron.bridge.*` module is
// read in the Bridge mirror at the release tag (under src/), any other `megatron.*` module in the
// Megatron-LM mirror at the Megatron-LM revision given (the Megatron Core release the Bridge release
// stands for), a package's `__init__.py` through its own imports. Read statically; a class that cannot
// be found makes its section unknown (null), never empty.
import { show } from './git.mjs';
import { closing, statements, tokenize } from './python.mjs';

/** Names in a section's annotation that are no config class (a recipe name, `None`). */
const NOT_CLASSES = new Set(['Optional', 'Union', 'None', 'str', 'int', 'float', 'bool', 'dict', 'Dict', 'list', 'List', 'Any', 'typing', 'Literal']);

/** A module's file in `repo` at `rev`: `{ repo, rev, path, stmts, imports }`, or undefined. */
function moduleAt(ctx, mod) {
  const bridge = mod.startsWith('megatron.bridge');
  const repo = bridge ? ctx.bridgeDir : ctx.megatronDir;
  const rev = bridge ? ctx.tag : ctx.megatronRev;
  const base = (bridge ? 'src/' : '') + mod.replace(/\./g, '/');
  for (const path of [`${base}.py`, `${base}/__init__.py`]) {
    const key = `${repo}\0${rev}\0${path}`;
    if (!ctx.cache.has(key)) {
      const text = show(repo, rev, path);
      ctx.cache.set(key, text == null ? null : { mod, path, stmts: statements(tokenize(text)), imports: importsOf(text, mod, path) });
    }
    const got = ctx.cache.get(key);
    if (got) return got;
  }
  return undefined;
}

/** `local name → { mod, name }` of a file's `from … import …` statements (relative modules resolved). */
function importsOf(text, mod, path) {
  const pkg = path.endsWith('/__init__.py') ? mod : mod.split('.').slice(0, -1).join('.');
  const out = new Map();
  for (const m of text.matchAll(/^[ \t]*from\s+([.\w]+)\s+import\s+(\([^)]*\)|[^\n]+)/gm)) {
    let from = m[1];
    if (from.startsWith('.')) {
      const dots = /^\.+/.exec(from)[0].length;
      const up = pkg.split('.').slice(0, pkg.split('.').length - (dots - 1));
      from = [...up, from.slice(dots)].filter(Boolean).join('.');
    }
    for (const part of m[2].replace(/#[^\n]*/g, '').replace(/[()\\]/g, '').split(',')) {
      const [name, as, alias] = part.trim().split(/\s+/);
      if (name && /^\w+$/.test(name)) out.set(as === 'as' && alias ? alias : name, { mod: from, name });
    }
  }
  return out;
}

/**
 * The fields of class `name` as module `file` sees it (defined there, or imported): `field name →
 * annotation tokens`, bases first; undefined when the class cannot be found.
 */
function classFieldsIn(ctx, file, name, depth = 0) {
  if (!file || depth > 12) return undefined;
  const k = file.stmts.findIndex((s) => s.indent === 0 && s.toks[0]?.v === 'class' && s.toks[1]?.v === name);
  if (k < 0) {
    const imp = file.imports.get(name);
    return imp ? classFieldsIn(ctx, moduleAt(ctx, imp.mod), imp.name, depth + 1) : undefined;
  }
  const head = file.stmts[k].toks;
  const fields = new Map();
  if (head[2]?.v === '(') {
    const end = closing(head, 2);
    for (let j = 3; j < end; j++) {
      if (head[j].t !== 'name' || !(head[j + 1]?.v === ',' || head[j + 1]?.v === ')') || head[j - 1]?.v === '=') continue;
      if (['ABC', 'object', 'Generic', 'Protocol'].includes(head[j].v)) continue;
      const base = head[j - 1]?.v === '.' ? undefined : classFieldsIn(ctx, file, head[j].v, depth + 1);
      if (!base) return undefined;
      for (const [f, ann] of base) fields.set(f, ann);
    }
  }
  const body = [];
  for (let j = k + 1; j < file.stmts.length && file.stmts[j].indent > 0; j++) body.push(file.stmts[j]);
  const indent = body[0]?.indent;
  for (const s of body) {
    const t = s.toks;
    if (s.indent !== indent || t[0]?.t !== 'name' || t[1]?.v !== ':' || ['def', 'class', 'async'].includes(t[0].v)) continue;
    const eq = t.findIndex((x, j) => j > 1 && x.v === '=');
    const ann = t.slice(2, eq < 0 ? t.length : eq);
    if (ann.some((x) => x.v === 'ClassVar')) continue;
    fields.set(t[0].v, ann);
  }
  return fields;
}

/**
 * `section → Set(field) | null` of the Bridge release `tag`, Megatron-LM read at `megatronRev`; the
 * sections in `skip` are left out.
 */
export function bridgeSectionFields(bridgeDir, tag, megatronDir, megatronRev, skip = new Set()) {
  const ctx = { bridgeDir, tag, megatronDir, megatronRev, cache: new Map() };
  const config = moduleAt(ctx, 'megatron.bridge.training.config');
  const container = classFieldsIn(ctx, config, 'ConfigContainer');
  const out = new Map();
  for (const [section, ann] of container ?? []) {
    if (skip.has(section)) continue;
    const names = ann.filter((x, i) => x.t === 'name' && !NOT_CLASSES.has(x.v) && ann[i - 1]?.v !== '.' && ann[i + 1]?.v !== '.');
    let fields = new Set();
    for (const n of names) {
      const got = classFieldsIn(ctx, config, n.v);
      if (!got) {
        fields = null;
        break;
      }
      for (const f of got.keys()) fields.add(f);
    }
    out.set(section, names.length ? fields : null);
  }
  return out;
}
