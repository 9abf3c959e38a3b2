/**
 * The releases a repository pins: what its dependency files (`requirements*.txt`, `pyproject.toml`,
 * `setup.cfg`, `setup.py`, `environment.yml`, `uv.lock`, `poetry.lock`, and the `pip install`
 * commands of its install scripts and Dockerfiles) say of Accelerate, DeepSpeed and Megatron Core, as
 * a PEP 440 specifier, and which releases that specifier allows.
 *
 * Pure: the host reads the files and hands their text here (host/pins.ts).
 */
import { satisfies, validRange } from '@renovatebot/pep440';
import { parse as parseSpecifier } from '@renovatebot/pep440/lib/specifier';
import { parse as parseToml } from 'smol-toml';
import * as Y from 'yaml';
import type { Pin, Tool } from './settings';

export type { Pin };
import { containerReleases } from './containers';
import { compareVersions } from './version';

/** PyPI names (normalised as PEP 503 does) of the tools whose releases the schemas know. */
const PACKAGES: Record<string, Tool> = { accelerate: 'accelerate', deepspeed: 'deepspeed', 'megatron-core': 'megatron-core', transformers: 'transformers' };

/** Lock files give the release that is installed; the others the releases that may be. */
const LOCKS = ['uv.lock', 'poetry.lock'];

/** A Dockerfile (`Dockerfile`, `Dockerfile.train`, `train.Dockerfile`): the image it builds from may name the releases. */
function isDockerfile(name: string): boolean {
  return /^Dockerfile([.-][\w.-]+)?$|\.[Dd]ockerfile$/.test(name);
}

/** A shell script that sets up the environment (`install.sh`, `setup_env.sh`, `requirements.sh`): its `pip install` commands pin. */
function isInstallScript(name: string): boolean {
  return /^[\w.-]*(install|setup|env|requirements|deps|dependencies)[\w.-]*\.sh$/i.test(name);
}

/** Whether a file name is one of the dependency files read for pins. */
export function isPinFile(name: string): boolean {
  return isDockerfile(name) || isInstallScript(name) || LOCKS.includes(name) || ['pyproject.toml', 'setup.cfg', 'setup.py', 'environment.yml', 'environment.yaml'].includes(name) || /^requirements([-_.][\w.-]*)?\.txt$/.test(name);
}

/**
 * The requirements a `pip install` command names (`pip install accelerate==0.33.0 "deepspeed>=0.14"`,
 * also `pip3`, `python -m pip`, `uv pip`, in a shell script or a Dockerfile's `RUN`): the words
 * after `install` that are not options, continuation lines joined; `-r file` and `-e path` name no
 * requirement here.
 */
