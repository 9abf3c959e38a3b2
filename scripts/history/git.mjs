// Git and release versions: reads an upstream mirror (a bare git directory, `git --git-dir`) —
// its tags, trees and blobs — and writes nothing. Every command's output is cached for the run; a
// command that fails reads as null.
import { execFileSync } from 'node:child_process';

const gitCache = new Map();
export function git(dir, ...args) {
  const key = `${dir}\0${args.join('\0')}`;
  if (!gitCache.has(key)) {
    let out;
    try {
      out = execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] });
    } catch {
      out = null;
    }
    gitCache.set(key, out);
  }
  return gitCache.get(key);
}

/** The non-empty lines a git command prints (none when it fails). */
export const gitLines = (dir, ...args) => (git(dir, ...args) ?? '').split('\n').filter(Boolean);

/** A file at a revision, or null when the revision has no such file. */
export const show = (dir, rev, path) => git(dir, 'show', `${rev}:${path}`);

/** Many blobs read with one `git cat-file --batch` per 2000: `[id, text]` in the order of `ids`. */
export function* catBlobs(dir, ids) {
  for (let i = 0; i < ids.length; i += 2000) {
    const chunk = ids.slice(i, i + 2000);
    const buf = execFileSync('git', ['--git-dir', dir, 'cat-file', '--batch'], { input: chunk.join('\n') + '\n', maxBuffer: 1 << 30 });
    let at = 0;
    for (const id of chunk) {
      const nl = buf.indexOf(10, at);
      const [, , size] = buf.subarray(at, nl).toString().split(' ');
      const start = nl + 1;
      yield [id, buf.subarray(start, start + Number(size)).toString('utf8')];
      at = start + Number(size) + 1;
    }
  }
}

const parseVersion = (v) => v.split('.').map(Number);
export function compareVersions(a, b) {
  const x = parseVersion(a);
  const y = parseVersion(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

/** Final release tags `prefix<major>.<minor>.<patch>`, oldest first, from `from` on. */
export function releaseTags(dir, prefix, from) {
  const re = new RegExp(`^${prefix.replace(/\./g, '\\.')}(\\d+\\.\\d+\\.\\d+)$`);
  return gitLines(dir, 'tag')
    .map((t) => [t, re.exec(t)?.[1]])
    .filter(([, v]) => v && compareVersions(v, from) >= 0)
    .map(([tag, version]) => ({ rev: tag, version }))
    .sort((a, b) => compareVersions(a.version, b.version));
}
