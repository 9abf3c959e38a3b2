/**
 * YAML 1.1 scalar resolution exactly as PyYAML's `yaml.safe_load` does it, which is what Accelerate,
 * NeMo and Megatron use. The `yaml` package's own 1.1 schema differs in a few places that matter here
 * (`y`/`n` are strings for PyYAML, `1e8` is a string because PyYAML wants a dot and a signed exponent).
 */

export const PY_BOOL = /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/;
export const PY_NULL = /^(?:~|null|Null|NULL|)$/;
export const PY_INT = /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/;
export const PY_FLOAT =
  /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

export function pyBool(s: string): boolean {
  return /^(?:yes|true|on)$/i.test(s);
}

function sexagesimal(body: string): number {
  let value = 0;
  for (const part of body.split(':')) value = value * 60 + Number(part);
  return value;
}

export function pyInt(src: string): number {
  let s = src.replace(/_/g, '');
  let sign = 1;
  if (s[0] === '-' || s[0] === '+') {
    if (s[0] === '-') sign = -1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s.startsWith('0b')) return sign * parseInt(s.slice(2), 2);
  if (s.startsWith('0x')) return sign * parseInt(s.slice(2), 16);
  if (s.startsWith('0')) return sign * parseInt(s.slice(1), 8);
  if (s.includes(':')) return sign * sexagesimal(s);
  return sign * parseInt(s, 10);
}

export function pyFloat(src: string): number {
  let s = src.replace(/_/g, '').toLowerCase();
  let sign = 1;
  if (s[0] === '-' || s[0] === '+') {
    if (s[0] === '-') sign = -1;
    s = s.slice(1);
  }
  if (s === '.inf') return sign * Infinity;
  if (s === '.nan') return NaN;
  if (s.includes(':')) return sign * sexagesimal(s);
  return sign * Number(s);
}

/** How PyYAML resolves an untagged plain scalar. */
export function resolvePlain(s: string): string | number | boolean | null {
  if (PY_NULL.test(s)) return null;
  if (PY_BOOL.test(s)) return pyBool(s);
  if (PY_INT.test(s)) return pyInt(s);
  if (PY_FLOAT.test(s)) return pyFloat(s);
  return s;
}

/**
 * A plain scalar that reads back as the same string (no quoting needed). Inside flow collections
 * (`[a, b]`, `{k: v}`) the flow indicators `,[]{}` end a plain scalar; in block context they do not.
 */
export function isPlainSafe(s: string, flow = true): boolean {
  if (s === '' || s !== s.trim()) return false;
  if (/^[,[\]{}#&*!|>'"%@`]/.test(s) || /^[-?:](\s|$)/.test(s)) return false;
  if (/: |:$| #|[\n\r\t]/.test(s)) return false;
  if (flow && /[[\]{},]/.test(s)) return false;
  return resolvePlain(s) === s;
}

export function quoteSingle(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

export function quoteDouble(s: string): string {
  return JSON.stringify(s);
}

/** Formats a value as a YAML scalar or flow collection, for an edit (`flow`: inside a flow collection). */
export function formatYamlValue(value: unknown, quote?: 'single' | 'double', flow = false): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : value > 0 ? '.inf' : value < 0 ? '-.inf' : '.nan';
  if (typeof value === 'string') {
    if (quote === 'double') return quoteDouble(value);
    if (quote === 'single' || !isPlainSafe(value, flow)) return quoteSingle(value);
    return value;
  }
  if (Array.isArray(value)) return `[${value.map((v) => formatYamlValue(v, undefined, true)).join(', ')}]`;
  if (typeof value === 'object') {
    const parts = Object.entries(value as Record<string, unknown>).map(([k, v]) => `${formatYamlKey(k)}: ${formatYamlValue(v, undefined, true)}`);
    return parts.length ? `{ ${parts.join(', ')} }` : '{}';
  }
  return quoteSingle(String(value));
}

export function formatYamlKey(key: string): string {
  return isPlainSafe(key) ? key : quoteSingle(key);
}