function fromPipInstalls(text: string, found: Found): void {
  const joined = text.replace(/\\\r?\n/g, ' ');
  for (const m of joined.matchAll(/(?:^|[\s;&|(])(?:python[\d.]*\s+-m\s+)?(?:uv\s+)?pip[\d.]*\s+install\s+([^\n;&|)#]*)/g)) {
    const words = m[1].trim().split(/\s+/);
    for (let i = 0; i < words.length; i++) {
      const w = words[i].replace(/^['"]|['"]$/g, '');
      if (/^-(r|c|e|i|f|-requirement|-constraint|-editable|-index-url|-extra-index-url|-find-links|-target|-prefix|-root)$/.test(w)) {
        i++;
        continue;
      }
      if (w.startsWith('-') || w.includes('$')) continue;
      add(found, requirement(w));
    }
  }
}

function tool(name: string): Tool | undefined {
  return PACKAGES[name.toLowerCase().replace(/[-_.]+/g, '-')];
}

/** One PEP 508 requirement (`name[extra]>=1,<2 ; marker`): the tool and its specifier, if it pins one of ours. */
export function requirement(line: string): { tool: Tool; package: string; spec: string } | undefined {
  const m = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*\(?\s*([<>=!~][^;()#]*)?\)?\s*(?:;.*)?$/.exec(line.replace(/\s+#.*$/, ''));
  if (!m) return undefined;
  const t = tool(m[1]);
  const spec = m[2]?.replace(/\s+/g, '');
  if (!t || !spec || !validRange(spec)) return undefined;
  return { tool: t, package: m[1], spec };
}

type Found = Partial<Record<Tool, { package: string; specs: Set<string> }>>;

function add(found: Found, r: { tool: Tool; package: string; spec: string } | undefined): void {
  if (!r) return;
  const entry = (found[r.tool] ??= { package: r.package, specs: new Set() });
  entry.specs.add(r.spec);
}

/** Poetry's `^1.6` and `~1.6.0` as PEP 440, a bare version as `==`; anything else as written. */
function poetrySpec(v: string): string | undefined {
  const s = v.trim();
  if (s === '*' || s === '') return undefined;
  const caret = /^\^\s*(\d+(?:\.\d+)*)$/.exec(s);
  if (caret) {
    const parts = caret[1].split('.').map(Number);
    // The first non-zero part may not change (^0.13.1 allows 0.13.x; ^1.6 allows 1.x).
    const i = parts.findIndex((p) => p !== 0);
    const k = i < 0 ? parts.length - 1 : i;
    const upper = [...parts.slice(0, k), parts[k] + 1].join('.');
    return `>=${caret[1]},<${upper}`;
  }
  const tilde = /^~\s*(\d+(?:\.\d+)*)$/.exec(s);
  if (tilde) {
    const parts = tilde[1].split('.').map(Number);
    const upper = parts.length > 1 ? [parts[0], parts[1] + 1].join('.') : String(parts[0] + 1);
    return `>=${tilde[1]},<${upper}`;
  }
  if (/^\d+(\.\d+)*$/.test(s)) return `==${s}`;
  return s.replace(/\s+/g, '');
}

/**
 * `[project]` dependencies with its optional ones (an extra such as `deepspeed = ["deepspeed>=0.18.6"]`
 * is what runs the configs of that tool) and PEP 735 dependency groups; Poetry's dependencies and groups.
 */
function fromPyproject(text: string, found: Found): void {
  type Poetry = { dependencies?: unknown; group?: Record<string, { dependencies?: unknown }> };
  const doc = parseToml(text) as { project?: { dependencies?: unknown; 'optional-dependencies'?: unknown }; 'dependency-groups'?: unknown; tool?: { poetry?: Poetry } };
  const lists: unknown[] = [doc.project?.dependencies];
  const table = (v: unknown): unknown[] => (v && typeof v === 'object' && !Array.isArray(v) ? Object.values(v as Record<string, unknown>) : []);
  lists.push(...table(doc.project?.['optional-dependencies']), ...table(doc['dependency-groups']));
  for (const deps of lists) if (Array.isArray(deps)) for (const d of deps) if (typeof d === 'string') add(found, requirement(d));
  const poetry = doc.tool?.poetry;
  for (const deps of [poetry?.dependencies, ...table(poetry?.group).map((g) => (g as { dependencies?: unknown } | undefined)?.dependencies)]) {
    if (!deps || typeof deps !== 'object') continue;
    for (const [name, v] of Object.entries(deps as Record<string, unknown>)) {
      const t = tool(name);
      const raw = typeof v === 'string' ? v : v && typeof v === 'object' && typeof (v as { version?: unknown }).version === 'string' ? (v as { version: string }).version : undefined;
      const spec = t && raw !== undefined ? poetrySpec(raw) : undefined;
      if (t && spec && validRange(spec)) add(found, { tool: t, package: name, spec });
    }
  }
}

function fromLock(text: string, found: Found): void {
  const doc = parseToml(text) as { package?: unknown };
  if (!Array.isArray(doc.package)) return;
  for (const p of doc.package as { name?: unknown; version?: unknown }[]) {
    const t = typeof p.name === 'string' ? tool(p.name) : undefined;
    if (t && typeof p.version === 'string') add(found, { tool: t, package: p.name as string, spec: `==${p.version}` });
  }
}

function fromEnvironment(text: string, found: Found): void {
  const doc = Y.parse(text, { maxAliasCount: 100, logLevel: 'error' }) as { dependencies?: unknown } | null;
  const walk = (list: unknown): void => {
    if (!Array.isArray(list)) return;
    for (const d of list) {
      if (typeof d === 'string') {
        // conda's `name=1.6.0` means that release (and its builds); `==`, `>=` are PEP 440 already.
        add(found, requirement(d.replace(/^([A-Za-z0-9._-]+)\s*=\s*(?=\d)/, '$1==')));
      } else if (d && typeof d === 'object' && 'pip' in d) walk((d as { pip: unknown }).pip);
    }
  };
  walk(doc?.dependencies);
}

/** `install_requires` of setup.cfg (one requirement per line) and the quoted requirements of setup.py. */
function fromSetup(name: string, text: string, found: Found): void {
  if (name === 'setup.py') {
    for (const m of text.matchAll(/(["'])([A-Za-z0-9][A-Za-z0-9._-]*\s*(?:\[[^\]]*\])?\s*[<>=!~][^"'\n]*)\1/g)) add(found, requirement(m[2]));
    return;
  }
  const block = /^\s*install_requires\s*=([^\n]*(?:\n[ \t]+[^\n]*)*)/m.exec(text);
  if (block) for (const line of block[1].split('\n')) add(found, requirement(line));
}

/**
 * What one dependency file pins, per tool. A tool named with different specifiers in one file (two
 * environments, or markers) gets their intersection; a file that cannot be read pins nothing.
 */
export function pinsIn(name: string, text: string): Partial<Record<Tool, Pin>> {
  const found: Found = {};
  try {
    if (name === 'pyproject.toml') fromPyproject(text, found);
    else if (LOCKS.includes(name)) fromLock(text, found);
    else if (name === 'environment.yml' || name === 'environment.yaml') fromEnvironment(text, found);
    else if (name === 'setup.py' || name === 'setup.cfg') fromSetup(name, text, found);
    else if (isDockerfile(name) || isInstallScript(name)) fromPipInstalls(text, found);
    else for (const line of text.split(/\r?\n/)) if (!/^\s*(#|-)/.test(line)) add(found, requirement(line));
  } catch {
    return {};
  }
  const out: Partial<Record<Tool, Pin>> = {};
  for (const [t, f] of Object.entries(found) as [Tool, { package: string; specs: Set<string> }][]) out[t] = { spec: [...f.specs].join(','), package: f.package, file: name };
  return out;
}

/**
 * The pins of one folder's dependency files, per tool: a lock file's release wins (it is what was
 * installed); otherwise the specifiers of every file that names the tool, intersected. A pin no
 * release can satisfy is dropped.
 */
export function folderPins(files: readonly { name: string; text: string }[]): Partial<Record<Tool, Pin>> {
  const per: Partial<Record<Tool, Pin[]>> = {};
  for (const f of files) for (const [t, pin] of Object.entries(pinsIn(f.name, f.text)) as [Tool, Pin][]) (per[t] ??= []).push(pin);
  const out: Partial<Record<Tool, Pin>> = {};
  // The image a Dockerfile builds from gives the releases no dependency file of the folder names.
  for (const f of files) {
    if (!isDockerfile(f.name)) continue;
    const images = [...f.text.matchAll(/^\s*FROM\s+(?:--platform=\S+\s+)?(\S+)/gim)].map((m) => m[1]);
    const pins = imagePins(images, f.name);
    for (const [t, pin] of Object.entries(pins) as [Tool, Pin][]) if (!per[t] && !out[t]) out[t] = pin;
  }
  for (const [t, pins] of Object.entries(per) as [Tool, Pin[]][]) {
    const lock = pins.find((p) => LOCKS.includes(p.file) && exactRelease(p.spec));
    const pin = lock ?? { spec: [...new Set(pins.flatMap((p) => p.spec.split(',')))].join(','), package: pins[0].package, file: [...new Set(pins.map((p) => p.file))].join(', ') };
    if (!validRange(pin.spec)) continue;
    if (!emptyRange(pin.spec)) out[t] = pin;
    else {
      // Exact releases that disagree (two environments, a submodule's requirements beside the
      // project's): one of them runs, so the pin is the range from the oldest to the newest.
      const spread = exactSpread(pin.spec);
      if (spread) out[t] = { ...pin, spec: spread };
    }
  }
  return out;
}

/** `>=oldest,<=newest` of a specifier made only of exact releases (`==0.13.0,==0.15.1`), if it is. */
function exactSpread(spec: string): string | undefined {
  const clauses = specifierClauses(spec);
  if (clauses.length < 2 || !clauses.every((c) => (c.operator === '==' || c.operator === '===') && !c.prefix)) return undefined;
  const versions = clauses.map((c) => c.version).sort(compareVersions);
  return `>=${versions[0]},<=${versions[versions.length - 1]}`;
}

/** The one release a specifier allows (`==0.8.0`, `===0.8.0`), if it allows only one. */
export function exactRelease(spec: string): string | undefined {
  const clauses = specifierClauses(spec);
  const exact = clauses.filter((c) => (c.operator === '==' || c.operator === '===') && !c.prefix);
  if (exact.length !== 1) return undefined;
  return clauses.every((c) => c === exact[0] || satisfies(exact[0].version, `${c.operator}${c.version}${c.prefix ?? ''}`)) ? exact[0].version : undefined;
}

interface Clause {
  operator: string;
  version: string;
  prefix?: string;
}

function specifierClauses(spec: string): Clause[] {
  return (parseSpecifier(spec) ?? []) as Clause[];
}

/** The bounds of the releases a specifier allows: the lowest (inclusive) and the highest, inclusive or not. */
export function specBounds(spec: string): { floor?: string; top?: { version: string; inclusive: boolean } } {
  let floor: string | undefined;
  let top: { version: string; inclusive: boolean } | undefined;
  const lower = (v: string) => {
    if (!floor || compareVersions(v, floor) > 0) floor = v;
  };
  const upper = (version: string, inclusive: boolean) => {
    const c = top ? compareVersions(version, top.version) : -1;
    if (!top || c < 0 || (c === 0 && !inclusive)) top = { version, inclusive };
  };
  for (const c of specifierClauses(spec)) {
    const parts = c.version.split('.');
    if ((c.operator === '==' || c.operator === '===') && !c.prefix) {
      lower(c.version);
      upper(c.version, true);
    } else if (c.operator === '==' && c.prefix) {
      // `==0.13.*`: 0.13 up to, not including, 0.14.
      lower(c.version);
      upper([...parts.slice(0, -1), Number(parts[parts.length - 1]) + 1].join('.'), false);
    } else if (c.operator === '~=') {
      // `~=0.13.1`: at least 0.13.1, below 0.14.
      lower(c.version);
      upper([...parts.slice(0, -2), Number(parts[parts.length - 2]) + 1].join('.'), false);
    } else if (c.operator === '>=' || c.operator === '>') lower(c.version);
    else if (c.operator === '<=') upper(c.version, true);
    else if (c.operator === '<') upper(c.version, false);
  }
  return { floor, top };
}

function emptyRange(spec: string): boolean {
  const { floor, top } = specBounds(spec);
  if (!floor || !top) return false;
  const c = compareVersions(floor, top.version);
  return c > 0 || (c === 0 && !top.inclusive);
}

/** Whether some release the specifier allows is at least `version` (the range read at its top). */
export function rangeReaches(spec: string, version: string): boolean {
  const { top } = specBounds(spec);
  if (!top) return true;
  const c = compareVersions(version, top.version);
  return top.inclusive ? c <= 0 : c < 0;
}

/** Whether a release is one the specifier allows. */
export function inRange(spec: string, version: string): boolean {
  try {
    return satisfies(version, spec);
  } catch {
    return false;
  }
}

/**
 * The releases the container images a file names ship (containers.ts), as pins: only when every
 * image the table knows agrees, per tool (a build stage or a second job on another image would
 * otherwise say two things).
 */
export function imagePins(references: readonly string[], where: string): Partial<Record<Tool, Pin>> {
  const rows = references.map((r) => ({ r, found: containerReleases(r) })).filter((x) => x.found);
  const out: Partial<Record<Tool, Pin>> = {};
  for (const tool of ['accelerate', 'deepspeed', 'megatron-core'] as Tool[]) {
    const versions = new Set(rows.map((x) => x.found!.row.releases[tool]));
    const [only] = versions;
    if (versions.size !== 1 || !only) continue;
    const ref = rows.find((x) => x.found!.row.releases[tool] === only)!.r;
    out[tool] = { spec: `==${only}`, package: tool, file: `${where}: ${ref}` };
  }
  return out;
}

/** The container images a launch script runs in: Pyxis's `--container-image`, `enroot import`. */
export function scriptImages(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/--container-image(?:=|\s+)(["']?)([^\s"';|&]+)\1/g)) out.push(m[2]);
  for (const m of text.matchAll(/\benroot\s+import\s+(?:-o\s+\S+\s+)?(docker:\/\/[^\s"';|&]+)/g)) out.push(m[1]);
  return out;
}
