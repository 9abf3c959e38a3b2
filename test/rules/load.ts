/**
 * The rule cases, read from their folders (see README.md): `test/rules/<rule-id>/<slug>.<ext>` is a
 * config as a user writes it, with caret annotation lines (test/unit/annotate.ts) under the findings
 * it must produce, or, with a `#: fix:` header, the text before a fix, `<slug>.fixed.<ext>` holding
 * the text after it. `#: key: value` lines at the very top are headers; they are removed before
 * anything else, so annotations and fixed texts refer to the text without them.
 *
 * Anything in a rule folder that is not a case, a fixed text or a case's `.files/` or `.referrers/`
 * folder is an error here, so a misnamed file cannot be skipped without notice.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineSettings } from '../../server/src/engine';
import { RepositoryPins } from '../../server/src/host/pins';
import { RepositoryWalk } from '../../server/src/host/repository';
import type { Case, FixCase } from '../unit/annotate';

export const RULES_DIR = __dirname;

/** The headers a case file may start with. */
const KEYS = ['name', 'path', 'settings', 'files', 'repository', 'fix'] as const;
type Key = (typeof KEYS)[number];

export interface RuleCase extends Case {
  /** The folder the case is in: the rule it is about. */
  rule: string;
  file: string;
}

export interface RuleFixCase extends FixCase {
  rule: string;
  file: string;
}

/** Splits the `#: key: value` lines off the top of a case file. */
export function splitHeaders(text: string, file: string): { headers: Map<Key, string>; body: string } {
  const headers = new Map<Key, string>();
  let body = text;
  while (body.startsWith('#: ')) {
    const end = body.indexOf('\n');
    const line = end < 0 ? body : body.slice(0, end);
    const m = /^#: ([a-z]+): (.*)$/.exec(line);
    if (!m || !(KEYS as readonly string[]).includes(m[1])) throw new Error(`${file}: "${line}" is not a header (${KEYS.map((k) => `#: ${k}: …`).join(', ')})`);
    if (headers.has(m[1] as Key)) throw new Error(`${file}: header "${m[1]}" given twice`);
    headers.set(m[1] as Key, m[2]);
    body = end < 0 ? '' : body.slice(end + 1);
  }
  return { headers, body };
}

/** The files under `dir`, by their path relative to it (`tasks/main.py`). */
function readTree(dir: string, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) Object.assign(out, readTree(p, `${prefix}${name}/`));
    else out[`${prefix}${name}`] = readFileSync(p, 'utf8');
  }
  return out;
}

function loadFolder(rule: string): { cases: RuleCase[]; fixes: RuleFixCase[] } {
  const dir = join(RULES_DIR, rule);
  const entries = readdirSync(dir).sort();
  const cases: RuleCase[] = [];
  const fixes: RuleFixCase[] = [];
  const slugs = new Set<string>();
  const claimed = new Set<string>();
  for (const name of entries) {
    if (statSync(join(dir, name)).isDirectory() || /^[^.]+\.fixed\./.test(name)) continue;
    const file = `${rule}/${name}`;
    const m = /^([a-z0-9]+(?:-[a-z0-9]+)*)\.([a-z0-9]+)$/.exec(name);
    if (!m) throw new Error(`${file}: a case is named <slug>.<ext> with a kebab-case slug`);
    const [, slug, ext] = m;
    if (slugs.has(slug)) throw new Error(`${file}: another case in ${rule}/ has the slug ${slug}`);
    slugs.add(slug);
    claimed.add(name);
    const { headers, body } = splitHeaders(readFileSync(join(dir, name), 'utf8'), file);
    const path = headers.get('path') ?? `config.${ext}`;
    if (!path.endsWith(`.${ext}`)) throw new Error(`${file}: the path ${path} does not end in .${ext}`);
    const common: { name: string; path: string; settings?: EngineSettings; files?: Record<string, string>; referrers?: Record<string, string>; rule: string; file: string } = { name: headers.get('name') ?? `${rule}: ${slug}`, path, rule, file };
    const settings = headers.get('settings');
    if (settings !== undefined) common.settings = JSON.parse(settings) as EngineSettings;
    const filesDir = join(dir, `${slug}.files`);
    if (existsSync(filesDir)) {
      if (headers.has('files')) throw new Error(`${file}: both "#: files:" and ${slug}.files/`);
      common.files = readTree(filesDir);
      claimed.add(`${slug}.files`);
    } else if (headers.has('files')) {
      // A host that looks next to the file and finds nothing (as opposed to one that cannot look).
      if (headers.get('files') !== 'none') throw new Error(`${file}: "#: files:" takes only "none"; linked files go in ${slug}.files/`);
      common.files = {};
    }
    if (headers.has('repository')) {
      // The host's own walk (host/repository.ts) over the case's files, as the repository the case sits in.
      if (headers.get('repository') !== 'files' || !common.files) throw new Error(`${file}: "#: repository: files" indexes the Python of ${slug}.files/, which it needs`);
      // Its root is where the case's host serves those files (`/project`).
      common.settings = { ...common.settings, repositoryFlags: { ...new RepositoryWalk(filesDir).run().flags, root: '/project' } };
    }
    if (common.files && existsSync(filesDir)) {
      // The releases the case's dependency files pin and the GPUs its jobs ask for, as the host reads them from where the case sits.
      const repository = new RepositoryPins();
      const at = join(filesDir, path.replace(/^\/project\//, '').replace(/^\//, ''));
      const pins = repository.forFile(at, filesDir);
      if (pins) common.settings = { ...common.settings, pins };
      const jobHardware = repository.hardwareFor(at, filesDir);
      if (jobHardware) common.settings = { ...common.settings, jobHardware };
    }
    const referrersDir = join(dir, `${slug}.referrers`);
    if (existsSync(referrersDir)) {
      common.referrers = readTree(referrersDir);
      claimed.add(`${slug}.referrers`);
    }
    const fix = headers.get('fix');
    if (fix === undefined) {
      cases.push({ ...common, src: body });
      continue;
    }
    const f = /^([a-z0-9-]+) (.+)$/.exec(fix);
    if (!f) throw new Error(`${file}: "#: fix:" is followed by the rule id and a substring of the fix title`);
    if (f[1] !== rule) throw new Error(`${file}: a fix case for ${f[1]} belongs in ${f[1]}/`);
    const fixedName = `${slug}.fixed.${ext}`;
    if (!existsSync(join(dir, fixedName))) throw new Error(`${file}: the text after the fix, ${fixedName}, is missing`);
    claimed.add(fixedName);
    fixes.push({ ...common, code: f[1], title: f[2], before: body, after: readFileSync(join(dir, fixedName), 'utf8') });
  }
  const stray = entries.filter((e) => !claimed.has(e));
  if (stray.length) throw new Error(`${rule}/: ${stray.join(', ')} belong to no case (a case is <slug>.<ext>; beside it <slug>.fixed.<ext>, <slug>.files/, <slug>.referrers/)`);
  return { cases, fixes };
}

/** The rule folders: every directory here. */
export const folders: string[] = readdirSync(RULES_DIR)
  .filter((name) => statSync(join(RULES_DIR, name)).isDirectory())
  .sort();

const loaded = folders.map(loadFolder);
export const cases: RuleCase[] = loaded.flatMap((l) => l.cases);
export const fixes: RuleFixCase[] = loaded.flatMap((l) => l.fixes);
