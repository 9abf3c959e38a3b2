/**
 * The releases a file's repository pins (node side: file system). From the file's folder up to the
 * repository's root (a folder with `.git`), the nearest folder whose dependency files name a tool
 * gives that tool's pin (engine/pins.ts reads the files). A tool no folder on that way pins takes
 * the pin of the rest of the repository when it is unambiguous: every dependency file of the
 * repository that pins the tool says the same, and one of them is in an environment folder that
 * hangs off a folder above the file (`docker/Dockerfile`, `env/requirements.txt`), of dependency
 * files only (not another project's code or package metadata). The nearest is named, and the
 * release is an assumption (`Pin.elsewhere`). Pins that disagree, or a search that stopped at its
 * bounds, give no pin. The same walk finds the GPUs the
 * nearest folder's job descriptions ask for (SkyPilot tasks, Kubernetes manifests: engine/plan/requests.ts).
 */
import { existsSync, readdirSync, type Dirent } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { folderPins, type GpuRequest, gpuRequests, isPinFile, mayRequestGpus, type Pin, pinsIn, requestedHardware, type Tool } from '../engine';
import { readBounded } from './read';
import { repositoryRoot, SKIPPED_FOLDERS } from './repository';

/** Dependency files are small; a larger one is not read. */
const MAX_PIN_FILE_BYTES = 2 * 1024 * 1024;
/** At most this many dependency files of one folder are read. */
const MAX_PIN_FILES = 32;
/** Job descriptions: at most this many YAML files of one folder, each at most this large. */
const MAX_JOB_FILES = 64;
const MAX_JOB_FILE_BYTES = 256 * 1024;
/** Folders beside the configs where repositories keep their job descriptions. */
const JOB_FOLDERS = /^(sky|skypilot|k8s|kube|kubernetes|manifests|deploy|deployment|cluster|launch|jobs)$/i;
/**
 * The search of a whole repository for the folders that pin: folders listed, levels below the root,
 * wall-clock time. When a bound is reached, a pin found may not be the only one: none is used.
 */
export const REPOSITORY_PIN_LIMITS = { folders: 20_000, depth: 24, ms: 2_000 };

/**
 * What the folders of a repository pin, per tool: every specifier any of its dependency files states
 * (`specs`: two that differ leave the release unknown), and the folders whose pin may describe the
 * environment the repository runs in (`candidates`), or why the search is incomplete.
 */
type RepositoryWide = { specs: Partial<Record<Tool, Set<string>>>; candidates: Partial<Record<Tool, { dir: string; pin: Pin }[]>>; incomplete?: string };

/**
 * Folders that hold a repository's environment (`docker/`, `env/`, `requirements/`, `scripts/`): a pin
 * in one that hangs off a folder above the file (or in a folder below it: `docker/cuda/Dockerfile`)
 * may say what runs the file; one in any other folder (`examples/voice_agent/`, `csp_tools/aws/`) is
 * another part's, and only counts against the others.
 */
const ENVIRONMENT_FOLDERS = /^(docker|dockerfiles?|docker[-_]files?|containers?|envs?|environments?|conda|requirements|deps|dependencies|install|installation|setup|scripts)$/i;

/** `dir` is in an environment folder that hangs off a folder at or above `start`. */
function environmentOf(start: string, dir: string): boolean {
  const rel = relative(start, dir).split(sep);
  const down = rel.filter((p) => p !== '..');
  return down.length > 0 && ENVIRONMENT_FOLDERS.test(down[0]);
}

/**
 * A folder of a project of its own (Python code, package metadata): its pins are that project's
 * (a sibling package's `pyproject.toml` extra, another model's `requirements.txt` beside its code),
 * not the environment of files outside it. A folder of dependency files only (`docker/`, `env/`) is.
 */
function projectFolder(names: readonly string[]): boolean {
  return names.some((n) => n.endsWith('.py') || n === 'pyproject.toml' || n === 'setup.cfg');
}

/** A specifier with its clauses in one order, to compare two pins. */
function sameSpec(spec: string): string {
  return spec.split(',').map((c) => c.trim()).filter(Boolean).sort().join(',');
}

/** How many folders apart two folders are (up to their common folder and down again). */
function distance(from: string, to: string): number {
  const rel = relative(from, to);
  return rel ? rel.split(sep).length : 0;
}

export class RepositoryPins {
  private readonly folders = new Map<string, Partial<Record<Tool, Pin>>>();
  /** The dependency files read in each folder. */
  private readonly texts = new Map<string, { name: string; text: string }[]>();
  /** What applies in a folder, by folder and root: every analysis of a file asks again (each keystroke in an editor). */
  private readonly applying = new Map<string, Partial<Record<Tool, Pin>> | undefined>();

