/**
 * The flags the Python of a file's repository defines: the spellings of its `add_argument(` calls
 * (read by the engine's `parserFlags`), so that a framework built on Megatron-LM (an RL framework, a
 * fork, a fine-tuning kit) whose launch scripts pass its own flags is judged by its own parsers too.
 *
 * The repository of a file is the nearest folder at or above it that holds `.git` (a folder, or the
 * file a worktree or submodule has); without one, the farthest folder above it that holds a
 * `pyproject.toml`, `setup.py`, `setup.cfg` or `requirements.txt` (a project unpacked from an
 * archive; the farthest, since nested packages have their own). The user's home folder and the
 * filesystem root are never a repository, and the search stops at the home folder.
 *
 * Every `.py` file under the root is read, except in hidden folders and in `node_modules`, `venv`,
 * `.venv`, `site-packages`, `build`, `dist` and `__pycache__`. A symbolic link is followed only to a
 * file or folder inside the root, and a folder reached twice is read once (no loop). The work is
 * bounded (REPOSITORY_LIMITS): a count of Python files, of folders, a depth, a total of bytes, a size
 * per file and a wall-clock time; when a bound is reached, or a file cannot be read, the index says it
 * is incomplete and why, and the messages say so. Nothing here throws.
 *
 * One index per root, cached. The CLI builds it once per run (`forFile`, synchronously). The
 * language server builds it in slices of a few milliseconds (`prepare`), yielding to the event loop
 * between them so requests are answered meanwhile; a Python file changed on disk (watched
 * `**\/*.py`) is read again alone (`fileChanged`), a new or deleted one marks the index for a new
 * walk, and before an index is used again (at most once every few seconds) the modification times of
 * the folders walked and of the files with parsers are compared with those it was built from.
 */
import { readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { argsAssignments, configAssignments, configReads, deepspeedConfigReads, flagLiterals, parserFlags, readsLeniently, REPOSITORY_FLAG_LIMITS, type RepositoryFlags } from '../engine';
import { formatBytes, readBounded } from './read';
import { inside } from './resolve';

export const REPOSITORY_LIMITS = {
  /** Python files read. The largest repositories Shardwise is tried on (NeMo) have some 2,600. */
  files: 20_000,
  /** Folders listed. */
  folders: 50_000,
  /** Levels of folders below the root. */
  depth: 40,
  /** Bytes of Python read in all. */
  bytes: 128 * 1024 * 1024,
  /** A larger Python file is not read (generated code): the index is then incomplete. */
  fileBytes: 2 * 1024 * 1024,
  /** Wall-clock time of one index. */
  ms: 10_000,
  /** The language server's walk yields to the event loop after this long. */
  sliceMs: 10,
  /** Before an index is used again, its folders are compared with the disk at most this often. */
  staleCheckMs: 2_000,
} as const;

export type RepositoryLimits = { [K in keyof typeof REPOSITORY_LIMITS]: number };

/** Folders never searched, besides hidden ones: installed packages, environments, build output, caches. */
export const SKIPPED_FOLDERS: ReadonlySet<string> = new Set(['node_modules', 'venv', '.venv', 'site-packages', 'build', 'dist', '__pycache__']);
/** What marks a project's root folder where there is no `.git`. */
export const PROJECT_MARKERS = ['pyproject.toml', 'setup.py', 'setup.cfg', 'requirements.txt'];

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The repository root of a file (see the header), or undefined when it is in none. */
export function repositoryRoot(file: string, home: string = homedir()): string | undefined {
  const stop = resolve(home);
  let dir = dirname(resolve(file));
  let marked: string | undefined;
  for (let i = 0; i < 64; i++) {
    const parent = dirname(dir);
    if (dir === stop || parent === dir) break;
    if (exists(join(dir, '.git'))) return dir;
    if (PROJECT_MARKERS.some((m) => exists(join(dir, m)))) marked = dir;
    dir = parent;
  }
  return marked;
}

/** A built index: the setting the engine reads, and what the host keeps to update and check it. */
interface Built {
  root: string;
  flags: RepositoryFlags;
  /** Python files read, by path relative to the root → the flags each defines (none: an empty list). */
  files: Map<string, readonly string[]>;
  /** Modification times of the folders listed and of the files with parsers, by absolute path. */
  stamps: Map<string, number>;
  /** Why the index is incomplete (the bounds reached, what could not be read); empty when complete. */
  limits: string[];
  checkedAt: number;
  /** A change that could not be applied to it was seen: walk again before using it. */
  dirty: boolean;
}

function mtime(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/** The flag setting of a built index: the union of its files' flags, within the setting's bounds. */
function summarize(b: Omit<Built, 'flags'>): RepositoryFlags {
  const all = new Set<string>();
  const parsers: [string, number][] = [];
  const keys = new Set<string>();
  const reads = new Set<string>();
  const argsSet = new Set<string>();
  const dsReads = new Map<string, string>();
  let lenient: string | undefined;
  for (const [rel, defined] of b.files) {
    if (!lenient && defined.includes('!lenient')) lenient = rel;
    const flags = defined.filter((f) => f.startsWith('-'));
    for (const k of defined) if (k.startsWith('=')) keys.add(k.slice(1));
    for (const k of defined) if (k.startsWith('.')) reads.add(k.slice(1));
    for (const k of defined) if (k.startsWith('^') && !dsReads.has(k.slice(1))) dsReads.set(k.slice(1), rel);
    // Megatron's own package sets its arguments in its checks, under conditions the file's flags
    // decide; tests and tools set them for their own runs, not for the training a script starts.
    if (!/(^|\/)(megatron|tests?|tools)\/|(^|\/)(test_[^/]*|[^/]*_test|conftest)\.py$/.test(rel)) for (const k of defined) if (k.startsWith('~')) argsSet.add(k.slice(1));
    if (flags.length === 0) continue;
    parsers.push([rel, flags.length]);
    for (const f of flags) all.add(f);
  }
  parsers.sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1));
  // Within what the engine accepts as a setting (a longer spelling is no real flag).
  const { flags: most, flagLength } = REPOSITORY_FLAG_LIMITS;
  const flags = [...all].filter((f) => f.length <= flagLength).sort().slice(0, most);
  const limits = all.size > most ? [...b.limits, `only ${most} of its ${all.size} flags are kept`] : b.limits;
  return Object.freeze({
    flags: Object.freeze(flags),
    files: b.files.size,
    withParsers: parsers.length,
    parsers: Object.freeze(parsers.slice(0, REPOSITORY_FLAG_LIMITS.parsers).map(([rel]) => rel).filter((rel) => rel.length <= REPOSITORY_FLAG_LIMITS.text)),
    complete: limits.length === 0,
    incomplete: limits.length ? limits.join('; ') : undefined,
    root: b.root.length <= REPOSITORY_FLAG_LIMITS.text ? b.root : undefined,
    configKeys: Object.freeze([...keys].filter((k) => k.length <= flagLength).sort().slice(0, most)),
    configReads: Object.freeze([...reads].filter((k) => k.length <= flagLength).sort().slice(0, most)),
    deepspeedReads: Object.freeze(
      [...dsReads]
        .filter(([k, rel]) => k.length <= flagLength && rel.length <= REPOSITORY_FLAG_LIMITS.text)
        .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
        .slice(0, most)
        .map(([key, file]) => Object.freeze({ key, file })),
    ),
    argsSet: Object.freeze([...argsSet].filter((k) => k.length <= flagLength).sort().slice(0, most)),
    lenient: lenient && lenient.length <= REPOSITORY_FLAG_LIMITS.text ? lenient : undefined,
  });
}

/**
 * What one Python file's text defines (never throws): the flags of its `add_argument(` calls;
 * written `=model.x` (no flag starts with `=`), the config paths it assigns (`cfg.model.x = …`); and
 * written `.name`, the config keys it reads (`cfg.get("name")`); written `~name`, the Megatron
 * arguments it sets (`args.name = …`); written `^key`, the DeepSpeed config keys it reads
 * (`param_dict["msamp"]`); flags it names as string literals
 * (`"--patch-size"`) are counted as flags it handles, and `!lenient` marks a file that reads its
 * arguments with `parse_known_args`.
 */
