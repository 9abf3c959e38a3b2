/**
 * The git submodules of a repository (node side): each one's folder, where it is cloned from, and the
 * commit the repository pins it at. A submodule that is not checked out leaves an empty folder, but
 * git's index still records its commit, and what runs there once it is checked out is that commit:
 * the engine can name the release it is (formats/megatron/tags.ts).
 *
 * Read with the machine's git, and only what git keeps as data: the `.gitmodules` file
 * (`git config --file`) and the index's entries for those folders (`git ls-files --stage`), with the
 * repository's file-system monitor hook turned off and no lock taken, so nothing of the workspace
 * runs. No git, a repository git refuses to read, or a slow answer: no submodules (not known).
 * Cached per repository root, and read again when `.gitmodules` or the index changes.
 */
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { inside } from './resolve';
import type { Submodule } from '../engine';

const GIT_TIMEOUT_MS = 5_000;
const MAX_OUTPUT_BYTES = 4 * 1024 * 1024;
/** A repository declaring more submodules than this is read for the first ones only. */
const MAX_SUBMODULES = 256;

const cache = new Map<string, { stamp: string; submodules: readonly Submodule[] }>();

function mtime(path: string): string {
  try {
    const s = statSync(path);
    return `${s.mtimeMs}:${s.size}`;
  } catch {
    return '-';
  }
}

/**
 * The repository each folder lies in, as found (every missing linked file asks, on every analysis:
 * the walk is done once per folder). Bounded; a `.git` or `.gitmodules` created later is seen once
 * the cache is cleared (`clearSubmodules`, when the host forgets what it read).
 */
const roots = new Map<string, string | null>();
const MAX_ROOTS = 65_536;

/** Forgets the repositories and submodules read (a file the host watches was created or deleted). */
export function clearSubmodules(): void {
  roots.clear();
  cache.clear();
}

/** The root of the repository a path lies in: the nearest folder above it with a `.gitmodules` beside its `.git`. */
function rootOf(path: string): string | undefined {
  const start = dirname(resolve(path));
  const hit = roots.get(start);
  if (hit !== undefined) return hit ?? undefined;
  let found: string | null = null;
  let dir = start;
  // Every folder walked through has the same answer: it is kept for each (a run looks up many paths under one tree).
  const walked: string[] = [];
  for (let i = 0; i < 64; i++) {
    const known = roots.get(dir);
    if (known !== undefined) {
      found = known;
      break;
    }
    walked.push(dir);
    try {
      statSync(join(dir, '.git'));
      // The nearest repository (a checked-out submodule is one too): its submodules, if it declares any.
      found = mtime(join(dir, '.gitmodules')) === '-' ? null : dir;
      break;
    } catch {
      // Not a repository's root: go up.
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  if (roots.size + walked.length >= MAX_ROOTS) roots.clear();
  for (const d of walked) roots.set(d, found);
  return found ?? undefined;
}

function git(root: string, args: readonly string[]): string | undefined {
  try {
    return execFileSync('git', ['-c', 'core.fsmonitor=false', '--no-optional-locks', '-C', root, ...args], {
      encoding: 'utf8',
      timeout: GIT_TIMEOUT_MS,
      maxBuffer: MAX_OUTPUT_BYTES,
      stdio: ['ignore', 'pipe', 'ignore'],
      windowsHide: true,
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' },
    });
  } catch {
    return undefined;
  }
}

/** The submodules `.gitmodules` declares at `root`, with the commits the index pins them at. */
function read(root: string): Submodule[] {
  const declared = git(root, ['config', '--file', '.gitmodules', '-z', '--get-regexp', '^submodule\\..*\\.(path|url)$']);
  if (!declared) return [];
  const byName = new Map<string, { path?: string; url?: string }>();
  for (const entry of declared.split('\0')) {
    const nl = entry.indexOf('\n');
    if (nl < 0) continue;
    const m = /^submodule\.(.*)\.(path|url)$/.exec(entry.slice(0, nl));
    if (!m) continue;
    const s = byName.get(m[1]) ?? {};
    s[m[2] as 'path' | 'url'] = entry.slice(nl + 1);
    byName.set(m[1], s);
  }
  const declaredPaths = new Map<string, string>();
  for (const s of byName.values()) if (s.path && s.url && !s.path.startsWith('-') && declaredPaths.size < MAX_SUBMODULES) declaredPaths.set(s.path.replace(/\/+$/, ''), s.url);
  if (!declaredPaths.size) return [];
  const staged = git(root, ['ls-files', '--stage', '-z', '--', ...declaredPaths.keys()]);
  if (!staged) return [];
  const out: Submodule[] = [];
  for (const entry of staged.split('\0')) {
    // `<mode> <object> <stage>\t<path>`; a submodule is mode 160000, its object the pinned commit.
    const m = /^160000 ([0-9a-f]{40}|[0-9a-f]{64}) \d\t(.+)$/.exec(entry);
    const url = m ? declaredPaths.get(m[2]) : undefined;
    if (m && url !== undefined) out.push({ path: resolve(root, m[2]), url, commit: m[1] });
  }
  return out;
}

/** The submodule of its repository that `path` lies in (or is), when the repository declares one there. */
export function submoduleAt(path: string): Submodule | undefined {
  const abs = resolve(path);
  const root = rootOf(abs);
  if (!root) return undefined;
  const stamp = `${mtime(join(root, '.gitmodules'))}|${mtime(join(root, '.git', 'index'))}`;
  let entry = cache.get(root);
  if (!entry || entry.stamp !== stamp) {
    entry = { stamp, submodules: read(root) };
    cache.set(root, entry);
  }
  return entry.submodules.find((s) => s.path === abs || inside(s.path, abs) !== undefined);
}
