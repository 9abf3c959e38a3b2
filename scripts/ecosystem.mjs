#!/usr/bin/env node
// The ecosystem check (like ruff's ecosystem CI or mypy_primer): runs the built `shardwise check` on
// real upstream repositories, pinned by commit in test/ecosystem/manifest.json, and reports what it
// finds, which errors were reviewed as true or false (test/ecosystem/verdicts.json), and what changed
// since the recorded run (test/ecosystem/last-run.json).
//
//   npm run ecosystem -- [--checkouts DIR] [--set ID]... [--verbose] [--json] [--record] [--check]
//
// No upstream content is stored in this repository: the manifest names, per set, a repository
// ("repo": owner/name), a commit, the "paths" that may be configs of ours and the "other" paths that
// must get no finding; optionally "target" ({"megatron-core": "0.13.0"}: the CLI's --target, for a
// commit of an older release) and "url" (where to clone from, instead of GitHub). Each repository is looked for in the checkouts folder (--checkouts, else
// $SHARDWISE_ECOSYSTEM_DIR, else .ecosystem/) as DIR/owner+name/repo (a bare git dir) or
// DIR/owner+name (a clone or a bare dir); when absent it is cloned there (bare, without blobs, which
// are fetched for the listed paths only). The listed paths are written at the pinned commit to a
// temporary folder (read from git's object store, so no attributes, filters or LFS smudging touch
// them) and the CLI is run once per set over all of them, named one by one: the files a folder walk
// skips (hidden folders such as .github/, unusual extensions) are checked too, as an editor would.
//
// Exit status: 0; with --check, 1 when there is a finding that is new since last-run.json, an
// unreviewed error, more than 1 false error per 100 files, a finding on an "other" file, or a set the
// CLI failed on; 2 on a usage error (unknown option, unreadable manifest or verdicts).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'dist/cli/main.js');
const FALSE_ERRORS_PER_100_LIMIT = 1;

const USAGE = `Usage: node scripts/ecosystem.mjs [options]   (npm run ecosystem -- [options])

  --checkouts DIR   where the upstream repositories are (DIR/owner+name/repo or DIR/owner+name);
                    default $SHARDWISE_ECOSYSTEM_DIR, else .ecosystem/ (missing ones are cloned there)
  --set ID          only this set (repeatable)
  --verbose         also list the information and hint findings
  --json            print the whole result as JSON instead of the text report
  --record          rewrite the last-run file with this run (only the sets that ran)
  --check           exit 1 on new findings, unreviewed errors, false errors above
                    ${FALSE_ERRORS_PER_100_LIMIT} per 100 files, findings on "other" files or failed sets
  --manifest FILE   default test/ecosystem/manifest.json
  --verdicts FILE   default test/ecosystem/verdicts.json
  --last-run FILE   default test/ecosystem/last-run.json
  --no-build        use dist/cli/main.js as it is (default: rebuild it when older than the sources)
  --keep            keep the temporary folders with the materialised files (their paths are printed)
  --help            this text
`;

class UsageError extends Error {}

function parseArgs(argv) {
  const o = {
    checkouts: process.env.SHARDWISE_ECOSYSTEM_DIR || join(ROOT, '.ecosystem'),
    manifest: join(ROOT, 'test/ecosystem/manifest.json'),
    verdicts: join(ROOT, 'test/ecosystem/verdicts.json'),
    lastRun: join(ROOT, 'test/ecosystem/last-run.json'),
    sets: [],
    verbose: false,
    json: false,
    record: false,
    check: false,
    build: true,
    keep: false,
    help: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const eq = a.indexOf('=');
    const flag = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a;
    const value = () => {
      if (a.startsWith('--') && eq > 0) return a.slice(eq + 1);
      const v = argv[++i];
      if (v === undefined || v === '') throw new UsageError(`${flag} needs a value`);
      return v;
    };
    const bool = () => {
      if (eq > 0 && a.startsWith('--')) throw new UsageError(`${flag} takes no value`);
      return true;
    };
    switch (flag) {
      case '--checkouts': o.checkouts = value(); break;
      case '--manifest': o.manifest = value(); break;
      case '--verdicts': o.verdicts = value(); break;
      case '--last-run': o.lastRun = value(); break;
      case '--set': o.sets.push(value()); break;
      case '--verbose': o.verbose = bool(); break;
      case '--json': o.json = bool(); break;
      case '--record': o.record = bool(); break;
      case '--check': o.check = bool(); break;
      case '--no-build': o.build = !bool(); break;
      case '--keep': o.keep = bool(); break;
      case '--help': case '-h': o.help = true; break;
      default: throw new UsageError(a.startsWith('-') ? `unknown option ${a}` : `unexpected argument ${a}`);
    }
  }
  for (const k of ['checkouts', 'manifest', 'verdicts', 'lastRun']) o[k] = resolve(o[k]);
  return o;
}

// ---------------------------------------------------------------------------------------------
// Inputs: manifest, verdicts, last run

