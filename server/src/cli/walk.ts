/**
 * The files `shardwise check` reads: the files named, and the config-looking files found in the
 * folders named. A folder's walk skips, without descending into them:
 *   - the default excludes: version-control and environment folders (SKIP_DIRS) and hidden folders;
 *   - what the `.gitignore` files say (unless `respectGitignore` is off): the ones in the folders
 *     walked and in the folders above, up to the repository's root (the folder holding `.git`), and
 *     `.git/info/exclude`, with git's precedence (a deeper file's `!negation` re-includes);
 *   - the `--exclude` patterns (gitignore syntax, relative to the working directory, or to the
 *     folder named when it is outside it) and each configuration's `exclude`.
 * A file or folder named on the command line is read whatever the excludes say, unless
 * `forceExclude` (then `--exclude`, the configurations' `exclude` and the default excludes apply to
 * it too; `.gitignore` never applies to a named path, as in ruff).
 *
 * Git applies `.gitignore` only to files it does not track: a file the repository tracks (committed
 * with `git add -f`) is read although a pattern matches it, as are the tracked files of an ignored
 * folder. Which ones are tracked is asked of git (`git ls-files`), once per folder named and only
 * when a pattern matched something; without git, the files left out are counted in a notice.
 *
 * Only `stat` is used here, nothing is opened but `.gitignore` files: a folder entry that is not a
 * regular file is skipped, one over the size limit is listed in `oversized`, a folder reached twice
 * through a symbolic link is searched once.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import type { Ignore } from 'ignore';
import { inside, patternMatcher, type ProjectConfigs } from '../host/project-config';
import { examine, readBounded } from '../host/read';

const EXTENSIONS = /\.(ya?ml|json|sh|sbatch|slurm)$/i;
export const SKIP_DIRS = new Set(['node_modules', '.git', '.hg', '.svn', '__pycache__', '.venv', 'venv', 'dist', 'out']);
/** A `.gitignore` is a few lines; a larger one is not read, and of one with more patterns only the first are. */
const MAX_GITIGNORE_BYTES = 1024 * 1024;
export const MAX_GITIGNORE_PATTERNS = 10_000;

export function hasConfigExtension(path: string): boolean {
  return EXTENSIONS.test(path);
}

function isCandidateName(name: string): boolean {
  return EXTENSIONS.test(name) && !/^\.shardwise\.ya?ml$/.test(name) && !/package(-lock)?\.json$/.test(name);
}

/** A file to check: named on the command line (or linked from a checked file), or found in a folder. */
export interface Candidate {
  path: string;
  named: boolean;
}

export interface Collected {
  files: Candidate[];
  /** Files found in folders that are over the size limit: not read, summed up in one line. */
  oversized: string[];
  /** Folders that could not be listed, with the reason. */
  unlisted: string[];
  /** What was read only in part (a .gitignore of too many patterns), for stderr. */
  notices: string[];
}

export interface WalkOptions {
  maxBytes: number;
  /** `--exclude` patterns. */
  exclude: readonly string[];
  forceExclude: boolean;
  respectGitignore: boolean;
  /** Walk into symbolic links to folders, and take linked files outside the folder named (`--follow`). */
  follow?: boolean;
  /** The configurations, when they are read (not with --no-config): their `exclude` applies. */
  configs?: ProjectConfigs;
  cwd: string;
}

/** The patterns of one ignore file, and the folder they are relative to. */
interface Layer {
  base: string;
  matcher: Ignore;
}

function gitignoreLayer(dir: string, notices: string[], file = join(dir, '.gitignore')): Layer | undefined {
  const read = readBounded(file, MAX_GITIGNORE_BYTES);
  if (!read.ok || !read.text.trim()) return undefined;
  // Blank lines and comments are no patterns; a file of thousands is generated, and each pattern costs every path a test.
  const patterns = read.text.split(/\r?\n/).filter((l) => l.trim() && !l.startsWith('#'));
  if (patterns.length > MAX_GITIGNORE_PATTERNS) notices.push(`${file} has ${patterns.length} patterns: only the first ${MAX_GITIGNORE_PATTERNS} are used`);
  return { base: dir, matcher: patternMatcher(patterns.slice(0, MAX_GITIGNORE_PATTERNS)) };
}

