/**
 * scripts/ecosystem.mjs, offline: a temporary upstream repository, a temporary manifest pinning it, and
 * the built CLI (run `npm run build` first, as for cli.test.ts).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';

const ROOT = join(__dirname, '../..');
const SCRIPT = join(ROOT, 'scripts/ecosystem.mjs');
const hasGit = spawnSync('git', ['--version']).status === 0;
const skip = hasGit ? false : 'git is not installed';
const tmp = mkdtempSync(join(tmpdir(), 'shardwise-ecosystem-test-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

interface Finding {
  path: string;
  other: boolean;
  rule: string;
  severity: string;
  line: number;
  message: string;
  verdict?: string;
}
interface SetResult {
  id: string;
  commit: string;
  status: string;
  reason?: string;
  files: number;
  missingPaths: { path: string; why: string }[];
  findings: Finding[];
}
interface Result {
  sets: SetResult[];
  totals: { files: number; errors: number; unreviewedErrors: number; falseErrors: number; trueErrors: number; otherFindings: Finding[]; falseErrorsPer100Files: number };
  diff: { baseline: boolean; added: (Finding & { set: string })[]; gone: Finding[]; moved: Finding[]; commitChanged: { set: string; from: string; to: string }[] };
  check: { failed: boolean; reasons: string[] };
}

// Only what git needs to commit, nothing from the user's or the machine's configuration.
const gitEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };
function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', ['-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8', env: gitEnv });
  assert.equal(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

function write(dir: string, files: Record<string, string>): void {
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), text);
  }
}

const ACCELERATE = 'compute_environment: LOCAL_MACHINE\ndistributed_type: MULTI_GPU\nnum_processes: 2\nmixed_precision: no\n# shardwise: accelerate=1.14.0\n';
const WORKFLOW = 'name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: accelerate launch --num_processes 2 train.py\n';
const DEEPSPEED = '{\n  "train_batch_size": 16,\n  "train_micro_batch_size_per_gpu": 2,\n  "gradient_accumulation_steps": 1,\n  "zero_optimisation": { "stage": 2 }\n}\n';

let upstream = '';
let checkouts = '';
let commit1 = '';
let commit2 = '';
function setup(): void {
  if (upstream) return;
  // The checkouts folder holds the repository as a clone, DIR/owner+name, as the script looks for it.
  checkouts = join(tmp, 'checkouts');
  upstream = join(checkouts, 'acme+configs');
  mkdirSync(upstream, { recursive: true });
  git(upstream, 'init', '-q');
  write(upstream, { 'configs/accelerate.yaml': ACCELERATE, '.github/workflows/ci.yml': WORKFLOW, 'ds/ds_config.json': DEEPSPEED, 'README.md': '# not listed\n' });
  git(upstream, 'add', '-A');
  git(upstream, 'commit', '-q', '-m', 'one');
  commit1 = git(upstream, 'rev-parse', 'HEAD');
  // A second commit with one more mistake, for the difference: an FSDP key misspelt.
  write(upstream, { 'configs/fsdp.yaml': 'compute_environment: LOCAL_MACHINE\ndistributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n  fsdp_versoin: 2\n' });
  git(upstream, 'add', '-A');
  git(upstream, 'commit', '-q', '-m', 'two');
  commit2 = git(upstream, 'rev-parse', 'HEAD');
}

const PATHS = ['configs/accelerate.yaml', 'configs/fsdp.yaml', 'ds/ds_config.json'];
function manifest(name: string, sets: object[]): string {
  const file = join(tmp, `${name}.manifest.json`);
  writeFileSync(file, JSON.stringify({ sets }));
  return file;
}
function acme(commit: string, extra: object = {}): object {
  return { id: 'acme-configs@main', repo: 'acme/configs', commit, paths: PATHS, other: ['.github/workflows/ci.yml'], ...extra };
}

function runScript(args: string[]): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [SCRIPT, '--no-build', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}
function files(name: string) {
  return { lastRun: join(tmp, `${name}.last-run.json`), verdicts: join(tmp, `${name}.verdicts.json`) };
}
function eco(m: string, name: string, ...more: string[]): { code: number; out: string; err: string } {
  const f = files(name);
  return runScript(['--manifest', m, '--checkouts', checkouts, '--last-run', f.lastRun, '--verdicts', f.verdicts, ...more]);
}
function ecoJson(m: string, name: string, ...more: string[]): { code: number; result: Result; err: string } {
  const r = eco(m, name, '--json', ...more);
  try {
    return { code: r.code, result: JSON.parse(r.out) as Result, err: r.err };
  } catch {
    throw new Error(`not JSON (exit ${r.code}): ${r.out}\n${r.err}`);
  }
}

test('findings are reported per file, the "other" file has none, a path missing at the commit is reported', { skip }, () => {
  setup();
  const m = manifest('first', [acme(commit1)]);
  const { code, result } = ecoJson(m, 'first');
  assert.equal(code, 0, 'without --check the exit status is 0');
  const [s] = result.sets;
  assert.equal(s.status, 'ok');
  assert.equal(s.files, 3);
  assert.deepEqual(s.missingPaths, [{ path: 'configs/fsdp.yaml', why: 'not at this commit' }]);
  const errors = s.findings.filter((f) => f.severity === 'error').map((f) => [f.path, f.rule, f.line]);
  assert.deepEqual(errors, [['configs/accelerate.yaml', 'yaml-boolean-trap', 4]]);
  assert.ok(s.findings.some((f) => f.path === 'ds/ds_config.json' && f.rule === 'unknown-key' && /zero_optimization/.test(f.message)), JSON.stringify(s.findings));
  assert.deepEqual(s.findings.filter((f) => f.path.startsWith('.github/')), []);
  assert.equal(result.totals.otherFindings.length, 0);
  assert.ok(!s.findings.some((f) => f.message.includes(tmpdir())), 'messages do not name the temporary folder');

  const text = eco(m, 'first');
  assert.match(text.out, /configs\/accelerate\.yaml:4:\d+ error yaml-boolean-trap .*\[unreviewed\]/);
  assert.match(text.out, /ds\/ds_config\.json:5:\d+ warning unknown-key/);
  assert.match(text.out, /configs\/fsdp\.yaml \(not at this commit\)/);
  assert.match(text.out, /findings on "other" files: 0/);
  assert.match(text.out, /no last run recorded/);
});

test('--record, then a second run shows no difference; a new commit with a new mistake shows it as new', { skip }, () => {
  setup();
  const f = files('record');
  const m1 = manifest('record1', [acme(commit1)]);
  assert.equal(eco(m1, 'record', '--record').code, 0);
  const recorded = JSON.parse(readFileSync(f.lastRun, 'utf8'));
  assert.equal(recorded.sets['acme-configs@main'].commit, commit1);
  assert.deepEqual(Object.keys(recorded.sets['acme-configs@main'].findings), ['configs/accelerate.yaml', 'ds/ds_config.json']);
  assert.deepEqual(
    recorded.sets['acme-configs@main'].findings['configs/accelerate.yaml'].filter((x: Finding) => x.severity === 'error').map((x: Finding) => Object.keys(x)),
    [['rule', 'severity', 'line', 'message']],
  );
  const before = readFileSync(f.lastRun, 'utf8');

  const again = ecoJson(m1, 'record');
  assert.equal(again.result.diff.baseline, true);
  assert.deepEqual([again.result.diff.added, again.result.diff.gone, again.result.diff.commitChanged], [[], [], []]);
  assert.match(eco(m1, 'record').out, /no difference/);
  assert.equal(eco(m1, 'record', '--record').code, 0);
  assert.equal(readFileSync(f.lastRun, 'utf8'), before, 'recording the same run again writes the same bytes');

  const m2 = manifest('record2', [acme(commit2)]);
  const next = ecoJson(m2, 'record');
  assert.deepEqual(next.result.diff.commitChanged, [{ set: 'acme-configs@main', from: commit1, to: commit2 }]);
  assert.deepEqual(next.result.diff.added.map((x) => [x.set, x.path, x.rule, x.line]), [['acme-configs@main', 'configs/fsdp.yaml', 'unknown-key', 5]]);
  assert.deepEqual(next.result.diff.gone, []);
  const text = eco(m2, 'record');
  assert.match(text.out, /acme-configs@main: commit [0-9a-f]{12} -> [0-9a-f]{12}/);
  assert.match(text.out, /\+ acme-configs@main configs\/fsdp\.yaml:5 warning unknown-key .*fsdp_version/);
  assert.match(text.out, /1 new, 0 gone/);
  const check = eco(m2, 'record', '--check');
  assert.equal(check.code, 1);
  assert.match(check.out, /check FAILED: 1 new findings since the last run/);
});

test('verdicts mark errors true or FALSE; --check passes only when reviewed, unchanged and clean', { skip }, () => {
  setup();
  const f = files('verdicts');
  const m = manifest('verdicts', [acme(commit1)]);
  // No record yet: every finding is new, and the error is unreviewed.
  const first = ecoJson(m, 'verdicts', '--check');
  assert.equal(first.code, 1);
  assert.ok(first.result.check.reasons.some((r) => /new findings/.test(r)));
  assert.ok(first.result.check.reasons.some((r) => /1 unreviewed errors/.test(r)));
  assert.equal(eco(m, 'verdicts', '--record').code, 0);
  assert.equal(eco(m, 'verdicts', '--check').code, 1, 'recorded, but the error is still unreviewed');

  writeFileSync(f.verdicts, JSON.stringify({ 'acme-configs@main|configs/accelerate.yaml|yaml-boolean-trap|4': { verdict: 'true', why: 'PyYAML reads an unquoted no as False.' } }));
  const reviewed = ecoJson(m, 'verdicts', '--check');
  assert.equal(reviewed.code, 0, reviewed.result.check.reasons.join('; '));
  assert.equal(reviewed.result.totals.trueErrors, 1);
  assert.equal(reviewed.result.sets[0].findings.find((x) => x.severity === 'error')?.verdict, 'true');
  const text = eco(m, 'verdicts', '--check');
  assert.equal(text.code, 0);
  assert.match(text.out, /yaml-boolean-trap .*\[true\]/);
  assert.match(text.out, /check passed/);

  // A verdict for any line of the rule in the file, saying the error is false: 1 false error in 3 files.
  writeFileSync(f.verdicts, JSON.stringify({ 'acme-configs@main|configs/accelerate.yaml|yaml-boolean-trap': { verdict: 'false', why: 'Pretend this one is wrong.' } }));
  const falsed = ecoJson(m, 'verdicts', '--check');
  assert.equal(falsed.code, 1);
  assert.equal(falsed.result.totals.falseErrors, 1);
  assert.equal(falsed.result.totals.falseErrorsPer100Files, 33.33);
  const ftext = eco(m, 'verdicts');
  assert.equal(ftext.code, 0, 'without --check the exit status stays 0');
  assert.match(ftext.out, /yaml-boolean-trap .*\[FALSE\]/);
  assert.match(ftext.out, /1 FALSE \(33\.33 per 100 files\)/);

  // A verdict that matches nothing is listed; a malformed verdicts file is a usage error.
  writeFileSync(f.verdicts, JSON.stringify({ 'acme-configs@main|configs/accelerate.yaml|yaml-boolean-trap|4': { verdict: 'true', why: 'Real.' }, 'acme-configs@main|nope.yaml|unknown-key|1': { verdict: 'true', why: 'Gone.' } }));
  assert.match(eco(m, 'verdicts').out, /verdicts that match no finding: 1\n\s+acme-configs@main\|nope\.yaml\|unknown-key\|1/);
  writeFileSync(f.verdicts, JSON.stringify({ 'acme-configs@main|x': { verdict: 'maybe', why: '' } }));
  assert.equal(eco(m, 'verdicts').code, 2);
});

test('a finding on an "other" file fails --check and is listed', { skip }, () => {
  setup();
  const m = manifest('other', [{ id: 'acme-configs@main', repo: 'acme/configs', commit: commit1, paths: ['ds/ds_config.json'], other: ['configs/accelerate.yaml', '.github/workflows/ci.yml'] }]);
  assert.equal(eco(m, 'other', '--record').code, 0);
  const r = ecoJson(m, 'other', '--check');
  assert.equal(r.code, 1);
  assert.deepEqual([...new Set(r.result.totals.otherFindings.map((x) => x.path))], ['configs/accelerate.yaml']);
  assert.ok(r.result.check.reasons.some((x) => /findings on "other" files/.test(x)));
  assert.match(eco(m, 'other').out, /findings on "other" files: \d+ \(there must be none\)\n\s+acme-configs@main configs\/accelerate\.yaml:4/);
});

test('a repository that cannot be found or cloned is "missing"; the other sets still run; --set selects', { skip }, () => {
  setup();
  const ghost = { id: 'ghost@main', repo: 'nobody/ghost', commit: 'a'.repeat(40), url: join(tmp, 'no-such-repo'), paths: ['x.yaml'] };
  const m = manifest('missing', [ghost, acme(commit1)]);
  const r = ecoJson(m, 'missing');
  assert.equal(r.code, 0);
  assert.deepEqual(r.result.sets.map((s) => [s.id, s.status]), [['ghost@main', 'missing'], ['acme-configs@main', 'ok']]);
  assert.match(r.result.sets[0].reason ?? '', /no checkout of nobody\/ghost .* git clone .* failed/);
  assert.ok(!existsSync(join(checkouts, 'nobody+ghost')), 'a failed clone leaves nothing behind');
  const only = ecoJson(m, 'missing', '--set', 'acme-configs@main');
  assert.deepEqual(only.result.sets.map((s) => s.id), ['acme-configs@main']);
  assert.equal(eco(m, 'missing', '--set', 'nope').code, 2);
});

test('a missing checkout is cloned (bare, blobs on demand) and a missing commit is fetched', { skip }, () => {
  setup();
  // The upstream served over file://, as a server allowing partial clones and fetching by commit.
  git(upstream, 'config', 'uploadpack.allowFilter', 'true');
  git(upstream, 'config', 'uploadpack.allowAnySHA1InWant', 'true');
  const source = join(tmp, 'source');
  mkdirSync(source);
  git(tmp, 'clone', '-q', '--bare', upstream, join(source, 'configs.git'));
  git(join(source, 'configs.git'), 'config', 'uploadpack.allowFilter', 'true');
  git(join(source, 'configs.git'), 'config', 'uploadpack.allowAnySHA1InWant', 'true');
  const srcRepo = join(source, 'configs.git');
  git(srcRepo, 'update-ref', 'refs/heads/main', commit1); // the clone gets commit 1 only
  const fresh = join(tmp, 'fresh-checkouts');
  const url = `file://${srcRepo}`;
  const f = files('clone');
  const args = (m: string) => ['--manifest', m, '--checkouts', fresh, '--last-run', f.lastRun, '--verdicts', f.verdicts, '--json'];
  const r1 = runScript(args(manifest('clone1', [acme(commit1, { id: 'cloned@main', url })])));
  assert.equal(r1.code, 0, r1.err);
  const s1 = (JSON.parse(r1.out) as Result).sets[0];
  assert.equal(s1.status, 'ok', s1.reason);
  assert.ok(existsSync(join(fresh, 'acme+configs', 'repo', 'HEAD')), 'cloned to DIR/owner+name/repo');
  assert.ok(s1.findings.some((x) => x.rule === 'yaml-boolean-trap'));
  git(srcRepo, 'update-ref', 'refs/heads/main', commit2); // now the pinned commit is not in the clone
  const r2 = runScript(args(manifest('clone2', [acme(commit2, { id: 'cloned@main', url })])));
  const s2 = (JSON.parse(r2.out) as Result).sets[0];
  assert.equal(s2.status, 'ok', s2.reason);
  assert.ok(s2.findings.some((x) => x.path === 'configs/fsdp.yaml' && x.rule === 'unknown-key'));
  assert.match(r2.err, /git fetch origin/);
});

test('a set\'s "target" reaches the CLI as --target, is shown, recorded and compared', { skip }, () => {
  setup();
  const f = files('target');
  const m1 = manifest('target1', [acme(commit1, { target: { accelerate: '1.10.0' } })]);
  const r = eco(m1, 'target', '--record');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /== acme-configs@main {2}acme\/configs@[0-9a-f]{12} \(accelerate 1\.10\.0\)/);
  assert.deepEqual(JSON.parse(readFileSync(f.lastRun, 'utf8')).sets['acme-configs@main'].target, { accelerate: '1.10.0' });
  const m2 = manifest('target2', [acme(commit1)]);
  assert.match(eco(m2, 'target').out, /acme-configs@main: target accelerate 1\.10\.0 -> newest/);
  const bad = manifest('target3', [acme(commit1, { target: { accelerate: 'latest' } })]);
  assert.equal(eco(bad, 'target').code, 2);
});

test('usage errors exit 2', { skip }, () => {
  setup();
  const m = manifest('usage', [acme(commit1)]);
  assert.equal(runScript(['--bogus']).code, 2);
  assert.equal(runScript(['--set']).code, 2);
  assert.equal(runScript(['stray']).code, 2);
  assert.equal(runScript(['--manifest', join(tmp, 'no-such.json')]).code, 2);
  const bad = join(tmp, 'bad.manifest.json');
  writeFileSync(bad, JSON.stringify({ sets: [{ id: 'x', repo: 'a/b', commit: 'abc', paths: ['../escape'] }] }));
  const r = runScript(['--manifest', bad]);
  assert.equal(r.code, 2);
  assert.match(r.err, /commit/);
  assert.equal(runScript(['--help']).code, 0);
  assert.equal(eco(m, 'usage', '--json=yes').code, 2);
});
