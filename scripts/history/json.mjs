// JSON that keeps the schema's number spellings (`1.0`, `1e-05`) and its one-line arrays through a
// rewrite: reads a schema file (schemas/*.schema.json) into objects whose numbers are RawNumber,
// and turns them back into the same text. Writes nothing itself (write.mjs does).
import { readFileSync } from 'node:fs';

export class RawNumber {
  constructor(text) {
    this.text = text;
  }
  valueOf() {
    return Number(this.text);
  }
}

const oneLine = new WeakSet();

export function parseJson(text) {
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

export function stringifyJson(v, indent = '') {
  if (v instanceof RawNumber) return v.text;
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (oneLine.has(v)) return compactJson(v);
  const inner = `${indent}  `;
  if (Array.isArray(v)) return v.length === 0 ? '[]' : `[\n${v.map((x) => inner + stringifyJson(x, inner)).join(',\n')}\n${indent}]`;
  const keys = Object.keys(v);
  return keys.length === 0 ? '{}' : `{\n${keys.map((k) => `${inner}${JSON.stringify(k)}: ${stringifyJson(v[k], inner)}`).join(',\n')}\n${indent}}`;
}

/** A schema file, parsed with its number spellings and one-line arrays kept. */
export const readSchema = (path) => parseJson(readFileSync(path, 'utf8'));

/** A schema default as the snapshot writes it (numbers by their value; no default: None). */
export const schemaDefault = (v) => (v === undefined ? null : v instanceof RawNumber ? Number(v.text) : Array.isArray(v) ? v.map(schemaDefault) : v);

/** `x-default-before` of a property with its numbers by their value (undefined when it has none). */
export const defaultBefore = (prop) => prop['x-default-before'] && Object.fromEntries(Object.entries(prop['x-default-before']).map(([k, v]) => [k, schemaDefault(v)]));