/** Ignored by git: the last layer (the deepest) with a say decides, as git reads nested .gitignore files. */
function gitIgnored(layers: readonly Layer[], path: string, isDir: boolean): boolean {
  let ignored = false;
  for (const l of layers) {
    const rel = inside(l.base, path);
    if (rel === undefined) continue;
    const r = l.matcher.test(isDir ? `${rel}/` : rel);
    if (r.ignored) ignored = true;
    else if (r.unignored) ignored = false;
  }
  return ignored;
}

/** The .gitignore layers above `dir` up to its repository's root (none outside a repository). */
function ancestorLayers(dir: string, notices: string[]): Layer[] {
  // `dir` and the folders above it, up to the one holding `.git`.
  const chain: string[] = [];
  let d = dir;
  for (let i = 0; i < 64; i++) {
    chain.push(d);
    let isRoot = false;
    try {
      statSync(join(d, '.git'));
      isRoot = true;
    } catch {
      // Not the root.
    }
    if (isRoot) {
      const layers: Layer[] = [];
      const info = gitignoreLayer(d, notices, join(d, '.git', 'info', 'exclude'));
      if (info) layers.push(info);
      // From the root down to the folder above `dir`; `dir`'s own file is read by the walk.
      for (const a of chain.slice(1).reverse()) {
        const l = gitignoreLayer(a, notices);
        if (l) layers.push(l);
      }
      return layers;
    }
    const parent = dirname(d);
    if (parent === d) break;
    d = parent;
  }
  return [];
}

const matchers = new WeakMap<readonly string[], Ignore>();

/** Excluded by --exclude (from the working directory, else from `root`) or a configuration's `exclude`. */
function excludedBy(o: WalkOptions, path: string, isDir: boolean, root: string): boolean {
  if (o.exclude.length) {
    let cli = matchers.get(o.exclude);
    if (!cli) matchers.set(o.exclude, (cli = patternMatcher(o.exclude)));
    const rel = inside(o.cwd, path) ?? inside(root, path);
    if (rel !== undefined && cli.ignores(isDir ? `${rel}/` : rel)) return true;
  }
  return o.configs?.excluded(path, isDir) !== undefined;
}

/** A path named on the command line is excluded under --force-exclude: by a pattern, or in a default-excluded folder. */
export function forceExcluded(path: string, isDir: boolean, o: WalkOptions): boolean {
  const abs = resolve(path);
  const rel = inside(o.cwd, abs) ?? '';
  const folders = rel.split('/').slice(0, isDir ? undefined : -1);
  return folders.some((s) => SKIP_DIRS.has(s)) || excludedBy(o, abs, isDir, dirname(abs));
}

/** Whether the file a link points at lies inside `root` (both with their links resolved). */
function insideReal(path: string, root: string): boolean {
  try {
    const real = realpathSync(path);
    const base = realpathSync(root);
    return real === base || real.startsWith(base.endsWith(sep) ? base : base + sep);
  } catch {
    return false;
  }
}

