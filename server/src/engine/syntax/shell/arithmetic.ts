/** `$(( … ))`: integer arithmetic as bash does it, for the operators launch scripts use, over the variables in scope. */
import type { Env } from './types';
import { argReason, envReason, short, textOf } from './expansion';

/** Integer arithmetic as bash does it, for the operators launch scripts use. */
export function evaluateArithmetic(expr: string, env: Env, depth = 0): { value?: number; unknown?: string } {
  if (depth > 8 || expr.length > 10_000) return { unknown: 'the arithmetic is too complex to work out here' };
  type T = number | string | { v: string; def?: string };
  const toks: T[] = [];
  const re = /\s*(?:(0[xX][0-9a-fA-F]+|[0-9]+)|\$\{([A-Za-z_]\w*)(?::?-([^}]*))?\}|\$([A-Za-z_]\w*|[0-9])|([A-Za-z_]\w*)|(\*\*|[-+*/%()]))/y;
  let i = 0;
  while (i < expr.length) {
    while (i < expr.length && /\s/.test(expr[i])) i++;
    if (i >= expr.length) break;
    re.lastIndex = i;
    const m = re.exec(expr);
    if (!m) return { unknown: `the arithmetic \`${short(expr)}\` uses operators this reader does not evaluate` };
    i = re.lastIndex;
    if (m[1] !== undefined) {
      const t = m[1];
      if (/^0[xX]/.test(t)) toks.push(parseInt(t, 16));
      else if (/^0[0-7]+$/.test(t)) toks.push(parseInt(t, 8));
      else if (/^0\d/.test(t)) return { unknown: `\`${t}\` is not a valid number in bash arithmetic` };
      else toks.push(Number(t));
    } else if (m[2] !== undefined) toks.push({ v: m[2], def: m[3] });
    else if (m[4] !== undefined) toks.push({ v: m[4] });
    else if (m[5] !== undefined) toks.push({ v: m[5] });
    else toks.push(m[6]);
  }
  let k = 0;
  let d = 0;
  let unknown: string | undefined;
  const fail = (why: string): undefined => {
    unknown ??= why;
    return undefined;
  };
  const val = (t: { v: string; def?: string }): number | undefined => {
    if (/^\d$/.test(t.v)) return fail(argReason(t.v));
    const b = env.get(t.v);
    let text: string;
    if (!b) {
      if (t.def === undefined) return fail(envReason(t.v));
      text = t.def;
    } else {
      if (b.unknown) return fail(b.unknown);
      text = textOf(b.kind === 'array' ? (b.items[0] ?? []) : b.segs).trim();
      if (b.kind === 'scalar' && b.segs.some((s) => s.unknown)) return fail(b.segs.find((s) => s.unknown)!.unknown!);
    }
    if (text === '') return 0;
    if (/^[+-]?\d+$/.test(text)) return Number(text);
    const r = evaluateArithmetic(text, env, depth + 1);
    return r.unknown ? fail(r.unknown) : r.value;
  };
  const num = (a: number | undefined, b: number | undefined, f: (x: number, y: number) => number | undefined): number | undefined => (a === undefined || b === undefined ? undefined : f(a, b));
  const primary = (): number | undefined => {
    const t = toks[k++];
    if (typeof t === 'number') return t;
    if (t && typeof t === 'object') return val(t);
    if (t === '(') {
      if (++d > 200) return fail('the arithmetic nests too deeply');
      const v = sum();
      d--;
      if (toks[k] !== ')') return fail(`the arithmetic \`${short(expr)}\` has unbalanced parentheses`);
      k++;
      return v;
    }
    return fail(`the arithmetic \`${short(expr)}\` could not be read`);
  };
  const unary = (): number | undefined => {
    const t = toks[k];
    if (t === '-' || t === '+') {
      k++;
      if (++d > 200) return fail('the arithmetic nests too deeply');
      const v = unary();
      d--;
      return v === undefined ? undefined : t === '-' ? -v : v;
    }
    return primary();
  };
  const power = (): number | undefined => {
    const base = unary();
    if (toks[k] === '**') {
      k++;
      if (++d > 200) return fail('the arithmetic nests too deeply');
      const e = power();
      d--;
      return num(base, e, (x, y) => (y < 0 ? fail('a negative exponent') : x ** y));
    }
    return base;
  };
  const product = (): number | undefined => {
    let v = power();
    while (toks[k] === '*' || toks[k] === '/' || toks[k] === '%') {
      const op = toks[k++];
      const r = power();
      v = num(v, r, (x, y) => {
        if (op === '*') return x * y;
        if (y === 0) return fail('the arithmetic divides by zero');
        return op === '/' ? Math.trunc(x / y) : x % y;
      });
    }
    return v;
  };
  const sum = (): number | undefined => {
    let v = product();
    while (toks[k] === '+' || toks[k] === '-') {
      const op = toks[k++];
      const r = product();
      v = num(v, r, (x, y) => (op === '+' ? x + y : x - y));
    }
    return v;
  };
  if (!toks.length) return { value: 0 };
  const v = sum();
  if (unknown) return { unknown };
  if (k < toks.length) return { unknown: `the arithmetic \`${short(expr)}\` could not be read` };
  if (v === undefined || !Number.isSafeInteger(v)) return { unknown: 'the arithmetic result is out of range' };
  return { value: v === 0 ? 0 : v };
}
