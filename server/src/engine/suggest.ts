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

/**
 * The command-line flag `flag` is a slip for `candidate`: the same words but for one that is a slip
 * of the keyboard (`isTypo`, word by word, so `--use-mpi` is no slip of `--use-mup`), two swapped,
 * one left out or added, or other separators (`--seq-length`, `--seq_length`, `--seqlength`). A flag
 * that is no slip of any known one was written on purpose, for a parser that defines it.
 */
export function isFlagSlip(flag: string, candidate: string): boolean {
  const a = flag.toLowerCase().replace(/^-+/, '');
  const b = candidate.toLowerCase().replace(/^-+/, '');
  if (a === b || editDistance(a, b, 1) <= 1 || a.replace(/[-_]/g, '') === b.replace(/[-_]/g, '')) return true;
  const wa = a.split(/[-_]+/);
  const wb = b.split(/[-_]+/);
  if (Math.abs(wa.length - wb.length) === 1) {
    const [long, short] = wa.length > wb.length ? [wa, wb] : [wb, wa];
    return long.some((_, i) => long.filter((__, j) => j !== i).join('-') === short.join('-'));
  }
  if (wa.length !== wb.length) return false;
  const differ = wa.map((_, i) => i).filter((i) => wa[i] !== wb[i]);
  if (differ.length === 1) return isTypo(wa[differ[0]], wb[differ[0]]);
  return differ.length === 2 && wa[differ[0]] === wb[differ[1]] && wa[differ[1]] === wb[differ[0]];
}

/** The one candidate that is a slip of the keyboard for `word`, when exactly one is. */
export function onlySlip(word: string, candidates: readonly string[]): string | undefined {
  const slips = candidates.filter((c) => isTypo(word, c));
  return slips.length === 1 ? slips[0] : undefined;
}

/**
 * A candidate list made quick to search: lower-cased, by length, and by every ending after an
 * underscore (`fsdp_version` under `version`), so that a word is compared only with candidates of
 * about its length and with those it is an affix of. Kept for the lists callers reuse.
 */
interface CandidateIndex {
  list: string[];
  lower: string[];
  byLength: Map<number, number[]>;
  /** Lower-cased candidate → its positions (the same spelling may come twice). */
  exact: Map<string, number[]>;
  /** An ending after an underscore → the candidates that have it. */
  endings: Map<string, number[]>;
  /** Answers already given: a file is analysed again on every keystroke, with the same unknown keys. */
  answers: Map<string, string[]>;
}

/** Answers kept per candidate list; past this the memory is cleared (a generated file, not a config). */
const MAX_ANSWERS = 10_000;

/** By list (arrays and sets are taken as fixed once given). */
const indexes = new WeakMap<object, CandidateIndex>();

function push<K>(map: Map<K, number[]>, key: K, i: number): void {
  const at = map.get(key);
  if (at) at.push(i);
  else map.set(key, [i]);
}

function indexOf(candidates: Iterable<string>): CandidateIndex {
  const cacheable = Array.isArray(candidates) || candidates instanceof Set;
  const size = Array.isArray(candidates) ? candidates.length : candidates instanceof Set ? candidates.size : -1;
  const known = cacheable ? indexes.get(candidates as object) : undefined;
  if (known && known.list.length === size) return known;
  const list = [...candidates];
  const index: CandidateIndex = { list, lower: list.map((c) => c.toLowerCase()), byLength: new Map(), exact: new Map(), endings: new Map(), answers: new Map() };
  index.lower.forEach((lc, i) => {
    push(index.byLength, lc.length, i);
    push(index.exact, lc, i);
    for (let p = lc.indexOf('_'); p >= 0; p = lc.indexOf('_', p + 1)) push(index.endings, lc.slice(p + 1), i);
  });
  if (cacheable) indexes.set(candidates as object, index);
  return index;
}

/**
 * How far a candidate may be from `word` to be suggested: a third of its length, at least one. Two
 * edits of a word under six characters leave too little of it to say what it meant (`msamp` is not
 * a slip of `amp`, `lr` would match most short keys).
 */
export function suggestionDistance(word: string): number {
  return Math.max(1, Math.floor(word.length / 3));
}

/** The candidates closest to `word`, best first (empty when nothing is close enough). */
export function closest(word: string, candidates: Iterable<string>, limit = 3, maxDistance?: number): string[] {
  const w = word.toLowerCase();
  const max = maxDistance ?? suggestionDistance(w);
  const index = indexOf(candidates);
  const question = `${limit}\u0000${max}\u0000${w}`;
  const known = index.answers.get(question);
  if (known) return [...known];
  const answer = rank(index, w, limit, max);
  if (index.answers.size >= MAX_ANSWERS) index.answers.clear();
  index.answers.set(question, answer);
  return [...answer];
}

function rank({ list, lower, byLength, exact, endings }: CandidateIndex, w: string, limit: number, max: number): string[] {
  // The same word in another case is the answer; close spellings would only be noise next to it.
  const same = exact.get(w);
  if (same) return [...new Set(same.map((i) => list[i]))].slice(0, limit);
  // A key written without its section prefix (a candidate ending in `_word`), or with a stray one
  // (the word ends in `_candidate`): suggested even when the spelling is far.
  const affix = new Set(endings.get(w));
  for (let p = w.indexOf('_'); p >= 0; p = w.indexOf('_', p + 1)) for (const i of exact.get(w.slice(p + 1)) ?? []) affix.add(i);
  const own = histogram(w, wordCounts);
  const scored: { c: string; d: number }[] = [];
  // The order does not matter: the result is sorted by distance, then by spelling.
  for (let n = Math.max(0, w.length - max); n <= w.length + max; n++) {
    for (const i of byLength.get(n) ?? []) {
      const lc = lower[i];
      // Each edit changes the letter counts by at most two: a cheap bound that skips most candidates.
      const d = lowerBound(own, w.length, lc) > max ? max + 1 : editDistance(w, lc, max);
      if (d <= max) scored.push({ c: list[i], d });
      else if (affix.has(i)) scored.push({ c: list[i], d: max });
    }
  }
  for (const i of affix) if (Math.abs(lower[i].length - w.length) > max) scored.push({ c: list[i], d: max });
  scored.sort((x, y) => x.d - y.d || x.c.localeCompare(y.c));
  // A list may hold a spelling twice (a key of two sources): it is suggested once.
  return [...new Set(scored.map((s) => s.c))].slice(0, limit);
}

/** Letter counts in 64 buckets (merging letters into a bucket only lowers the bound below). */
const wordCounts = new Int32Array(64);
const otherCounts = new Int32Array(64);

function histogram(word: string, into: Int32Array): Int32Array {
  into.fill(0);
  for (let i = 0; i < word.length; i++) into[word.charCodeAt(i) & 63]++;
  return into;
}

/** A lower bound of the edit distance: half the letter-count difference, rounded up. */
function lowerBound(own: Int32Array, length: number, other: string): number {
  otherCounts.set(own);
  let shared = 0;
  for (let i = 0; i < other.length; i++) {
    const b = other.charCodeAt(i) & 63;
    if (otherCounts[b] > 0) {
      otherCounts[b]--;
      shared++;
    }
  }
  return (length + other.length - 2 * shared + 1) >> 1;
}

/** ` (did you mean a or b?)` for the candidates close to `word` (each shown by `show`), or nothing. */
export function didYouMean(word: string, candidates: Iterable<string>, show: (c: string) => string = (c) => c): string {
  const near = closest(word, candidates, 2);
  return near.length ? ` (did you mean ${near.map(show).join(' or ')}?)` : '';
}