function flagsOf(text: string): string[] {
  try {
    const flags = text.includes('add_argument') ? parserFlags(text) : [];
    const literals = flagLiterals(text).filter((f) => !flags.includes(f));
    return [...flags, ...literals, ...configAssignments(text).map((k) => `=${k}`), ...configReads(text).map((k) => `.${k}`), ...argsAssignments(text).map((k) => `~${k}`), ...deepspeedConfigReads(text).map((k) => `^${k}`), ...(readsLeniently(text) ? ['!lenient'] : [])].sort();
  } catch {
    return [];
  }
}

/**
 * One walk of a root, resumable: `step(deadline)` works until the deadline and says whether it is
 * done, so the same walk runs whole (the CLI) or in slices between the language server's requests.
 * A unit of work is one folder listed or one file read, so a slice ends on time.
 */
export class RepositoryWalk {
  /** Folders to list, and the files of the last folders listed, to read: the next one last. */
  private readonly folders: { dir: string; depth: number }[];
  private readonly pending: string[] = [];
  private readonly seen = new Set<string>();
  private readonly files = new Map<string, readonly string[]>();
  private readonly stamps = new Map<string, number>();
  private readonly realRoot: string;
  private listed = 0;
  private bytes = 0;
  private oversized = 0;
  private unreadable = 0;
  private tooDeep = false;
  private stopped: string | undefined;
  private readonly started: number;

  constructor(
    readonly root: string,
    private readonly limits: RepositoryLimits = REPOSITORY_LIMITS,
    private readonly now: () => number = Date.now,
  ) {
    this.folders = [{ dir: root, depth: 0 }];
    this.started = now();
    let real = root;
    try {
      real = realpathSync(root);
    } catch {
      this.folders.length = 0;
      this.unreadable++;
    }
    this.realRoot = real;
  }

  /** Works until `deadline` (by `now`); true when the walk is over. */
  step(deadline: number): boolean {
    while ((this.pending.length || this.folders.length) && !this.stopped) {
      if (this.pending.length) this.read(this.pending.pop()!);
      else this.visit(this.folders.pop()!);
      const now = this.now();
      if (now - this.started > this.limits.ms) this.stopped = `the search stops after ${this.limits.ms / 1000} s`;
      else if (now >= deadline) return this.pending.length === 0 && this.folders.length === 0;
    }
    return true;
  }

  /** Runs the walk to its end (or its bounds). */
  run(): Built {
    while (!this.step(Number.POSITIVE_INFINITY));
    return this.result();
  }

  result(): Built {
    const limits: string[] = [];
    if (this.stopped) limits.push(this.stopped);
    if (this.tooDeep) limits.push(`folders more than ${this.limits.depth} levels deep are not searched`);
    if (this.oversized) limits.push(`${this.oversized} Python file${this.oversized === 1 ? '' : 's'} over ${formatBytes(this.limits.fileBytes, true)} ${this.oversized === 1 ? 'was' : 'were'} not read`);
    if (this.unreadable) limits.push(`${this.unreadable} file${this.unreadable === 1 ? '' : 's'} or folder${this.unreadable === 1 ? '' : 's'} could not be read`);
    const built = { root: this.root, files: this.files, stamps: this.stamps, limits, checkedAt: this.now(), dirty: false };
    return { ...built, flags: summarize(built) };
  }

