/** "Did you mean" candidates: optimal string alignment distance, case-insensitive first. */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => {
    const row = new Array<number>(cols).fill(0);
    row[0] = i;
    return row;
  });
  for (let j = 0; j < cols; j++) d[0][j] = j;
  for (let i = 1; i < rows; i++) {
    let rowMin = Infinity;
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2][j - 2] + 1);
      d[i][j] = v;
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > max) return max + 1;
  }
  return d[a.length][b.length];
}

/** The candidates closest to `word`, best first (empty when nothing is close enough). */
export function closest(word: string, candidates: Iterable<string>, limit = 3): string[] {
  const w = word.toLowerCase();
  const max = Math.max(2, Math.floor(w.length / 3));
  const scored: { c: string; d: number }[] = [];
  for (const c of candidates) {
    const lc = c.toLowerCase();
    if (lc === w) {
      scored.push({ c, d: -1 });
      continue;
    }
    const d = editDistance(w, lc, max);
    if (d <= max) scored.push({ c, d });
    // A key written without its section prefix, or with a stray one.
    else if (lc.endsWith('_' + w) || w.endsWith('_' + lc)) scored.push({ c, d: max });
  }
  // The same word in another case is the answer; close spellings would only be noise next to it.
  if (scored.some((s) => s.d === -1)) return scored.filter((s) => s.d === -1).map((s) => s.c);
  scored.sort((x, y) => x.d - y.d || x.c.localeCompare(y.c));
  return scored.slice(0, limit).map((s) => s.c);
}
