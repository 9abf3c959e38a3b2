/**
 * How DeepSpeed's pydantic models read a value of another type than the field's: pydantic's lax mode
 * converts it (text `"128"` for a number, `true` for an integer 1) or refuses it, by pydantic's major
 * version. DeepSpeed builds its models on the pydantic 1 API before 0.15.0 (`deepspeed.pydantic_v1`,
 * runtime/config_utils.py@v0.14.5) and on pydantic 2 from 0.15.0 (`pydantic>=2.0.0`,
 * requirements/requirements.txt@v0.15.0); no model sets strict mode.
 */
import type { JsonSchema } from '../../schema/types';
import { validatorRefusal } from '../../schema/vocabulary';

export const PYDANTIC_2_SINCE = '0.15.0';

/** What lax mode makes of a value for a field of one JSON type: the value, refused, or not settled here. */
export type Coerced = { ok: true; value: unknown } | { ok: false } | undefined;

const BOOL_TEXT: Record<string, boolean> = { '0': false, off: false, f: false, false: false, n: false, no: false, '1': true, on: true, t: true, true: true, y: true, yes: true };
const INT_TEXT = /^[+-]?\d+$/;
const FLOAT_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const NONFINITE_TEXT = /^[+-]?(inf|infinity|nan)$/i;

/** Lax coercion of a JSON value (Python-mode validation of the loaded dict) to a field of `type`. */
export function laxCoerce(type: string, value: unknown, v2: boolean): Coerced {
  // Spaces around a number, or `_` between its digits: not settled here.
  if (type !== 'string' && type !== 'object' && typeof value === 'string' && (value !== value.trim() || value.includes('_'))) return undefined;
  switch (type) {
    case 'boolean':
      if (typeof value === 'number') return value === 0 || value === 1 ? { ok: true, value: value === 1 } : { ok: false };
      if (typeof value === 'string') return value.toLowerCase() in BOOL_TEXT ? { ok: true, value: BOOL_TEXT[value.toLowerCase()] } : { ok: false };
      return typeof value === 'boolean' ? { ok: true, value } : { ok: false };
    case 'integer':
      if (typeof value === 'boolean') return { ok: true, value: value ? 1 : 0 };
      // pydantic 1 truncates a fraction (int(1.5)); pydantic 2 refuses one.
      if (typeof value === 'number') return Number.isInteger(value) ? { ok: true, value } : v2 ? { ok: false } : { ok: true, value: Math.trunc(value) };
      if (typeof value === 'string') return INT_TEXT.test(value) ? { ok: true, value: Number(value) } : FLOAT_TEXT.test(value) && v2 ? undefined : { ok: false };
      return { ok: false };
    case 'number':
      if (typeof value === 'boolean') return { ok: true, value: value ? 1 : 0 };
      if (typeof value === 'number') return { ok: true, value };
      if (typeof value === 'string') return FLOAT_TEXT.test(value) ? { ok: true, value: Number(value) } : NONFINITE_TEXT.test(value) ? { ok: true, value: /nan/i.test(value) ? Number.NaN : value.startsWith('-') ? -Infinity : Infinity } : { ok: false };
      return { ok: false };
    case 'string':
      // pydantic 1 turns a number (a boolean too, an int to Python) into its text; pydantic 2 refuses it.
      if (typeof value === 'string') return { ok: true, value };
      if (!v2 && (typeof value === 'number' || typeof value === 'boolean')) return { ok: true, value: typeof value === 'boolean' ? (value ? 'True' : 'False') : String(value) };
      return { ok: false };
    case 'object':
      // A sub-model or dict field takes a mapping; pydantic 2 refuses anything else, pydantic 1
      // tries `dict(value)`, which a list of pairs passes (not settled here) and a scalar fails.
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) return { ok: true, value };
      return Array.isArray(value) && !v2 ? undefined : { ok: false };
    default:
      return undefined;
  }
}

/** Whether a key's own before-validator (`x-validator-refuses`, at the release) refuses the value as written. */
export function validatorRefuses(schema: JsonSchema | undefined, value: unknown, atLeast: (v: string) => boolean): boolean {
  const r = validatorRefusal(schema);
  if (!r || !atLeast(r.since)) return false;
  if (r.kinds.includes('bool') && typeof value === 'boolean') return true;
  if (r.kinds.includes('nonfinite') && ((typeof value === 'number' && !Number.isFinite(value)) || (typeof value === 'string' && NONFINITE_TEXT.test(value)))) return true;
  return r.kinds.includes('non-integer-text') && typeof value === 'string' && !INT_TEXT.test(value);
}

/** The JSON types of a key's plain (not enumerated) schema branches: the pydantic field types lax mode converts to. */
export function fieldTypes(schema: JsonSchema | undefined): string[] {
  const out: string[] = [];
  for (const s of schema?.anyOf ?? [schema]) {
    if (!s || s.enum !== undefined || s.const !== undefined) continue;
    const t = s.type;
    for (const x of Array.isArray(t) ? t : t ? [t] : []) if (!out.includes(x)) out.push(x);
  }
  return out;
}