function readJson(file, what, { optional = false } = {}) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (optional && err.code === 'ENOENT') return undefined;
    throw new UsageError(`cannot read the ${what} ${file}: ${err.message}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`the ${what} ${file} is not valid JSON: ${err.message}`);
  }
}

function validRelativePath(p) {
  return typeof p === 'string' && p !== '' && !p.startsWith('/') && !p.includes('\\') && !/[\0\n\r]/.test(p) && p.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

function loadManifest(file) {
  const m = readJson(file, 'manifest');
  const bad = (why) => { throw new UsageError(`manifest ${file}: ${why}`); };
  if (!m || typeof m !== 'object' || !Array.isArray(m.sets)) bad('needs a "sets" array');
  const ids = new Set();
  for (const [i, s] of m.sets.entries()) {
    const where = `sets[${i}]${s && typeof s.id === 'string' ? ` (${s.id})` : ''}`;
    if (!s || typeof s !== 'object') bad(`${where} is not an object`);
    if (typeof s.id !== 'string' || !s.id || /[|\s]/.test(s.id)) bad(`${where}: "id" must be a non-empty string without spaces or "|"`);
    if (ids.has(s.id)) bad(`${where}: duplicate id`);
    ids.add(s.id);
    if (typeof s.repo !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9_.-]*\/[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(s.repo)) bad(`${where}: "repo" must be owner/name`);
    if (typeof s.commit !== 'string' || !/^[0-9a-f]{40}$/.test(s.commit)) bad(`${where}: "commit" must be 40 lowercase hex digits`);
    if (s.url !== undefined && typeof s.url !== 'string') bad(`${where}: "url" must be a string`);
    if (s.target !== undefined) {
      if (!s.target || typeof s.target !== 'object' || Array.isArray(s.target)) bad(`${where}: "target" must map accelerate, deepspeed or megatron-core to a version`);
      for (const [tool, version] of Object.entries(s.target)) {
        if (!['accelerate', 'deepspeed', 'megatron-core'].includes(tool) || typeof version !== 'string' || !/^\d+(\.\d+)*$/.test(version)) bad(`${where}: "target" ${JSON.stringify(tool)}: ${JSON.stringify(version)} is not accelerate|deepspeed|megatron-core = a version`);
      }
    }
    for (const k of ['paths', 'other', 'support']) {
      if (s[k] === undefined) s[k] = [];
      if (!Array.isArray(s[k])) bad(`${where}: "${k}" must be an array of paths`);
      for (const p of s[k]) if (!validRelativePath(p)) bad(`${where}: ${JSON.stringify(p)} in "${k}" is not a relative path inside the repository`);
    }
    const seen = new Set();
    for (const p of [...s.paths, ...s.other, ...s.support]) {
      if (seen.has(p)) bad(`${where}: ${p} is listed twice`);
      seen.add(p);
    }
  }
  return m;
}

function loadVerdicts(file) {
  const v = readJson(file, 'verdicts', { optional: true }) ?? {};
  const bad = (why) => { throw new UsageError(`verdicts ${file}: ${why}`); };
  if (typeof v !== 'object' || Array.isArray(v)) bad('must be an object mapping "set|path|rule[|line]" to {verdict, why}');
  const out = new Map();
  for (const [key, val] of Object.entries(v)) {
    if (key.startsWith('$')) continue; // "$comment"
    const parts = key.split('|');
    if (parts.length !== 3 && parts.length !== 4) bad(`key ${JSON.stringify(key)} is not "set|path|rule" or "set|path|rule|line"`);
    if (parts.length === 4 && !/^[1-9]\d*$/.test(parts[3])) bad(`key ${JSON.stringify(key)}: the line must be a positive integer (1-based)`);
    if (!val || (val.verdict !== 'true' && val.verdict !== 'false')) bad(`${JSON.stringify(key)}: "verdict" must be "true" or "false"`);
    if (typeof val.why !== 'string' || !val.why.trim()) bad(`${JSON.stringify(key)}: "why" must say why, in one sentence`);
    out.set(key, { verdict: val.verdict, why: val.why });
  }
  return out;
}

function loadLastRun(file) {
  const r = readJson(file, 'last run', { optional: true });
  if (r === undefined) return undefined;
  if (!r || typeof r !== 'object' || typeof r.sets !== 'object') throw new UsageError(`last run ${file}: needs a "sets" object (delete it and run with --record to start again)`);
  return r;
}

// ---------------------------------------------------------------------------------------------
// Child processes: a clean environment, git, the CLI

/** The environment children get: no npm_config_*, NODE_OPTIONS, GIT_DIR and the like from our caller. */
function cleanEnv(extra = {}) {
  const keep = /^(PATH|HOME|USER|LOGNAME|TMPDIR|TMP|TEMP|SYSTEMROOT|COMSPEC|PATHEXT|LANG|LC_[A-Z]+|TZ|https?_proxy|HTTPS?_PROXY|no_proxy|NO_PROXY|all_proxy|ALL_PROXY|SSL_CERT_FILE|SSL_CERT_DIR|GIT_SSL_CAINFO|GIT_SSH_COMMAND|SSH_AUTH_SOCK)$/;
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (keep.test(k) && v !== undefined) env[k] = v;
  return { ...env, GIT_TERMINAL_PROMPT: '0', GIT_LFS_SKIP_SMUDGE: '1', LC_ALL: 'C', ...extra };
}

function run(cmd, args, { input, cwd, env, timeout = 30 * 60 * 1000, encoding = 'utf8' } = {}) {
  const r = spawnSync(cmd, args, { input, cwd, env: env ?? cleanEnv(), encoding: encoding === 'buffer' ? undefined : encoding, maxBuffer: 1 << 30, timeout });
  return { code: r.status ?? -1, out: r.stdout, err: r.error ? `${r.error.message}\n${r.stderr ?? ''}` : String(r.stderr ?? '') };
}

function lastLine(text) {
  return sanitize(String(text).split('\n').map((l) => l.trim()).filter(Boolean).slice(-1)[0] ?? 'no message');
}

let gitChecked;
function requireGit() {
  if (gitChecked === undefined) gitChecked = run('git', ['--version']).code === 0;
  if (!gitChecked) throw new UsageError('git is not installed (it is needed to read the upstream repositories)');
}

/** A git repository: `--git-dir` for a bare dir, `-C` (confined to the folder) for a clone. */
function repoAt(path) {
  if (!existsSync(path) || !statSync(path).isDirectory()) return undefined;
  if (existsSync(join(path, 'HEAD')) && existsSync(join(path, 'objects'))) return { path, args: ['--git-dir', path] };
  if (existsSync(join(path, '.git'))) return { path, args: ['-C', path], env: { GIT_CEILING_DIRECTORIES: dirname(path) } };
  return undefined;
}

function git(repo, args, opts = {}) {
  return run('git', [...repo.args, ...args], { ...opts, env: cleanEnv(repo.env ?? {}) });
}

function hasCommit(repo, commit) {
  return git(repo, ['cat-file', '-e', `${commit}^{commit}`]).code === 0;
}

function isPartial(repo) {
  const r = git(repo, ['config', '--get-regexp', '^(extensions\\.partialclone|remote\\..*\\.promisor)$']);
  return r.code === 0 && /\S/.test(r.out);
}

/** Finds (or clones) the checkout of a repository, with the commit present. */
function locate(set, checkouts, cache, log) {
  const folder = set.repo.replace('/', '+');
  let entry = cache.get(set.repo);
  if (!entry) {
    let repo = repoAt(join(checkouts, folder, 'repo')) ?? repoAt(join(checkouts, folder));
    let reason;
    if (!repo) {
      const target = join(checkouts, folder, 'repo');
      const url = set.url ?? `https://github.com/${set.repo}`;
      log(`${set.repo}: no checkout in ${checkouts}; cloning ${url} (bare, blobs on demand)`);
      mkdirSync(dirname(target), { recursive: true });
      const r = run('git', ['clone', '--bare', '--quiet', '--filter=blob:none', url, target]);
      if (r.code === 0) repo = repoAt(target);
      else {
        rmSync(target, { recursive: true, force: true });
        try {
          if (readdirSync(dirname(target)).length === 0) rmSync(dirname(target), { recursive: true, force: true });
        } catch {}
        reason = `no checkout of ${set.repo} in ${checkouts}, and git clone ${url} failed: ${lastLine(r.err)}`;
      }
    }
    entry = { repo, reason };
    cache.set(set.repo, entry);
  }
  if (!entry.repo) return { reason: entry.reason };
  const repo = entry.repo;
  // In a partial clone, asking whether the commit is there fetches it, then its trees one by one:
  // fetch it (with its trees) in one go instead, and look only when that fails (offline).
  const partial = isPartial(repo);
  if (partial || !hasCommit(repo, set.commit)) {
    log(`${set.id}: ${partial ? 'partial clone' : `commit ${set.commit.slice(0, 12)} is not in ${repo.path}`}: git fetch origin ${set.commit.slice(0, 12)}`);
    const r = git(repo, ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', 'origin', set.commit]);
    if (r.code !== 0 && !hasCommit(repo, set.commit)) return { reason: `commit ${set.commit} is not in ${repo.path} and git fetch origin failed: ${lastLine(r.err)}` };
  }
  return { repo };
}