  /** By repository root: the pins of all its folders. */
  private readonly wide = new Map<string, RepositoryWide>();

  constructor(private readonly limits: typeof REPOSITORY_PIN_LIMITS = REPOSITORY_PIN_LIMITS) {}

  private readonly jobFolders = new Map<string, GpuRequest[]>();
  private readonly jobsApplying = new Map<string, { id: string; note: string; assumed?: boolean } | undefined>();

  clear(): void {
    this.folders.clear();
    this.texts.clear();
    this.applying.clear();
    this.wide.clear();
    this.jobFolders.clear();
    this.jobsApplying.clear();
  }

  /** The GPU requests of one folder's YAML files, and of its job folders (`sky/`, `k8s/`…) (cached). */
  private jobsIn(dir: string): GpuRequest[] {
    const cached = this.jobFolders.get(dir);
    if (cached) return cached;
    let names: string[] = [];
    try {
      const entries = readdirSync(dir, { withFileTypes: true });
      const yaml = (e: { name: string }) => /\.ya?ml$/i.test(e.name);
      names = entries.filter((e) => e.isFile() && yaml(e)).map((e) => e.name);
      for (const sub of entries.filter((e) => e.isDirectory() && JOB_FOLDERS.test(e.name)).slice(0, 8)) {
        try {
          names.push(...readdirSync(join(dir, sub.name), { withFileTypes: true }).filter((e) => e.isFile() && yaml(e)).map((e) => `${sub.name}/${e.name}`));
        } catch {
          // A job folder that cannot be listed asks for nothing.
        }
      }
      names = names.sort().slice(0, MAX_JOB_FILES);
    } catch {
      // A folder that cannot be listed asks for nothing.
    }
    const found: GpuRequest[] = [];
    for (const name of names) {
      const read = readBounded(join(dir, name), MAX_JOB_FILE_BYTES);
      if (read.ok && mayRequestGpus(read.text)) found.push(...gpuRequests(name, read.text));
    }
    this.jobFolders.set(dir, found);
    return found;
  }

  /** Whether a changed file may be a job this cache read (a YAML file of a folder whose jobs it listed, or of one of its job folders). */
  readsJobsFrom(path: string): boolean {
    if (!/\.ya?ml$/i.test(path)) return false;
    const dir = dirname(resolve(path));
    return this.jobFolders.has(dir) || (JOB_FOLDERS.test(dir.split(/[\\/]/).pop() ?? '') && this.jobFolders.has(dirname(dir)));
  }

