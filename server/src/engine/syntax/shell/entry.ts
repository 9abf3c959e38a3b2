/** The program a launch script's training command runs: a file (`train.py`) or a module (`python -m pkg.mod`), read through the host. */
import type { EntryPoint } from './types';
import { absoluteTails } from './expansion';
import { normalizePath } from './substitution';
import { MODULE_NAME } from '../python';

/** What was found of the program: its text, the path the host read it at, the reference it was looked up by, and for a module the folder its package lies in (`''`: the script's). */
export interface EntryProgram {
  text?: string;
  path?: string;
  ref?: string;
  root?: string;
  missing?: boolean;
}

/** What finding the program needs of the launch script (ShellDoc has it). */
interface Launch {
  readonly entrypoint: EntryPoint | undefined;
  readonly options: { read?: (ref: string) => { text?: string; path?: string } };
  launchRef(ref: string): string | undefined;
  pathEntries(name: string): { text?: string; unknown?: string }[];
}

/**
 * The program, when the host can read it: a file entry as resolved; when its folder comes from the
 * environment (`${BASE}/train.py`) or is an absolute path of the author's machine
 * (`/home/me/repo/examples/train.py`), the rest of its path (at least a folder and the file) looked
 * for as the host looks for sourced files. A module entry (see `moduleRefs`). `missing` when the host
 * looked and found nothing; empty when it cannot look (no host, a name not known).
 */
export function entryProgramOf(doc: Launch): EntryProgram {
  const read = doc.options.read;
  const entry = doc.entrypoint;
  if (!entry || !read) return {};
  let refs: { ref: string; root?: string }[];
  if (entry.module) refs = moduleRefs(doc, entry.path);
  else {
    const written = entry.path.replace(/^\$\{?\w+\}?\//, '');
    // A `cd` to a folder not known leaves the program where nobody here can look.
    const ref = written === entry.path ? doc.launchRef(written) : written;
    refs = ref && !/[$`*?\s]/.test(ref) ? [ref, ...absoluteTails(ref)].map((r) => ({ ref: r })) : [];
  }
  if (!refs.length) return {};
  for (const { ref, root } of refs) {
    try {
      const f = read(ref);
      if (f.text === undefined) continue;
      return { text: f.text, path: f.path, ref, ...(root !== undefined ? { root } : {}) };
    } catch {
      continue;
    }
  }
  return { missing: true };
}

/**
 * Where Python finds the module `name` (`pkg.mod`: the package's `pkg/mod/__main__.py`, else
 * `pkg/mod.py`), in the order it looks: the folder the command starts in (the script's, or the one a
 * `cd` before it leads to; none when that folder is not known), the folders the script puts on
 * PYTHONPATH, then the repository's own copy of the package (an installed one: looked for from the
 * script's folder up, as the host looks).
 */
function moduleRefs(doc: Launch, name: string): { ref: string; root: string }[] {
  if (!MODULE_NAME.test(name)) return [];
  const rel = name.replace(/\./g, '/');
  const roots: string[] = [];
  const cwd = doc.launchRef('.');
  if (cwd !== undefined) roots.push(cwd === '.' ? '' : cwd);
  for (const e of doc.pathEntries('PYTHONPATH')) {
    if (!e.text || /[$`*?\s]/.test(e.text)) continue;
    const at = doc.launchRef(e.text);
    if (at !== undefined) roots.push(at, ...absoluteTails(`${at}/x`).map((t) => t.slice(0, -2)));
  }
  roots.push('');
  const out: { ref: string; root: string }[] = [];
  const seen = new Set<string>();
  for (const r of roots) {
    const root = r === '' || r === '.' ? '' : `${normalizePath(r).replace(/\/+$/, '')}/`;
    if (seen.has(root) || /[$`*?\s]/.test(root)) continue;
    seen.add(root);
    for (const file of [`${rel}/__main__.py`, `${rel}.py`]) out.push({ ref: `${root}${file}`, root });
  }
  return out.slice(0, 16);
}
