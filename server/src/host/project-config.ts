/**
 * Finds and reads the project configurations at or above a config file (node side: file system):
 * `.shardwise.yaml` (or `.yml`), else a `pyproject.toml` with a `[tool.shardwise]` table (one
 * without it is no configuration). In one folder `.shardwise.yaml` wins and `pyproject.toml` is not
 * read. The nearest file wins key by key; a file with `root: true` stops the walk. Rule selection
 * (`select`, `extend-select`, `ignore`) applies from the farthest file to the nearest, then the
 * command line's; `per-file-ignores` and `exclude` of every file in the chain apply, each relative to
 * its own file's folder, with .gitignore's pattern syntax.
 */
import ignore, { type Ignore } from 'ignore';
import { basename, dirname, join, resolve } from 'node:path';
import { checkoutFrom, mergeSettings, packageVersion, parseProjectConfig, parsePyprojectConfig, RULES, selectedRules, type EngineSettings, type MegatronCheckout, type ProjectConfig, type RuleSelection } from '../engine';
import { RepositoryPins } from './pins';
import { clearSubmodules } from './submodules';
import { readBounded } from './read';
import { RepositoryIndexes } from './repository';
import { inside } from './resolve';

export { inside };

export const PROJECT_CONFIG_NAMES = ['.shardwise.yaml', '.shardwise.yml', 'pyproject.toml'];
/** Where a Megatron checkout keeps its argument parser, newest layout first. */
export const MEGATRON_PARSERS = ['megatron/training/arguments.py', 'megatron/arguments.py'];
const MAX_PARSER_BYTES = 2 * 1024 * 1024;
/** A `.shardwise.yaml` is a few lines; a larger one is not read. */
const MAX_PROJECT_CONFIG_BYTES = 1024 * 1024;

export interface LoadedConfig {
  settings: EngineSettings;
  /** Files that were read, nearest first. */
  files: string[];
  /** Problems, prefixed with the file they are in. */
  problems: string[];
  /** The problems of files that were read (a mistake in a setting, not a file that cannot be read): the CLI stops on them. */
  invalid: string[];
}

/** A configuration file found in a folder, with its patterns compiled. */
interface Found {
  path: string;
  config: ProjectConfig;
  /** It is there but could not be read (a FIFO, a directory, too large). */
  unread?: boolean;
  exclude?: Ignore;
  perFileIgnores?: { matcher: Ignore; rules: string[] }[];
}

/**
 * The configuration in the file at `path`, null when there is none: no file, or a `pyproject.toml`
 * without `[tool.shardwise]`. Something there that cannot be read (a directory, a FIFO, a link loop,
 * a huge file) is said, and the walk goes on; a pyproject.toml that cannot be read may not be
 * Shardwise's at all: not a word. A file named (`named`, the CLI's `--config`) is always a
 * configuration, and any reason it cannot be used is a mistake in it.
 */
function readConfig(path: string, named: boolean): Found | null {
  const pyproject = basename(path) === 'pyproject.toml';
  const read = readBounded(path, MAX_PROJECT_CONFIG_BYTES);
  if (!read.ok) {
    if (named) return { path, config: { settings: {}, root: true, problems: [`cannot be read: it ${read.reason}`] } };
    return read.kind !== 'missing' && !pyproject ? { path, config: { settings: {}, root: false, problems: [`not read: it ${read.reason}`] }, unread: true } : null;
  }
  const config = pyproject ? parsePyprojectConfig(read.text) : parseProjectConfig(read.text);
  if (!config) return named ? { path, config: { settings: {}, root: true, problems: ['has no [tool.shardwise] table'] } } : null;
  const found: Found = { path, config };
  if (config.exclude?.length) found.exclude = patternMatcher(config.exclude);
  if (config.perFileIgnores?.length) found.perFileIgnores = config.perFileIgnores.map((p) => ({ matcher: patternMatcher([p.pattern]), rules: p.rules }));
  return found;
}

/**
 * A matcher of gitignore-style patterns; a pattern `ignore` cannot compile is skipped. Case matters
 * where the file system's names do, as git's `core.ignorecase` has it (not on Linux; on macOS and
 * Windows, no).
 */
export function patternMatcher(patterns: readonly string[]): Ignore {
  const ig = ignore({ allowRelativePaths: true, ignorecase: process.platform === 'darwin' || process.platform === 'win32' });
  for (const p of patterns) {
    try {
      ig.add(p);
    } catch {
      // Not a pattern: matches nothing.
    }
  }
  return ig;
}

export class ProjectConfigs {
  private readonly cache = new Map<string, Found | null>();
  private readonly parsers = new Map<string, { path: string; checkout: MegatronCheckout } | null>();

  /**
   * `repositories`: the flags each repository's Python defines (host/repository.ts); not forgotten
   * by `clear`, it follows the Python files. `explicit`: the one configuration every file takes (the
   * CLI's `--config`), instead of those found at or above it; its patterns are relative to its folder.
   */
  constructor(
    readonly repositories: RepositoryIndexes = new RepositoryIndexes(),
    private readonly explicit?: string,
  ) {}
  private explicitFound?: Found;