  private visit({ dir, depth }: { dir: string; depth: number }): void {
    let id: string;
    try {
      const st = statSync(dir);
      id = `${st.dev}:${st.ino}`;
      this.stamps.set(dir, st.mtimeMs);
    } catch {
      this.unreadable++;
      return;
    }
    if (this.seen.has(id)) return;
    this.seen.add(id);
    if (++this.listed > this.limits.folders) {
      this.stopped = `the search stops after ${this.limits.folders} folders`;
      return;
    }
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      this.unreadable++;
      return;
    }
    // Read in name order (pushed last to first), so the same tree gives the same index whatever bound it reaches.
    entries.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const path = join(dir, e.name);
      let isDir = e.isDirectory();
      let isFile = e.isFile();
      // A symbolic link (or a file system that does not give entry types): what it points at, inside the root only.
      if (!isDir && !isFile && !e.isFIFO() && !e.isSocket() && !e.isCharacterDevice() && !e.isBlockDevice()) [isDir, isFile] = this.target(path);
      if (isDir && !SKIPPED_FOLDERS.has(e.name)) {
        if (depth + 1 > this.limits.depth) this.tooDeep = true;
        else this.folders.push({ dir: path, depth: depth + 1 });
      } else if (isFile && e.name.endsWith('.py')) this.pending.push(path);
    }
  }

  /** What a path points at when that is inside the root: [folder, file]; outside, a loop, broken or anything else: neither. */
  private target(path: string): [boolean, boolean] {
    try {
      const real = realpathSync(path);
      if (real !== this.realRoot && inside(this.realRoot, real) === undefined) return [false, false];
      const st = statSync(real);
      return [st.isDirectory(), st.isFile()];
    } catch {
      return [false, false];
    }
  }

  private read(path: string): void {
    if (this.files.size >= this.limits.files) {
      this.stopped = `the search stops after ${this.limits.files} Python files`;
      return;
    }
    const room = this.limits.bytes - this.bytes;
    const read = readBounded(path, Math.min(this.limits.fileBytes, room));
    if (!read.ok) {
      if (read.kind === 'too-large' && read.size !== undefined && read.size <= this.limits.fileBytes) this.stopped = `the search stops after ${formatBytes(this.limits.bytes, true)} of Python`;
      else if (read.kind === 'too-large') this.oversized++;
      else if (read.kind !== 'missing') this.unreadable++;
      return;
    }
    this.bytes += read.size;
    const flags = flagsOf(read.text);
    this.files.set(inside(this.root, path) ?? basename(path), flags);
    if (flags.length) {
      const t = mtime(path);
      if (t !== undefined) this.stamps.set(path, t);
    }
  }
}

export interface RepositoryIndexOptions {
  limits?: Partial<RepositoryLimits>;
  /** The user's home folder (the search for a root stops there). */
  home?: string;
  now?: () => number;
  /**
   * The language server's mode: `forFile` never walks (it answers from the cache, or nothing) and
   * `prepare` walks in slices. The CLI's (the default): `forFile` walks when there is no index yet.
   */
  background?: boolean;
}

/** The repository indexes of the files checked, one per root (see the header). */
export class RepositoryIndexes {
  private readonly roots = new Map<string, string | null>();
  private readonly built = new Map<string, Built>();
  private readonly building = new Map<string, Promise<void>>();
  /** Roots a Python file changed in while they were walked: walked again once the walk ends. */
  private readonly changedWhileBuilding = new Set<string>();
  private readonly limits: RepositoryLimits;
  private readonly home: string;
  private readonly now: () => number;
  private readonly background: boolean;
  /** Walks made (for tests and the bench). */
  walks = 0;

  constructor(options: RepositoryIndexOptions = {}) {
    this.limits = { ...REPOSITORY_LIMITS, ...options.limits };
    this.home = options.home ?? homedir();
    this.now = options.now ?? Date.now;
    this.background = options.background ?? false;
  }

  /** The root of a file's repository (cached per folder). */
  rootOf(file: string): string | undefined {
    const dir = dirname(resolve(file));
    let root = this.roots.get(dir);
    if (root === undefined) {
      root = repositoryRoot(file, this.home) ?? null;
      if (this.roots.size > 10_000) this.roots.clear();
      this.roots.set(dir, root);
    }
    return root ?? undefined;
  }