export function collect(paths: readonly string[], o: WalkOptions): Collected {
  const out: Collected = { files: [], oversized: [], unlisted: [], notices: [] };
  const seenDirs = new Set<string>();
  const excluded = (path: string, isDir: boolean, root: string): boolean => excludedBy(o, path, isDir, root);
  // Entries a .gitignore pattern matched, of the folder named now: git may track some of them.
  let matched: { path: string; isDir: boolean }[] = [];
  const walk = (dir: string, depth: number, layers: Layer[], root: string): void => {
    if (depth > 32) return;
    try {
      const st = statSync(dir);
      const id = `${st.dev}:${st.ino}`;
      if (seenDirs.has(id)) return;
      seenDirs.add(id);
    } catch {
      return;
    }
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      out.unlisted.push(`${dir} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
      return;
    }
    if (o.respectGitignore && entries.some((e) => e.name === '.gitignore')) {
      const own = gitignoreLayer(resolve(dir), out.notices);
      if (own) layers = [...layers, own];
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const p = join(dir, e.name);
      let isDir = e.isDirectory();
      let isFile = e.isFile();
      const special = e.isFIFO() || e.isCharacterDevice() || e.isBlockDevice() || e.isSocket();
      if (!isDir && !isFile && !special) {
        // A symbolic link (or a file system that does not give entry types): what it points at.
        try {
          const st = statSync(p);
          isDir = st.isDirectory();
          isFile = st.isFile();
        } catch {
          continue; // A broken link or a link loop.
        }
        // Unless asked to follow, a link is not a way out of the folder named: no linked folder is
        // walked, and a linked file counts only when it lies inside that folder.
        if (e.isSymbolicLink() && !o.follow && (isDir || !insideReal(p, root))) continue;
      }
      if (isDir && (SKIP_DIRS.has(e.name) || e.name.startsWith('.'))) continue;
      if (!isDir && (!isFile || !isCandidateName(e.name))) continue;
      const abs = resolve(p);
      if (excluded(abs, isDir, root)) continue;
      if (layers.length && gitIgnored(layers, abs, isDir)) {
        matched.push({ path: abs, isDir });
        continue;
      }
      if (isDir) {
        walk(p, depth + 1, layers, root);
        continue;
      }
      const x = examine(p, o.maxBytes);
      if (x.ok) out.files.push({ path: p, named: false });
      else if (x.kind === 'too-large') out.oversized.push(p);
    }
  };
  for (const p of paths) {
    const x = examine(p, Number.POSITIVE_INFINITY);
    if (x.ok || x.kind === 'directory') {
      const abs = resolve(p);
      // --force-exclude: a named path is excluded as a found one would be (its folders included).
      if (o.forceExclude && forceExcluded(abs, !x.ok, o)) continue;
      if (x.ok) out.files.push({ path: p, named: true });
      else {
        matched = [];
        walk(p, 0, o.respectGitignore ? ancestorLayers(abs, out.notices) : [], abs);
        if (matched.length) addTracked(out, matched, abs, p, (path) => excluded(path, false, abs), o.maxBytes);
      }
    } else if (x.kind === 'missing') throw new Error(`${p}: no such file or folder`);
    else throw new Error(`${p} ${x.reason}; only regular files and folders can be checked`);
  }
  return out;
}

/**
 * The files a .gitignore matched (`matched`, or below its folders) that the repository holding
 * `root` tracks, which git does not ignore: added as found files (named from `shown`, the folder as
 * given) when they look like configs and no exclude applies.
 * Without git, or outside a repository, a notice counts the config-looking files left out.
 */
function addTracked(out: Collected, matched: readonly { path: string; isDir: boolean }[], root: string, shown: string, excluded: (path: string) => boolean, maxBytes: number): void {
  let listed: string;
  try {
    // The tracked files below `root` that the ignore files match (paths relative to `root`).
    listed = execFileSync('git', ['-C', root, 'ls-files', '-z', '--cached', '--ignored', '--exclude-standard'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: 30_000, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    const files = matched.filter((m) => !m.isDir).length;
    if (files) out.notices.push(`${root}: ${files} config-looking file${files === 1 ? '' : 's'} not read because a .gitignore matches ${files === 1 ? 'it' : 'them'} (git could not say which are tracked; --no-respect-gitignore reads them)`);
    return;
  }
  const seen = new Set(out.files.map((f) => resolve(f.path)));
  for (const rel of listed.split('\0')) {
    if (!rel || !isCandidateName(rel.split('/').pop() ?? '')) continue;
    const abs = resolve(root, rel);
    if (seen.has(abs) || excluded(abs) || rel.split('/').slice(0, -1).some((d) => SKIP_DIRS.has(d) || d.startsWith('.'))) continue;
    const x = examine(abs, maxBytes);
    if (x.ok) out.files.push({ path: join(shown, rel), named: false });
    else if (x.kind === 'too-large') out.oversized.push(join(shown, rel));
    seen.add(abs);
  }
}