/** The whole tree at the commit (path -> {mode, type, oid, size}), and the listed paths found in it; the rest reported with a reason. */
function listPaths(repo, commit, paths) {
  const r = git(repo, ['ls-tree', '-r', '-l', '-z', '--full-tree', commit]);
  if (r.code !== 0) throw new Error(`git ls-tree ${commit} failed: ${lastLine(r.err)}`);
  const tree = new Map();
  for (const rec of r.out.split('\0')) {
    if (!rec) continue;
    const tab = rec.indexOf('\t');
    const [mode, type, oid, size] = rec.slice(0, tab).split(/\s+/);
    tree.set(rec.slice(tab + 1), { mode, type, oid, size: Number(size) });
  }
  const dirs = new Set();
  for (const p of tree.keys()) for (let i = p.indexOf('/'); i > 0; i = p.indexOf('/', i + 1)) dirs.add(p.slice(0, i));
  const found = new Map();
  const missing = [];
  for (const p of paths) {
    const e = tree.get(p);
    if (!e) missing.push({ path: p, why: dirs.has(p) ? 'a folder at this commit' : 'not at this commit' });
    else if (e.type !== 'blob') missing.push({ path: p, why: e.type === 'commit' ? 'a submodule' : `a ${e.type}` });
    else if (e.mode === '120000') missing.push({ path: p, why: 'a symbolic link' });
    else if (!Number.isFinite(e.size)) missing.push({ path: p, why: 'its content is not in this copy of the repository' });
    else found.set(p, e);
  }
  // The rest of the checkout, as a clone has it (submodules empty, no file over 1 MiB): what the
  // checked files source, the Python that defines their flags, requirements files.
  const checkout = new Map([...tree].filter(([, e]) => e.type === 'blob' && e.mode !== '120000' && e.size <= 1 << 20));
  return { found, missing, checkout };
}

