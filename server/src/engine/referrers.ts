/** How many of the files that refer to a file are read with it. */

/** Referrers analysed for one file: at most this many, and this many characters in all (a few huge ones cost as much as many). */
export const REFERRER_LIMITS = { count: 20, chars: 512 * 1024 } as const;

/** The referrers within REFERRER_LIMITS, smallest first when they do not all fit. */
export function boundedReferrers<T extends { text: string }>(all: readonly T[]): T[] {
  const first = all.slice(0, REFERRER_LIMITS.count);
  if (first.reduce((n, r) => n + r.text.length, 0) <= REFERRER_LIMITS.chars) return first;
  const out: T[] = [];
  let used = 0;
  for (const r of [...first].sort((a, b) => a.text.length - b.text.length)) {
    if (used + r.text.length > REFERRER_LIMITS.chars) break;
    used += r.text.length;
    out.push(r);
  }
  return out;
}
