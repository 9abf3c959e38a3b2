/**
 * Python source read as far as Shardwise needs it: its statements (logical lines) and the imports
 * they make. A statement runs on over a backslash at the end of a line and inside brackets, as
 * Python joins lines; comments are dropped and string literals are kept as empty quotes, so a
 * docstring that mentions `import x` imports nothing and a bracket inside a string counts for none.
 * Nothing here throws: text that is not valid Python gives what could be read.
 */

/** The characters that change the reading of what follows them (by char code); everything else is copied. */
const SPECIAL = new Uint8Array(128);
for (const c of '#\'"\\\n;()[]{}') SPECIAL[c.charCodeAt(0)] = 1;

/** Texts already split, most recent last (a program is read by several readers in one analysis). */
const cache = new Map<string, string[]>();
const CACHED = 16;
/** Python past this many characters is not read (generated code; a program's imports and parser come first). */
const READ = 2_000_000;

/**
 * The statements of a Python text, each on one line (`from a import (\n    b,\n)` → `from a import (     b, )`:
 * the line breaks it runs over become spaces), string literals as `''` and comments removed. `a; b` is two
 * statements; a compound statement's header and its body on the same line (`if x: import y`) are one.
 */
export function pythonStatements(text: string): string[] {
  const known = cache.get(text);
  if (known) return known;
  const out = split(text.length > READ ? text.slice(0, READ) : text);
  cache.set(text, out);
  if (cache.size > CACHED) cache.delete(cache.keys().next().value!);
  return out;
}

function split(text: string): string[] {
  const out: string[] = [];
  let parts: string[] = [];
  let depth = 0;
  let from = 0;
  const end = () => {
    const s = parts.join('').trim();
    if (s) out.push(s);
    parts = [];
  };
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 128 || !SPECIAL[code]) continue;
    if (i > from) parts.push(text.slice(from, i));
    const c = text[i];
    if (c === '#') {
      const nl = text.indexOf('\n', i);
      i = (nl < 0 ? text.length : nl) - 1;
    } else if (c === "'" || c === '"') {
      i = stringEnd(text, i) - 1;
      parts.push("''");
    } else if (c === '\\') {
      // A backslash ends the line it is on (a continuation); elsewhere outside a string it is not Python.
      if (text[i + 1] === '\r') i++;
      if (text[i + 1] === '\n') i++;
      parts.push(' ');
    } else if (c === '\n' || c === ';') {
      if (depth > 0) parts.push(c === ';' ? ';' : ' ');
      else end();
    } else {
      depth = c === '(' || c === '[' || c === '{' ? depth + 1 : Math.max(0, depth - 1);
      parts.push(c);
    }
    from = i + 1;
  }
  if (from < text.length) parts.push(text.slice(from));
  end();
  return out;
}

/** The rest of a string literal after its opening quote, to its closing quote (a one-line string: or to the line's end, when it is not closed). */
const STRING_REST: Record<string, RegExp> = {
  "'": /(?:[^'\\\n]|\\[\s\S])*(?:'|(?=\n)|$)/y,
  '"': /(?:[^"\\\n]|\\[\s\S])*(?:"|(?=\n)|$)/y,
  "'''": /(?:[^'\\]|\\[\s\S]|'(?!''))*(?:'''|$)/y,
  '"""': /(?:[^"\\]|\\[\s\S]|"(?!""))*(?:"""|$)/y,
};

/** Where the string literal opened at `start` ends (after its closing quote; at the line's end when it is not closed). */
function stringEnd(text: string, start: number): number {
  const q = text[start];
  const open = text.startsWith(q.repeat(3), start) ? q.repeat(3) : q;
  const rest = STRING_REST[open];
  rest.lastIndex = start + open.length;
  return rest.exec(text) ? rest.lastIndex : text.length;
}

/** One import statement's module: `import a.b as c` or `from ..a import b as c, d`. */
export interface PythonImport {
  /** The module as written, without the leading dots of a relative import (`''` for `from . import x`). */
  module: string;
  /** The leading dots of a relative import (`from ..a import b` → 2); 0 for an absolute one. */
  level: number;
  /** `from m import a as b, c`: the names taken from the module and the names they are bound to (`*` for all). */
  names?: { name: string; as: string }[];
  /** `import a.b as c`: the name the module is bound to (without `as`, `import a.b` binds `a` to the package `a`). */
  as?: string;
  /** The statement, for messages. */
  statement: string;
}

const NAME = /^[A-Za-z_]\w*$/;
/** A dotted Python name as code writes it, without spaces (`pkg.sub.mod`, `transformers.TrainingArguments`). */
export const MODULE_NAME = /^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*$/;
const DOTTED = /^[A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*$/;

/**
 * The header of a compound statement that has its body on the same line (`if TYPE_CHECKING: import
 * x`, `try: import x`): what follows it is the statement that imports.
 */
const COMPOUND = /^(?:(?:else|try|finally)\s*:|(?:if|elif|while|for|with|except)\b[^:]*:)\s*/;

/** The imports of a Python text, in every form Python allows (lists in brackets, backslash continuations, `as`, relative). */
export function pythonImports(text: string): PythonImport[] {
  const out: PythonImport[] = [];
  for (let s of pythonStatements(text)) {
    if (!/\bimport\b/.test(s)) continue;
    s = s.replace(/\s+/g, ' ');
    for (let k = 0; k < 4 && COMPOUND.test(s); k++) s = s.replace(COMPOUND, '');
    const plain = /^import\s+(.+)$/.exec(s);
    if (plain) {
      for (const part of plain[1].split(',')) {
        const m = /^(.+?)(?:\s+as\s+([A-Za-z_]\w*))?$/.exec(part.trim());
        if (!m || !DOTTED.test(m[1])) continue;
        const module = m[1].replace(/\s+/g, '');
        out.push({ module, level: 0, ...(m[2] ? { as: m[2] } : {}), statement: s });
      }
      continue;
    }
    const from = /^from\b\s*((?:\.\s*)*)(.*?)\s*\bimport\b\s*(.+)$/.exec(s);
    if (!from) continue;
    const level = (from[1].match(/\./g) ?? []).length;
    const module = (from[2] ?? '').replace(/\s+/g, '');
    if ((module && !DOTTED.test(module)) || (!module && !level)) continue;
    const names: { name: string; as: string }[] = [];
    // At most a thousand names: no real import lists more, and a text that is not Python may.
    for (const part of from[3].replace(/^\(|\)$/g, '').split(',', 1000)) {
      const m = /^([A-Za-z_]\w*|\*)(?:\s+as\s+([A-Za-z_]\w*))?$/.exec(part.trim());
      if (m && (m[1] === '*' || NAME.test(m[1]))) names.push({ name: m[1], as: m[2] ?? m[1] });
    }
    if (names.length) out.push({ module, level, names, statement: s });
  }
  return out;
}

/** The top-level package of an absolute import (`from megatron.core import x` → `megatron`); undefined for a relative one. */
export function importRoot(i: PythonImport): string | undefined {
  return i.level ? undefined : i.module.split('.')[0];
}
