/**
 * The npm package as a user gets it: `npm pack` (its `prepack` builds the bundles), installed into a
 * temporary prefix with no registry at hand, then both commands run from there and through `npx`.
 * Run on its own by `npm test` (its build rewrites dist/, which the other unit tests read).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { lspOverStdio } from './lsp-stdio';

const root = join(__dirname, '..', '..');
const tmp = mkdtempSync(join(tmpdir(), 'shardwise-pack-'));
const prefix = join(tmp, 'prefix');
const version: string = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
const example = join(root, 'examples', 'accelerate', 'typo-and-traps.yaml');
let tarball = '';

after(() => rmSync(tmp, { recursive: true, force: true }));

/** A nested npm gets none of the outer `npm test`'s settings, and its own cache: nothing is fetched. */
async function npmEnv(): Promise<NodeJS.ProcessEnv> {
  const { npmFreeEnv } = (await import(join(root, 'scripts', 'npm-env.mjs'))) as { npmFreeEnv: () => NodeJS.ProcessEnv };
  return { ...npmFreeEnv(), npm_config_cache: join(tmp, 'cache'), npm_config_update_notifier: 'false' };
}

test('npm pack builds the two bundles and packs them alone: under 2 MB, no dependencies', async () => {
  const r = spawnSync('npm', ['pack', '--json', '--pack-destination', tmp], { cwd: root, env: await npmEnv(), encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  // The build's own lines come first; npm's JSON report is the rest.
  const [info] = JSON.parse(r.stdout.slice(r.stdout.search(/^\[/m))) as { filename: string; files: { path: string }[] }[];
  tarball = join(tmp, info.filename);
  assert.deepEqual(info.files.map((f) => f.path).sort(), ['LICENSE', 'README.md', 'dist/cli/main.js', 'dist/server/main.js', 'docs/rules.md', 'package.json']);
  const size = statSync(tarball).size;
  assert.ok(size < 2 * 1024 * 1024, `the tarball is ${(size / 1048576).toFixed(2)} MB`);
  const manifest = JSON.parse(spawnSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }).stdout);
  assert.equal(manifest.dependencies, undefined, 'the bundles need no package at run time');
  assert.equal(manifest.private, undefined, 'the package can be published');
});

test('installed from the tarball without a registry, `shardwise check` reports and exits 1', async () => {
  assert.ok(tarball, 'packed by the test before');
  const install = spawnSync('npm', ['install', '--global', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', tarball], { env: await npmEnv(), encoding: 'utf8' });
  assert.equal(install.status, 0, install.stderr);
  const bin = join(prefix, 'bin');
  assert.equal(spawnSync(join(bin, 'shardwise'), ['--version'], { encoding: 'utf8' }).stdout.trim(), `shardwise ${version}`);
  const check = spawnSync(join(bin, 'shardwise'), ['check', example], { encoding: 'utf8' });
  assert.equal(check.status, 1, check.stderr);
  assert.match(check.stdout, /typo-and-traps\.yaml:\d+:\d+: error \[yaml-boolean-trap\]/);
  assert.match(check.stdout, /warning \[unknown-key\] .*`fsdp_versoin`/);
});

test('installed, `shardwise-language-server --stdio` answers initialize and exits cleanly', async () => {
  const lsp = lspOverStdio(spawn(join(prefix, 'bin', 'shardwise-language-server'), ['--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] }));
  const reply = await lsp.initialize();
  assert.equal(reply.id, 1);
  assert.equal(reply.result.capabilities.hoverProvider, true);
  assert.equal(await lsp.shutdownAndExit(), 0);
});

test('npx runs the packed tarball without a registry', async () => {
  mkdirSync(join(tmp, 'elsewhere'), { recursive: true });
  const r = spawnSync('npx', ['--yes', '--offline', '--package', tarball, '--', 'shardwise', 'check', example], { cwd: join(tmp, 'elsewhere'), env: await npmEnv(), encoding: 'utf8' });
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stdout, /error \[yaml-boolean-trap\]/);
});
