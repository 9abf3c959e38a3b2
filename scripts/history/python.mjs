// A small Python tokenizer: names, numbers, strings (value kept, f-strings marked), operators,
// and logical-line ends, each token with the column its line starts at; and the readers of the
// literals, brackets and top-level functions built on it. Reads a file of an upstream revision
// (pythonStatements); writes nothing.
import { show } from './git.mjs';

export function tokenize(src) {
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
export function statements(toks) {
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
export function closing(toks, i) {
  let d = 0;
  for (let j = i; j < toks.length; j++) {
    if (toks[j].t === 'op' && '([{'.includes(toks[j].v)) d++;
    if (toks[j].t === 'op' && ')]}'.includes(toks[j].v) && --d === 0) return j;
  }
  return toks.length - 1;
}

/** The string literals directly inside the list at `toks[i]` (`[`). */
export function listStrings(toks, i) {
  const end = closing(toks, i);
  return toks.slice(i + 1, end).filter((t) => t.t === 'str' && !t.f).map((t) => t.v);
}

/**
 * The values of the list or tuple literal at `toks[i]` (`[` or `(`) when every element is a plain
 * string or number literal (`None` elements are skipped: argparse never matches them), as the text
 * a config would write; undefined when an element is anything else (a name, a call, a comprehension).
 */
export function literalValues(toks, i) {
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
export function argumentTokens(toks, i) {
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
export function literalDefault(expr) {
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

/** The bracket depth at `toks[j]`. */
export function depthAt(toks, j) {
  let d = 0;
  for (let i = 0; i < j; i++) {
    if (toks[i].t !== 'op') continue;
    if ('([{'.includes(toks[i].v)) d++;
    if (')]}'.includes(toks[i].v)) d--;
  }
  return d;
}

/** Top-level `def`s of a module: name → statements of its body (nested defs included). */
export function functions(stmts) {
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

/** The logical lines of a Python file at a revision (none when the revision has no such file). */
export const pythonStatements = (dir, rev, path) => statements(tokenize(show(dir, rev, path) ?? ''));