  /** The hardware the nearest folder's jobs ask for, at or above the file, within its repository (or up to `root`). */
  hardwareFor(file: string, root?: string): { id: string; note: string; assumed?: boolean } | undefined {
    const start = dirname(resolve(file));
    const key = `${resolve(file)}\0${root ?? ''}`;
    if (this.jobsApplying.has(key)) return this.jobsApplying.get(key);
    let found: { id: string; note: string; assumed?: boolean } | undefined;
    let dir = start;
    for (let i = 0; i < 64; i++) {
      const requests = this.jobsIn(dir);
      if (requests.length) {
        // Named by where it is, from the file's folder, for messages.
        // A path a job names runs this file when it resolves to it from the folder the job is kept
        // in or from the folder above (where a job folder's commands start); a name alone is not enough.
        const target = resolve(file);
        const shown = requests.map((r) => ({ ...r, file: relative(start, join(dir, r.file)).replace(/\\/g, '/'), kept: r.file }));
        const runsFile = (r: GpuRequest, path: string): boolean => [dir, join(dir, dirname((r as (typeof shown)[number]).kept))].some((from) => resolve(from, path) === target);
        found = requestedHardware(shown, runsFile);
        break;
      }
      if (existsSync(join(dir, '.git')) || (root !== undefined && resolve(root) === dir)) break;
      const parent = dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
    this.jobsApplying.set(key, found);
    return found;
  }

  /** What one folder's dependency files pin (cached). */
  private inFolder(dir: string): Partial<Record<Tool, Pin>> {
    const cached = this.folders.get(dir);
    if (cached) return cached;
    let names: string[] = [];
    try {
      // A `requirements/` folder's text files are requirement files whatever their names (`requirements/deepspeed.txt`).
      const listed = /^requirements$/i.test(dir.split(/[\\/]/).pop() ?? '');
      names = readdirSync(dir).filter((n) => isPinFile(n) || (listed && /\.txt$/.test(n))).sort().slice(0, MAX_PIN_FILES);
    } catch {
      // A folder that cannot be listed pins nothing.
    }
    const files: { name: string; text: string }[] = [];
    for (const name of names) {
      const read = readBounded(join(dir, name), MAX_PIN_FILE_BYTES);
      if (read.ok) files.push({ name, text: read.text });
    }
    const pins = folderPins(files);
    this.folders.set(dir, pins);
    this.texts.set(dir, files);
    return pins;
  }

  /** The pins that apply to a file: per tool, the nearest folder at or above it that pins it, within its repository (or up to `root`). */
  forFile(file: string, root?: string): Partial<Record<Tool, Pin>> | undefined {
    const start = dirname(resolve(file));
    const key = `${start}\0${root ?? ''}`;
    if (this.applying.has(key)) return this.applying.get(key);
    const found = this.walk(start, root);
    this.applying.set(key, found);
    return found;
  }

  private walk(start: string, root: string | undefined): Partial<Record<Tool, Pin>> | undefined {
    const out: Partial<Record<Tool, Pin>> = {};
    // Named by where it is, from the file's folder, for messages.
    const named = (pin: Pin, dir: string): Pin => ({ ...pin, file: pin.file.split(', ').map((f) => relative(start, join(dir, f)).replace(/\\/g, '/')).join(', ') });
    let dir = start;
    let top: string | undefined;
    for (let i = 0; i < 64; i++) {
      for (const [tool, pin] of Object.entries(this.inFolder(dir)) as [Tool, Pin][]) if (!out[tool]) out[tool] = named(pin, dir);
      if (existsSync(join(dir, '.git')) || (root !== undefined && resolve(root) === dir)) {
        top = dir;
        break;
      }
      const parent = dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
    // The tools no folder on the way pins: the rest of the repository's pin, when all of it agrees.
    const repo = top ?? repositoryRoot(join(start, '_'));
    if (repo) {
      const wide = this.repositoryWide(repo);
      if (!wide.incomplete) {
        for (const [tool, all] of Object.entries(wide.candidates) as [Tool, { dir: string; pin: Pin }[]][]) {
          const found = all.filter((f) => environmentOf(start, f.dir));
          if (out[tool] || !found.length || wide.specs[tool]?.size !== 1) continue;
          const nearest = [...found].sort((a, b) => distance(start, a.dir) - distance(start, b.dir) || (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0))[0];
          out[tool] = { ...named(nearest.pin, nearest.dir), elsewhere: true };
        }
      }
    }
    return Object.keys(out).length ? out : undefined;
  }

  /**
   * Every folder of the repository whose dependency files pin a tool (cached by root), except hidden
   * folders, the ones a repository search skips (environments, build output) and other
   * repositories inside it (a folder holding `.git`: a submodule or a clone).
   */
  private repositoryWide(root: string): RepositoryWide {
    const cached = this.wide.get(root);
    if (cached) return cached;
    const out: RepositoryWide = { specs: {}, candidates: {} };
    const started = Date.now();
    const queue: { dir: string; depth: number }[] = [{ dir: root, depth: 0 }];
    let listed = 0;
    while (queue.length && !out.incomplete) {
      const { dir, depth } = queue.shift()!;
      if (++listed > this.limits.folders) out.incomplete = `more than ${this.limits.folders} folders`;
      else if (Date.now() - started > this.limits.ms) out.incomplete = `the search took over ${this.limits.ms / 1000} s`;
      if (out.incomplete) break;
      let entries: Dirent[] = [];
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        // A folder that cannot be listed may pin: what was found is not all there is.
        out.incomplete = `a folder could not be listed`;
        break;
      }
      if (depth > 0 && entries.some((e) => e.name === '.git')) continue;
      if (entries.some((e) => e.isFile() && (isPinFile(e.name) || (/^requirements$/i.test(basename(dir)) && e.name.endsWith('.txt'))))) {
        const folder = this.inFolder(dir);
        // Each file on its own too: a folder whose files disagree pins nothing, but says the release is not settled.
        const each = this.texts.get(dir) ?? [];
        for (const pins of [folder, ...each.map((f) => pinsIn(f.name, f.text))]) for (const [tool, pin] of Object.entries(pins) as [Tool, Pin][]) (out.specs[tool] ??= new Set()).add(sameSpec(pin.spec));
        if (!projectFolder(entries.filter((e) => e.isFile()).map((e) => e.name))) for (const [tool, pin] of Object.entries(folder) as [Tool, Pin][]) (out.candidates[tool] ??= []).push({ dir, pin });
      }
      for (const e of entries) {
        if (!e.isDirectory() || e.name.startsWith('.') || SKIPPED_FOLDERS.has(e.name)) continue;
        if (depth + 1 > this.limits.depth) out.incomplete = `folders more than ${this.limits.depth} levels deep`;
        else queue.push({ dir: join(dir, e.name), depth: depth + 1 });
      }
    }
    this.wide.set(root, out);
    return out;
  }
}
