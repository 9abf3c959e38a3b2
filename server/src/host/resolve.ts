/**
 * Finds the file a config refers to (an Accelerate config's `deepspeed_config_file`), node side.
 *
 * Accelerate opens the path relative to the directory `accelerate launch` runs in, which neither the
 * editor nor CI knows, so the host tries, in order:
 *   1. an absolute path as it is;
 *   2. relative to the folder of the file that refers to it, then to each folder above it up to the
 *      base folder it lies in (the launch folder may be any of them);
 *   3. relative to each further base folder: the workspace folder roots (language server) or the
 *      current directory (CLI).
 * The text of an open editor document wins over the disk (unsaved edits count). Every location
 * looked at is listed in `tried`, in order, so a "not found" message can quote them and the language
 * server can watch them. Nothing here throws. Only regular files are read, through `readBounded`
 * (host/read.ts: never a device, a FIFO or a directory, never past the size limit, never blocking);
 * a location that exists but cannot be used (a directory, a device, a FIFO, a symbolic link loop,
 * an over-large or unreadable file) is skipped like a missing one, and the first such location is
 * returned as `problem` with its reason when nothing usable is found, so the message says why.
 * When nothing is there at all and a location lies in a git submodule that is not checked out, the
 * submodule and its pinned commit are returned (host/submodules.ts).
 */
import { statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { LinkedFile, Submodule } from '../engine';
import { readBounded } from './read';
import { submoduleAt } from './submodules';

/** Larger files are not read (the engine does not analyse them either). */
export const MAX_LINKED_BYTES = 8 * 1024 * 1024;

export interface ResolverOptions {
  /** Absolute path of the file that holds the reference; its folder is tried first. */
  from?: string;
  /** Further folders, in order: workspace folder roots (editor) or the current directory (CLI). */
  bases?: readonly string[];
  /** The text of an open editor document at an absolute path, if one is open (wins over the disk). */
  openText?: (path: string) => string | undefined;
  /** Called with every location tried (the language server watches them). */
  onTry?: (path: string) => void;
  /** Called with every file found (path and text), before it is returned. */
  onFound?: (path: string, text: string) => void;
  /**
   * What the lookups of one run found absent, kept across its files (the CLI: the modules a training
   * program imports are looked for again by every script that runs it, from folder after folder).
   * Only absences are kept: a fix the run writes changes a file that exists, never makes one appear.
   * Not for an editor, where files come and go.
   */
  absent?: AbsenceCache;
}

/** Locations found absent, and what was worked out about them (the submodule, the deepest folder). */
export interface AbsenceCache {
  missing: Set<string>;
  submodule: Map<string, Submodule | null>;
  deepest: Map<string, string | null>;
}

/** A cache for one run (bounded). */
export function absenceCache(): AbsenceCache {
  return { missing: new Set(), submodule: new Map(), deepest: new Map() };
}

const MAX_ABSENT = 200_000;

/** A canonical key for an absolute path: normalized, case-folded where the file system folds case. */
export function pathKey(path: string): string {
  const p = resolve(path);
  return process.platform === 'win32' ? p.toLowerCase() : p;
}

/** The absolute locations a reference may mean, in the order they are tried, without duplicates. */
export function candidates(ref: string, from: string | undefined, bases: readonly string[] = []): string[] {
  if (typeof ref !== 'string' || ref.length === 0 || ref.includes('\u0000')) return [];
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (p: string) => {
    const key = pathKey(p);
    if (!seen.has(key)) {
      seen.add(key);
      out.push(resolve(p));
    }
  };
  try {
    if (isAbsolute(ref)) {
      add(ref);
      return out;
    }
    if (from && isAbsolute(from)) {
      add(resolve(dirname(from), ref));
      // The launch folder may be any folder between the file and the root it is found under (an
      // example launched from its own folder names `configs/ds.json` from there): each, nearest first.
      const root = bases.filter((b) => b && isAbsolute(b) && inside(b, from) !== undefined).sort((a, b) => b.length - a.length)[0];
      if (root) for (let d = dirname(dirname(from)); inside(root, d) !== undefined; d = dirname(d)) add(resolve(d, ref));
    }
    for (const base of bases) if (base && isAbsolute(base)) add(resolve(base, ref));
  } catch {
    // An unusable path: whatever was found so far.
  }
  return out;
}

/** Reads a regular file's text, or undefined (absent, a directory, a device, unreadable, too large). */
export function readTextFile(path: string, maxBytes = MAX_LINKED_BYTES): string | undefined {
  const r = readBounded(path, maxBytes);
  return r.ok ? r.text : undefined;
}

/** Looks a reference up in the order above; never throws. */
export function resolveReference(ref: string, options: ResolverOptions = {}): LinkedFile {
  const tried: string[] = [];
  let problem: LinkedFile['problem'];
  try {
    for (const path of candidates(ref, options.from, options.bases)) {
      tried.push(path);
      safely(() => options.onTry?.(path));
      let text: string | undefined;
      try {
        text = options.openText?.(path);
      } catch {
        text = undefined;
      }
      if (typeof text !== 'string' && !options.absent?.missing.has(path)) {
        const read = readBounded(path, MAX_LINKED_BYTES);
        if (read.ok) text = read.text;
        else if (read.kind !== 'missing') problem ??= { path, reason: read.reason };
        else if (options.absent && options.absent.missing.size < MAX_ABSENT) options.absent.missing.add(path);
      }
      if (typeof text === 'string') {
        const found = text;
        safely(() => options.onFound?.(path, found));
        return { ref, path, text, tried };
      }
    }
  } catch {
    // Fall through: not found.
  }
  // Nothing there: a location in a submodule the repository pins but has not checked out still
  // says what runs there (its commit).
  const submodule = problem ? undefined : inSubmodule(tried, options.absent);
  if (problem) return { ref, tried, problem };
  const deepestFolder = tried.length ? remembered(options.absent?.deepest, tried[0], deepestExisting) : undefined;
  return { ref, tried, ...(submodule ? { submodule } : {}), ...(deepestFolder ? { deepestFolder } : {}) };
}

/** The deepest folder on `path`'s way that exists (a folder, not a file). */
function deepestExisting(path: string): string | undefined {
  let dir = dirname(path);
  for (let i = 0; i < 64; i++) {
    try {
      if (statSync(dir).isDirectory()) return dir;
    } catch {
      // Not there: go up.
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return undefined;
}

function inSubmodule(tried: readonly string[], absent: AbsenceCache | undefined): Submodule | undefined {
  for (const path of tried) {
    const s = remembered(absent?.submodule, path, (p) => {
      try {
        return submoduleAt(p);
      } catch {
        return undefined;
      }
    });
    if (s) return s;
  }
  return undefined;
}

/** `work(key)`, through `cache` when there is one (undefined results kept as null). */
function remembered<T>(cache: Map<string, T | null> | undefined, key: string, work: (key: string) => T | undefined): T | undefined {
  if (!cache) return work(key);
  const known = cache.get(key);
  if (known !== undefined) return known ?? undefined;
  const value = work(key);
  if (cache.size < MAX_ABSENT) cache.set(key, value ?? null);
  return value;
}

/** A `FileInput.resolve` for one file. */
export function createResolver(options: ResolverOptions): (ref: string) => LinkedFile {
  return (ref) => resolveReference(ref, options);
}

function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // A host callback must not break the lookup.
  }
}

/** `path` relative to `base` with `/` separators, or undefined when it is not inside `base`. */
export function inside(base: string, path: string): string | undefined {
  const rel = relative(base, path);
  if (!rel || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return sep === '/' ? rel : rel.split(sep).join('/');
}