/** Writes the blobs under dir, read with one `git cat-file --batch` (fetched first in one go from a partial clone). */
function materialise(repo, found, dir) {
  const entries = [...found];
  if (entries.length === 0) return;
  const oids = [...new Set(entries.map(([, e]) => e.oid))];
  if (isPartial(repo)) {
    // What git does itself for a missing object, for all of them at once instead of one by one.
    const r = git(repo, ['-c', 'fetch.negotiationAlgorithm=noop', 'fetch', '--quiet', 'origin', '--no-tags', '--no-write-fetch-head', '--recurse-submodules=no', '--filter=blob:none', '--stdin'], { input: oids.join('\n') + '\n' });
    if (r.code !== 0) throw new Error(`fetching ${oids.length} blobs from origin failed: ${lastLine(r.err)}`);
  }
  const r = git(repo, ['cat-file', '--batch'], { input: oids.join('\n') + '\n', encoding: 'buffer' });
  if (r.code !== 0) throw new Error(`git cat-file --batch failed: ${lastLine(r.err)}`);
  const blobs = new Map();
  const buf = r.out;
  let off = 0;
  for (const oid of oids) {
    const nl = buf.indexOf(10, off);
    const header = buf.subarray(off, nl).toString('latin1').split(' ');
    if (header[1] !== 'blob') throw new Error(`git cat-file --batch: ${oid} is ${header.slice(1).join(' ')}`);
    const size = Number(header[2]);
    blobs.set(oid, buf.subarray(nl + 1, nl + 1 + size));
    off = nl + 1 + size + 1;
  }
  for (const [p, e] of entries) {
    const file = join(dir, ...p.split('/'));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, blobs.get(e.oid));
  }
}

function newestMtime(path, skip) {
  let newest = 0;
  const walk = (p) => {
    let st;
    try {
      st = statSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      if (skip?.(p)) return;
      for (const name of readdirSync(p)) walk(join(p, name));
    } else newest = Math.max(newest, st.mtimeMs);
  };
  walk(path);
  return newest;
}

function ensureBuilt(build, log) {
  const generated = join(ROOT, 'server/src/engine/schema/generated');
  const sources = Math.max(newestMtime(join(ROOT, 'server/src'), (p) => p === generated), newestMtime(join(ROOT, 'schemas')), newestMtime(join(ROOT, 'scripts/build.mjs')));
  const built = existsSync(CLI) ? statSync(CLI).mtimeMs : 0;
  if (built >= sources) return;
  if (!build) {
    if (!built) throw new UsageError(`${relative(ROOT, CLI)} is missing: run node scripts/build.mjs (or drop --no-build)`);
    log(`warning: ${relative(ROOT, CLI)} is older than the sources (--no-build: used as it is)`);
    return;
  }
  log(`building the CLI (${built ? 'dist/cli/main.js is older than the sources' : 'dist/cli/main.js is missing'}): node scripts/build.mjs`);
  const r = run(process.execPath, [join(ROOT, 'scripts/build.mjs')], { cwd: ROOT });
  if (r.code !== 0 || !existsSync(CLI)) throw new Error(`the build failed:\n${r.out}${r.err}`);
}