  /** The flags of the file's repository, walking it first in the CLI's mode; undefined outside a repository. */
  forFile(file: string): RepositoryFlags | undefined {
    const root = this.rootOf(file);
    if (!root) return undefined;
    const b = this.built.get(root);
    // One CLI run is one index: a root is walked once.
    if (!this.background && !b) return this.walk(root).flags;
    return b?.flags;
  }

  /** The language server's way: the file's repository indexed (walked in slices) before its settings are read. */
  async prepare(file: string): Promise<void> {
    const root = this.rootOf(file);
    if (!root) return;
    // A change during a walk, or a tree that keeps changing, walks again: at most three times here.
    for (let i = 0; i < 3; i++) {
      const pending = this.building.get(root);
      if (pending) {
        await pending;
        continue;
      }
      const b = this.built.get(root);
      if (b && !b.dirty && !this.stale(b)) return;
      // Forgotten once it is over (a walk of one slice is over before `sliced` returns).
      const walk = this.sliced(root).finally(() => this.building.delete(root));
      this.building.set(root, walk);
      await walk;
    }
  }

  /**
   * A Python file changed on disk (created, changed or deleted): the roots whose flags changed, whose
   * files must be checked again. A known file is read again alone; a new or deleted file, or one in a
   * root being walked, makes the root walk again (and is reported, since its flags may change).
   */
  fileChanged(path: string): string[] {
    const abs = resolve(path);
    if (!abs.endsWith('.py')) return [];
    const out: string[] = [];
    for (const root of new Set([...this.built.keys(), ...this.building.keys()])) {
      const rel = inside(root, abs);
      if (rel === undefined || rel.split('/').some((s, i, all) => s.startsWith('.') || (i < all.length - 1 && SKIPPED_FOLDERS.has(s)))) continue;
      if (this.building.has(root)) {
        this.changedWhileBuilding.add(root);
        out.push(root);
        continue;
      }
      const b = this.built.get(root)!;
      if (this.reread(b, abs, rel)) out.push(root);
    }
    return out;
  }

  /** Forget every index (the language server's folders changed). */
  clear(): void {
    this.roots.clear();
    this.built.clear();
  }

  /** Reads one known file again; true when the root's flags (or what is known of them) changed. */
  private reread(b: Built, abs: string, rel: string): boolean {
    const before = b.files.get(rel);
    const read = before === undefined ? undefined : readBounded(abs, this.limits.fileBytes);
    if (!read?.ok) {
      // New, deleted, or no longer readable: the folder's content changed, walk it again.
      b.dirty = true;
      return true;
    }
    const flags = flagsOf(read.text);
    const t = mtime(abs);
    if (flags.length && t !== undefined) b.stamps.set(abs, t);
    else b.stamps.delete(abs);
    if (flags.length === before!.length && flags.every((f, i) => f === before![i])) return false;
    b.files.set(rel, flags);
    b.flags = summarize(b);
    return true;
  }

  /** The folders walked, or a file with parsers, changed since the index was made (checked at most every staleCheckMs). */
  private stale(b: Built): boolean {
    const now = this.now();
    if (now - b.checkedAt < this.limits.staleCheckMs) return false;
    b.checkedAt = now;
    for (const [path, t] of b.stamps) {
      if (mtime(path) !== t) {
        b.dirty = true;
        return true;
      }
    }
    return false;
  }

  private walk(root: string): Built {
    this.walks++;
    const b = new RepositoryWalk(root, this.limits, this.now).run();
    this.built.set(root, b);
    return b;
  }

  /** A walk in slices of sliceMs, with a turn of the event loop between them. */
  private async sliced(root: string): Promise<void> {
    this.walks++;
    this.changedWhileBuilding.delete(root);
    try {
      const walk = new RepositoryWalk(root, this.limits, this.now);
      while (!walk.step(this.now() + this.limits.sliceMs)) await new Promise<void>((r) => setImmediate(r));
      const b = walk.result();
      // Changed while it was walked: usable, but walked again before the next use.
      if (this.changedWhileBuilding.delete(root)) b.dirty = true;
      this.built.set(root, b);
    } catch {
      // Never expected (the walk catches its own errors): the files are judged without the index.
    }
  }
}
