/** A seeded draw for the tests that check a random sample of upstream facts: the same sample on every run. */

/** mulberry32: a small seeded PRNG. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `n` distinct items, drawn with `random` (a partial Fisher–Yates shuffle). */
export function sample<T>(items: readonly T[], n: number, random: () => number): T[] {
  const a = [...items];
  for (let i = 0; i < Math.min(n, a.length); i++) {
    const j = i + Math.floor(random() * (a.length - i));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a.slice(0, n);
}
