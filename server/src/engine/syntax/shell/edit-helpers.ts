/** Helpers of the document's edits: how close two flags are (where a new flag goes), and a value written as a shell word for its place. */
import type { Target } from './types';
import { SAFE_WORD } from './expansion';

const STOP_WORDS = new Set(['size', 'num', 'type', 'path', 'dir', 'file', 'model']);

function flagWords(flag: string): string[] {
  const w = flag.replace(/^-+/, '').toLowerCase().split(/[-_]+/).filter(Boolean);
  if (w.length > 1 && ['no', 'disable', 'use', 'enable'].includes(w[0])) w.shift();
  return w;
}

/** How close two flags are: shared leading words count most, then shared words. */
export function affinity(a: string, b: string): number {
  const x = flagWords(a);
  const y = flagWords(b);
  let prefix = 0;
  while (prefix < x.length && prefix < y.length && x[prefix] === y[prefix]) prefix++;
  const shared = x.filter((w) => !STOP_WORDS.has(w) && y.includes(w)).length;
  return prefix * 10 + shared;
}

/** A value as shell text for a target: keeps the target's quoting, or fits inside the string it is in. */
export function formatWord(v: unknown, target: Target, pref?: 'single' | 'double'): string | undefined {
  let text: string;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return undefined;
    text = String(v);
  } else if (typeof v === 'string') text = v;
  else if (typeof v === 'boolean') text = String(v);
  else return undefined;
  const dq = (): string => `"${text.replace(/[\\"$`]/g, '\\$&')}"`;
  if (target.wrap) {
    const q = pref ?? (target.quote === 'ansi' ? 'single' : target.quote);
    if (q === 'none') return SAFE_WORD.test(text) ? text : dq();
    if (q === 'single') return text.includes("'") ? dq() : `'${text}'`;
    return dq();
  }
  if (text === '' || /\s/.test(text)) return undefined;
  switch (target.quote) {
    case 'none':
    case 'ansi':
      return SAFE_WORD.test(text) ? text : undefined;
    case 'single':
      return text.includes("'") ? undefined : text;
    case 'double':
      return text.replace(/[\\"$`]/g, '\\$&');
  }
}