// ---------------------------------------------------------------------------------------------
// One set

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;
/** Text from upstream files, safe to print on a terminal: no control or bidirectional characters. */
function sanitize(text) {
  return String(text).replace(/\r\n|\r|\n|\t/g, ' ').replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function runSet(set, opts, cache, log) {
  const result = { id: set.id, repo: set.repo, commit: set.commit, target: set.target, status: 'ok', reason: undefined, files: 0, configFiles: 0, otherFiles: 0, missingPaths: [], stderr: [], readAs: {}, findings: [], tmp: undefined };
  const where = locate(set, opts.checkouts, cache, log);
  if (!where.repo) {
    result.status = 'missing';
    result.reason = where.reason;
    log(`${set.id}: missing: ${where.reason}`);
    return result;
  }
  const tmp = mkdtempSync(join(tmpdir(), 'shardwise-ecosystem-'));
  try {
    // The whole checkout is written (as a clone has it), so what Shardwise reads beside a file (a
    // sourced script, the checkout's argument parsers, requirements) is there; only the listed
    // paths are checked. "support" paths are kept for older manifests: they are part of the checkout.
    const { found, missing, checkout } = listPaths(where.repo, set.commit, [...set.paths, ...set.other, ...set.support]);
    result.missingPaths = missing;
    const other = new Set(set.other);
    const support = new Set(set.support);
    const checked = [...found.keys()].filter((p) => !support.has(p));
    result.files = checked.length;
    result.otherFiles = checked.filter((p) => other.has(p)).length;
    result.configFiles = result.files - result.otherFiles;
    materialise(where.repo, checkout, tmp);
    // A clone's root holds .git: it is what makes the folder the files' repository (whose Python's
    // add_argument calls define flags). An empty one is enough; nothing reads inside it.
    mkdirSync(join(tmp, '.git'), { recursive: true });
    const files = checked.sort();
    const started = Date.now();
    // One run over every file, so an Accelerate config and the DeepSpeed JSON it names are checked together.
    // The versions a set at an older release runs with (manifest "target"), as `--target TOOL=VERSION`.
    const targets = Object.entries(set.target ?? {}).sort().flatMap(([tool, version]) => ['--target', `${tool}=${version}`]);
    const argBytes = files.reduce((n, p) => n + Buffer.byteLength(p) + 3, 0);
    if (argBytes > 1_000_000) throw new Error(`${files.length} files (${argBytes} bytes of paths) are too many for one command line: split the set`);
    const r = files.length ? run(process.execPath, [opts.cliPath, 'check', '--no-config', '--verbose', '--format', 'json', ...targets, ...files.map((p) => `./${p}`)], { cwd: tmp }) : { code: 0, out: '[]', err: '' };
    log(`${set.id}: ${files.length} files checked in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    let raw;
    try {
      raw = JSON.parse(r.out);
      if (!Array.isArray(raw)) throw new Error('not an array');
    } catch {
      raw = undefined;
    }
    // `--verbose` says on stderr how each file was read ("shardwise: PATH: read as a DeepSpeed config: …"):
    // counted per format, and kept out of the CLI's other messages.
    const lines = r.err.split('\n').filter((l) => l.trim());
    for (const l of lines) {
      const m = /^shardwise: .*?: read as an? (.+?): /.exec(l);
      if (m) result.readAs[m[1]] = (result.readAs[m[1]] ?? 0) + 1;
    }
    result.stderr = lines.filter((l) => !/^shardwise: .*?: (read as|not read)\b/.test(l) && !/^shardwise: \d+ config files? checked/.test(l)).map((l) => scrub(l, tmp));
    if (!raw || (r.code !== 0 && r.code !== 1 && r.code !== 2)) {
      result.status = 'failed';
      result.reason = `the CLI exited with ${r.code}${raw ? '' : ' without a JSON array'}: ${result.stderr.slice(-3).join(' / ') || 'no message'}`;
      log(`${set.id}: failed: ${result.reason}`);
      return result;
    }
    const real = realpathSync(tmp);
    for (const f of raw) {
      const abs = resolve(tmp, f.file);
      let path = relative(abs.startsWith(real + sep) ? real : tmp, abs).split(sep).join('/');
      if (path.startsWith('..') || isAbsolute(path)) path = String(f.file);
      result.findings.push({
        path,
        other: other.has(path),
        listed: found.has(path),
        rule: String(f.code ?? ''),
        severity: String(f.severity ?? ''),
        line: (f.range?.start?.line ?? 0) + 1,
        column: (f.range?.start?.character ?? 0) + 1,
        endLine: (f.range?.end?.line ?? 0) + 1,
        endColumn: (f.range?.end?.character ?? 0) + 1,
        message: scrub(f.message ?? '', tmp),
      });
    }
    result.findings.sort(compareFindings);
    if (opts.keep) result.tmp = tmp;
    return result;
  } catch (err) {
    result.status = 'failed';
    result.reason = sanitize(err.message);
    log(`${set.id}: failed: ${result.reason}`);
    return result;
  } finally {
    if (!opts.keep) rmSync(tmp, { recursive: true, force: true });
  }
}

/** A message or stderr line without the temporary folder (paths become repo-relative) or control characters. */
function scrub(text, tmp) {
  let s = String(text);
  for (const t of new Set([tmp, safeRealpath(tmp)])) s = s.split(t + sep).join('').split(t).join('.');
  return sanitize(s);
}

function safeRealpath(p) {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

const SEVERITY_RANK = { error: 0, warning: 1, information: 2, info: 2, hint: 3 };
function compareFindings(a, b) {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line || (a.column ?? 0) - (b.column ?? 0) || (SEVERITY_RANK[a.severity] ?? 9) - (SEVERITY_RANK[b.severity] ?? 9) || cmp(a.rule, b.rule) || cmp(a.message, b.message);
}
function cmp(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------
// Verdicts, totals, difference from the last run

function applyVerdicts(results, verdicts) {
  const used = new Set();
  for (const s of results) {
    for (const f of s.findings) {
      const exact = `${s.id}|${f.path}|${f.rule}|${f.line}`;
      const any = `${s.id}|${f.path}|${f.rule}`;
      const key = verdicts.has(exact) ? exact : verdicts.has(any) ? any : undefined;
      if (key) {
        used.add(key);
        f.verdict = verdicts.get(key).verdict;
        f.why = verdicts.get(key).why;
        f.verdictKey = key;
      }
    }
  }
  const ran = new Set(results.filter((s) => s.status === 'ok').map((s) => s.id));
  return [...verdicts.keys()].filter((k) => ran.has(k.split('|')[0]) && !used.has(k)).sort();
}

function totalsOf(results) {
  const t = { sets: results.length, setsRun: 0, setsMissing: 0, setsFailed: 0, files: 0, configFiles: 0, otherFiles: 0, missingPaths: 0, configFilesWithFindings: 0, filesWithErrors: 0, errors: 0, warnings: 0, infos: 0, trueErrors: 0, falseErrors: 0, unreviewedErrors: 0, otherFindings: [], errorsPer100Files: 0, falseErrorsPer100Files: 0, readAs: {} };
  for (const s of results) {
    if (s.status === 'missing') t.setsMissing++;
    if (s.status === 'failed') t.setsFailed++;
    if (s.status !== 'ok') continue;
    t.setsRun++;
    t.files += s.files;
    t.configFiles += s.configFiles;
    t.otherFiles += s.otherFiles;
    t.missingPaths += s.missingPaths.length;
    const withFindings = new Set();
    const withErrors = new Set();
    for (const f of s.findings) {
      if (f.other) t.otherFindings.push({ set: s.id, ...f });
      else withFindings.add(f.path);
      if (f.severity === 'error') {
        t.errors++;
        withErrors.add(f.path);
        if (f.verdict === 'true') t.trueErrors++;
        else if (f.verdict === 'false') t.falseErrors++;
        else t.unreviewedErrors++;
      } else if (f.severity === 'warning') t.warnings++;
      else t.infos++;
    }
    t.configFilesWithFindings += withFindings.size;
    t.filesWithErrors += withErrors.size;
    // Per format: the files read as it, and the sets they came from.
    for (const [format, n] of Object.entries(s.readAs ?? {})) {
      const e = (t.readAs[format] ??= { files: 0, sets: [] });
      e.files += n;
      e.sets.push(s.id);
    }
  }
  t.errorsPer100Files = t.files ? round2((100 * t.errors) / t.files) : 0;
  t.falseErrorsPer100Files = t.files ? round2((100 * t.falseErrors) / t.files) : 0;
  return t;
}

function round2(x) {
  return Math.round(x * 100) / 100;
}

/** The compact, sorted record of a set: per path with findings, its {rule, severity, line, message}. */
function recordOf(s) {
  const findings = {};
  for (const f of s.findings) (findings[f.path] ??= []).push({ rule: f.rule, severity: f.severity, line: f.line, message: f.message });
  const sorted = {};
  for (const p of Object.keys(findings).sort()) sorted[p] = findings[p].sort((a, b) => a.line - b.line || cmp(a.rule, b.rule) || cmp(a.severity, b.severity) || cmp(a.message, b.message));
  const rec = { repo: s.repo, commit: s.commit };
  if (s.target) rec.target = Object.fromEntries(Object.entries(s.target).sort());
  rec.files = s.files;
  if (s.missingPaths.length) rec.missing = s.missingPaths.map((m) => m.path).sort();
  rec.findings = sorted;
  return rec;
}

function flatten(rec) {
  const out = [];
  for (const [path, list] of Object.entries(rec?.findings ?? {})) for (const f of list) out.push({ path, ...f });
  return out;
}

function diffOf(results, recorded, manifestIds, selected) {
  const d = { baseline: recorded !== undefined, commitChanged: [], targetChanged: [], newSets: [], removedSets: [], notCompared: [], added: [], gone: [], moved: [] };
  const lastRun = recorded ?? { sets: {} }; // no record: everything is new
  for (const s of results) {
    const before = lastRun.sets[s.id];
    if (s.status !== 'ok') {
      d.notCompared.push({ set: s.id, status: s.status });
      continue;
    }
    if (!before) d.newSets.push(s.id);
    else {
      if (before.commit !== s.commit) d.commitChanged.push({ set: s.id, from: before.commit, to: s.commit });
      const was = JSON.stringify(before.target ?? {}), now = JSON.stringify(Object.fromEntries(Object.entries(s.target ?? {}).sort()));
      if (was !== now) d.targetChanged.push({ set: s.id, from: before.target ?? {}, to: s.target ?? {} });
    }
    const now = flatten(recordOf(s));
    const old = flatten(before);
    const key = (f, line = true) => `${f.path}\0${f.rule}\0${f.severity}\0${line ? f.line : ''}\0${f.message}`;
    const pool = new Map();
    for (const f of old) (pool.get(key(f)) ?? pool.set(key(f), []).get(key(f))).push(f);
    const unmatched = [];
    for (const f of now) {
      const list = pool.get(key(f));
      if (list?.length) list.pop();
      else unmatched.push(f);
    }
    // What is left of the old run: the same finding on another line has moved, not appeared.
    const rest = new Map();
    for (const list of pool.values()) for (const f of list) (rest.get(key(f, false)) ?? rest.set(key(f, false), []).get(key(f, false))).push(f);
    for (const f of unmatched) {
      const list = rest.get(key(f, false));
      if (list?.length) d.moved.push({ set: s.id, ...f, from: list.shift().line });
      else d.added.push({ set: s.id, ...f });
    }
    for (const list of rest.values()) for (const f of list) d.gone.push({ set: s.id, ...f });
  }
  if (selected.length === 0) for (const id of Object.keys(lastRun.sets).sort()) if (!manifestIds.has(id)) d.removedSets.push(id);
  for (const k of ['added', 'gone', 'moved']) d[k].sort((a, b) => cmp(a.set, b.set) || compareFindings(a, b));
  return d;
}

function writeRecord(file, results, lastRun, manifestIds) {
  const sets = {};
  for (const [id, rec] of Object.entries(lastRun?.sets ?? {})) if (manifestIds.has(id)) sets[id] = rec; // sets not run this time stay as they were
  for (const s of results) if (s.status === 'ok') sets[s.id] = recordOf(s);
  const out = { comment: 'Written by `node scripts/ecosystem.mjs --record`: the findings of the last recorded ecosystem run, per set and path (lines 1-based). Do not edit by hand.', sets: {} };
  for (const id of Object.keys(sets).sort()) out.sets[id] = sets[id];
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, stableJson(out));
}

/** JSON with one finding per line, so that a change of findings is a change of lines in a diff. */
function stableJson(out) {
  const j = JSON.stringify;
  const lines = ['{', `  "comment": ${j(out.comment)},`, '  "sets": {'];
  const ids = Object.keys(out.sets);
  ids.forEach((id, i) => {
    const { findings, ...head } = out.sets[id];
    lines.push(`    ${j(id)}: {`);
    for (const [k, v] of Object.entries(head)) lines.push(`      ${j(k)}: ${j(v)},`);
    const paths = Object.keys(findings);
    lines.push(paths.length ? '      "findings": {' : '      "findings": {}');
    paths.forEach((p, pi) => {
      lines.push(`        ${j(p)}: [`);
      findings[p].forEach((f, fi) => lines.push(`          ${j(f)}${fi < findings[p].length - 1 ? ',' : ''}`));
      lines.push(`        ]${pi < paths.length - 1 ? ',' : ''}`);
    });
    if (paths.length) lines.push('      }');
    lines.push(`    }${i < ids.length - 1 ? ',' : ''}`);
  });
  lines.push('  }', '}');
  return lines.join('\n') + '\n';
}

// ---------------------------------------------------------------------------------------------
// Report

/** A path as the report shows it: relative to the repository when inside it. */
function shown(p) {
  const rel = relative(ROOT, p);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : p;
}

function verdictMark(f) {
  if (f.verdict === 'true') return 'true';
  if (f.verdict === 'false') return 'FALSE';
  return f.severity === 'error' ? 'unreviewed' : undefined;
}

function findingLine(f) {
  const mark = verdictMark(f);
  return `${sanitize(f.path)}:${f.line}:${f.column} ${f.severity} ${f.rule} ${f.message}${mark ? `  [${mark}]` : ''}`;
}

function textReport(r, opts) {
  const out = [];
  const p = (s = '') => out.push(s);
  p(`shardwise ecosystem check: ${r.totals.sets} sets, manifest ${shown(r.manifest)}, checkouts ${r.checkouts}`);
  p(`CLI: ${shown(r.cli.file)} built ${r.cli.built}, sha256 ${r.cli.sha256.slice(0, 12)}`);
  for (const s of r.sets) {
    p();
    const head = `== ${s.id}  ${s.repo}@${s.commit.slice(0, 12)}${s.target ? ` (${Object.entries(s.target).map(([t, v]) => `${t} ${v}`).join(', ')})` : ''}`;
    if (s.status !== 'ok') {
      p(`${head}: ${s.status.toUpperCase()}: ${s.reason}`);
      continue;
    }
    const errors = s.findings.filter((f) => f.severity === 'error');
    const warnings = s.findings.filter((f) => f.severity === 'warning');
    const infos = s.findings.length - errors.length - warnings.length;
    p(`${head}: ${s.files} files (${s.configFiles} config, ${s.otherFiles} other), ${new Set(errors.map((f) => f.path)).size} with errors; ${errors.length} errors, ${warnings.length} warnings, ${infos} infos`);
    if (s.missingPaths.length) p(`  ${s.missingPaths.length} listed paths not checked: ${s.missingPaths.map((m) => `${sanitize(m.path)} (${m.why})`).join(', ')}`);
    for (const line of s.stderr) p(`  cli: ${line}`);
    if (s.tmp) p(`  files kept in ${s.tmp}`);
    let last;
    for (const f of s.findings) {
      if (f.severity !== 'error' && f.severity !== 'warning' && !opts.verbose) continue;
      if (f.path !== last && f.other) p(`  (other file) ${sanitize(f.path)}`);
      last = f.path;
      p(`  ${findingLine(f)}`);
      if (f.why) p(`      ${f.verdict === 'false' ? 'false' : 'true'}: ${sanitize(f.why)}`);
    }
  }
  const t = r.totals;
  p();
  p('== totals');
  p(`  sets: ${t.setsRun} run, ${t.setsMissing} missing, ${t.setsFailed} failed`);
  p(`  files: ${t.files} (${t.configFiles} config, ${t.otherFiles} other; ${t.missingPaths} listed paths not at their commit)`);
  p(`  config files with findings: ${t.configFilesWithFindings}; files with errors: ${t.filesWithErrors}`);
  for (const [format, e] of Object.entries(t.readAs).sort((a, b) => b[1].files - a[1].files)) p(`  read as ${format}: ${e.files} files from ${e.sets.length} sets (${e.sets.join(', ')})`);
  p(`  errors: ${t.errors} (${t.errorsPer100Files} per 100 files): ${t.trueErrors} true, ${t.falseErrors} FALSE (${t.falseErrorsPer100Files} per 100 files), ${t.unreviewedErrors} unreviewed`);
  p(`  warnings: ${t.warnings}; infos and hints: ${t.infos}${opts.verbose ? '' : ' (listed with --verbose)'}`);
  p(`  findings on "other" files: ${t.otherFindings.length}${t.otherFindings.length ? ' (there must be none)' : ''}`);
  for (const f of t.otherFindings) p(`    ${f.set} ${findingLine(f)}`);
  if (r.staleVerdicts.length) {
    p(`  verdicts that match no finding: ${r.staleVerdicts.length}`);
    for (const k of r.staleVerdicts) p(`    ${sanitize(k)}`);
  }
  p();
  const d = r.diff;
  p(`== difference from the last run (${shown(r.lastRunFile)})`);
  if (!d.baseline) p(`  no last run recorded: all ${d.added.length} findings are new (record them with --record)`);
  for (const c of d.commitChanged) p(`  ${c.set}: commit ${c.from.slice(0, 12)} -> ${c.to.slice(0, 12)}`);
  const versions = (t) => Object.entries(t).map(([k, v]) => `${k} ${v}`).join(', ') || 'newest';
  for (const c of d.targetChanged) p(`  ${c.set}: target ${versions(c.from)} -> ${versions(c.to)}`);
  if (d.baseline) for (const id of d.newSets) p(`  ${id}: not in the last run`);
  for (const id of d.removedSets) p(`  ${id}: in the last run, no longer in the manifest`);
  for (const n of d.notCompared) p(`  ${n.set}: not compared (${n.status})`);
  if (d.baseline) for (const f of d.added) p(`  + ${f.set} ${sanitize(f.path)}:${f.line} ${f.severity} ${f.rule} ${f.message}`);
  for (const f of d.gone) p(`  - ${f.set} ${sanitize(f.path)}:${f.line} ${f.severity} ${f.rule} ${f.message}`);
  for (const f of d.moved) p(`  ~ ${f.set} ${sanitize(f.path)}:${f.from} -> ${f.line} ${f.severity} ${f.rule}`);
  if (d.baseline) p(d.added.length || d.gone.length ? `  ${d.added.length} new, ${d.gone.length} gone, ${d.moved.length} moved` : `  no difference${d.moved.length ? ` (${d.moved.length} moved)` : ''}`);
  if (r.recorded) p(`  recorded: ${shown(r.lastRunFile)} rewritten`);
  if (opts.check) {
    p();
    p(r.check.failed ? `== check FAILED: ${r.check.reasons.join('; ')}` : '== check passed');
  }
  p(`\n(${(r.durationMs / 1000).toFixed(1)} s)`);
  return out.join('\n') + '\n';
}

// ---------------------------------------------------------------------------------------------

function main() {
  const started = Date.now();
  const opts = parseArgs(process.argv.slice(2));
  if (opts.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const log = (line) => process.stderr.write(`ecosystem: ${line}\n`);
  const manifest = loadManifest(opts.manifest);
  const verdicts = loadVerdicts(opts.verdicts);
  const lastRun = loadLastRun(opts.lastRun);
  const manifestIds = new Set(manifest.sets.map((s) => s.id));
  for (const id of opts.sets) if (!manifestIds.has(id)) throw new UsageError(`--set ${id}: no such set in ${opts.manifest} (${[...manifestIds].join(', ')})`);
  const sets = opts.sets.length ? manifest.sets.filter((s) => opts.sets.includes(s.id)) : manifest.sets;
  requireGit();
  ensureBuilt(opts.build, log);
  // A copy of the bundle (it is self-contained), so that a rebuild during the run cannot mix two CLIs.
  const cliDir = mkdtempSync(join(tmpdir(), 'shardwise-ecosystem-cli-'));
  opts.cliPath = join(cliDir, 'main.js');
  copyFileSync(CLI, opts.cliPath);
  const cli = { file: CLI, built: new Date(statSync(CLI).mtimeMs).toISOString(), sha256: createHash('sha256').update(readFileSync(opts.cliPath)).digest('hex') };
  const cache = new Map();
  let results;
  try {
    results = sets.map((s) => runSet(s, opts, cache, log));
  } finally {
    rmSync(cliDir, { recursive: true, force: true });
  }
  const staleVerdicts = applyVerdicts(results, verdicts);
  const totals = totalsOf(results);
  const diff = diffOf(results, lastRun, manifestIds, opts.sets);
  const reasons = [];
  if (diff.added.length) reasons.push(`${diff.added.length} new findings since the last run`);
  if (totals.unreviewedErrors) reasons.push(`${totals.unreviewedErrors} unreviewed errors`);
  if (totals.falseErrorsPer100Files > FALSE_ERRORS_PER_100_LIMIT) reasons.push(`${totals.falseErrorsPer100Files} false errors per 100 files (limit ${FALSE_ERRORS_PER_100_LIMIT})`);
  if (totals.otherFindings.length) reasons.push(`${totals.otherFindings.length} findings on "other" files`);
  if (totals.setsFailed) reasons.push(`${totals.setsFailed} sets failed`);
  if (opts.record) writeRecord(opts.lastRun, results, lastRun, manifestIds);
  const result = {
    manifest: opts.manifest,
    checkouts: opts.checkouts,
    lastRunFile: opts.lastRun,
    cli,
    durationMs: Date.now() - started,
    sets: results.map(({ tmp, ...s }) => (opts.keep ? { ...s, tmp } : s)),
    totals,
    staleVerdicts,
    diff,
    recorded: opts.record,
    check: { requested: opts.check, failed: reasons.length > 0, reasons },
  };
  process.stdout.write(opts.json ? JSON.stringify(result, null, 2) + '\n' : textReport(result, opts));
  return opts.check && reasons.length ? 1 : 0;
}

try {
  process.exitCode = main();
} catch (err) {
  if (err instanceof UsageError) {
    process.stderr.write(`ecosystem: ${err.message}\n\n${USAGE}`);
    process.exitCode = 2;
  } else {
    process.stderr.write(`ecosystem: ${err.stack ?? err}\n`);
    process.exitCode = 2;
  }
}
