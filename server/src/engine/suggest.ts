/** "Did you mean" candidates: optimal string alignment distance, case-insensitive first. */
let rowsA = new Int32Array(64);
let rowsB = new Int32Array(64);
let rowsC = new Int32Array(64);

export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const cols = b.length + 1;
  // Three rolling rows (the transposition looks two rows back), reused between calls.
  if (rowsA.length < cols) [rowsA, rowsB, rowsC] = [new Int32Array(cols * 2), new Int32Array(cols * 2), new Int32Array(cols * 2)];
  let prev2 = rowsA;
  let prev = rowsB;
  let cur = rowsC;
  for (let j = 0; j < cols; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    const t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return prev[b.length];
}

/**
 * `candidate` is a slip of the keyboard for `word`: the same but for case, or one or two characters
 * wrong, missing, extra or swapped (one in words under 8 characters). Only such a correction is made
 * without asking; a farther suggestion (`micro_batch_size` → `train_batch_size`) may be another key.
 */
export function isTypo(word: string, candidate: string): boolean {
  const w = word.toLowerCase();
  const limit = w.length >= 8 ? 2 : 1;
  return editDistance(w, candidate.toLowerCase(), limit) <= limit;
}

/** The one candidate that is a slip of the keyboard for `word`, when exactly one is. */
export function onlySlip(word: string, candidates: readonly string[]): string | undefined {
  const slips = candidates.filter((c) => isTypo(word, c));
  return slips.length === 1 ? slips[0] : undefined;
}

/** Lower-cased candidate lists, kept for the lists callers reuse (schema key lists). */
const lowered = new WeakMap<object, string[]>();

/** The candidates closest to `word`, best first (empty when nothing is close enough). */
export function closest(word: string, candidates: Iterable<string>, limit = 3, maxDistance?: number): string[] {
  const w = word.toLowerCase();
  const max = maxDistance ?? Math.max(2, Math.floor(w.length / 3));
  const list = Array.isArray(candidates) ? (candidates as string[]) : [...candidates];
  let lower = lowered.get(list);
  if (!lower || lower.length !== list.length) {
    lower = list.map((c) => c.toLowerCase());
    if (Array.isArray(candidates)) lowered.set(list, lower);
  }
  const scored: { c: string; d: number }[] = [];
  const suffix = '_' + w;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    const lc = lower[i];
    if (lc === w) {
      scored.push({ c, d: -1 });
      continue;
    }
    // A key written without its section prefix, or with a stray one.
    const affix = (lc.length > w.length && lc.endsWith(suffix)) || (w.length > lc.length && w.charCodeAt(w.length - lc.length - 1) === 95 && w.endsWith(lc));
    if (Math.abs(lc.length - w.length) > max) {
      if (affix) scored.push({ c, d: max });
      continue;
    }
    const d = editDistance(w, lc, max);
    if (d <= max) scored.push({ c, d });
    else if (affix) scored.push({ c, d: max });
  }
  // The same word in another case is the answer; close spellings would only be noise next to it.
  if (scored.some((s) => s.d === -1)) return scored.filter((s) => s.d === -1).map((s) => s.c);
  scored.sort((x, y) => x.d - y.d || x.c.localeCompare(y.c));
  return scored.slice(0, limit).map((s) => s.c);
}
