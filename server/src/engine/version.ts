/** Release versions as the tools number them (`1.10.0`, `0.15`, `1.13.0.dev0`): numeric parts only. */
export function parseVersion(v: string): number[] {
  return v
    .trim()
    .replace(/^v/, '')
    .split(/[.+-]/)
    .map((p) => /^\d+/.exec(p)?.[0])
    .filter((p): p is string => p !== undefined)
    .map(Number);
}

export function compareVersions(a: string, b: string): number {
  const x = parseVersion(a);
  const y = parseVersion(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

export function versionAtLeast(version: string, min: string): boolean {
  return compareVersions(version, min) >= 0;
}

export function isVersion(v: unknown): v is string {
  return typeof v === 'string' && /^v?\d+(\.\d+)*/.test(v.trim());
}