  /** The releases the repositories' dependency files pin. */
  readonly pins = new RepositoryPins();

  /** Forget everything (a `.shardwise.yaml` or a dependency file was created, changed or deleted). */
  clear(): void {
    this.cache.clear();
    this.parsers.clear();
    this.pins.clear();
    clearSubmodules();
  }

  /** The Megatron argument parser of a checkout rooted at `dir`, if it has one. */
  private parserIn(dir: string): { path: string; checkout: MegatronCheckout } | null {
    const cached = this.parsers.get(dir);
    if (cached !== undefined) return cached;
    let found: { path: string; checkout: MegatronCheckout } | null = null;
    for (const rel of MEGATRON_PARSERS) {
      const path = join(dir, rel);
      // Only a regular file within the bound (host/read.ts); absent, unreadable or anything else: keep looking.
      const read = readBounded(path, MAX_PARSER_BYTES);
      if (!read.ok) continue;
      try {
        // The checkout's release, when its package_info.py says (Megatron-LM has one since Core 0.4).
        const info = readBounded(join(dir, 'megatron/core/package_info.py'), MAX_PARSER_BYTES);
        const checkout = checkoutFrom(rel, read.text, info.ok ? packageVersion(info.text) : undefined);
        if (!checkout) continue;
        found = { path, checkout };
        break;
      } catch {
        // Not a parser the engine can read: keep looking.
      }
    }
    this.parsers.set(dir, found);
    return found;
  }

  private inDir(dir: string): Found | null {
    const cached = this.cache.get(dir);
    if (cached !== undefined) return cached;
    let found: Found | null = null;
    for (const name of PROJECT_CONFIG_NAMES) {
      found = readConfig(join(dir, name), false);
      if (found) break;
    }
    this.cache.set(dir, found);
    return found;
  }

  /** The configuration files that apply in `dir`, nearest first, up to one with `root: true`. */
  private chain(dir: string): Found[] {
    if (this.explicit !== undefined) return [(this.explicitFound ??= readConfig(this.explicit, true)!)];
    const chain: Found[] = [];
    for (let i = 0; i < 64; i++) {
      const found = this.inDir(dir);
      if (found) {
        chain.push(found);
        if (found.config.root) break;
      }
      const parent = dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
    return chain;
  }

  /**
   * `path` (a file, or a folder when `isDir`) is excluded by the `exclude` of a configuration at or
   * above it: the file, or a folder it is in, matches a pattern of one (relative to that file's folder).
   */
  excluded(path: string, isDir: boolean): string | undefined {
    const abs = resolve(path);
    for (const c of this.chain(dirname(abs))) {
      if (!c.exclude) continue;
      const rel = inside(dirname(c.path), abs);
      if (rel !== undefined && c.exclude.ignores(isDir ? `${rel}/` : rel)) return c.path;
    }
    return undefined;
  }

  /**
   * What the file's location says without any `.shardwise.yaml`: the Megatron parser of its checkout,
   * and the flags the Python of its repository defines.
   */
  located(file: string): EngineSettings {
    const repositoryFlags = this.repositories.forFile(file);
    const pins = this.pins.forFile(file);
    const jobHardware = this.pins.hardwareFor(file);
    const found: EngineSettings = { ...(repositoryFlags ? { repositoryFlags } : {}), ...(pins ? { pins } : {}), ...(jobHardware ? { jobHardware } : {}) };
    let dir = dirname(resolve(file));
    for (let i = 0; i < 64; i++) {
      const parser = this.parserIn(dir);
      if (parser) return { ...found, megatronCheckout: parser.checkout };
      const parent = dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
    return found;
  }

  /**
   * The merged settings that apply to a file; `selection` (the command line's) applies after the
   * files'. Rules that are not selected, or ignored for the file, are `off` in `settings.rules`.
   */
  forFile(file: string, selection?: RuleSelection): LoadedConfig {
    const abs = resolve(file);
    const chain = this.chain(dirname(abs));
    // The checkout's parser is a fact about where the file is; `.shardwise.yaml` settings go over it.
    let settings: EngineSettings = this.located(file);
    for (const { config } of [...chain].reverse()) settings = mergeSettings(settings, config.settings);
    const layers: (RuleSelection | undefined)[] = [...chain].reverse().map((c) => c.config.selection);
    if (selection) layers.push(selection);
    const ignored: string[] = [];
    for (const c of chain) {
      for (const p of c.perFileIgnores ?? []) {
        const rel = inside(dirname(c.path), abs);
        if (rel !== undefined && p.matcher.ignores(rel)) ignored.push(...p.rules);
      }
    }
    if (ignored.length) layers.push({ ignore: ignored });
    if (layers.some((l) => l)) {
      const on = selectedRules(layers);
      const rules = { ...settings.rules };
      for (const r of RULES) if (!on.has(r.id)) rules[r.id] = 'off';
      settings = { ...settings, rules };
    }
    const problems = (list: Found[]) => list.flatMap((c) => c.config.problems.map((p) => `${c.path}: ${p}`));
    return {
      settings,
      files: chain.map((c) => c.path),
      problems: problems(chain),
      invalid: problems(chain.filter((c) => !c.unread)),
    };
  }
}
