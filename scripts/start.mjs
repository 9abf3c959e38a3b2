#!/usr/bin/env node
// `npm start`: the demo. Builds and packages shardwise.vsix, provisions code-server (VS Code in the
// browser; Node 24, cached outside the clone by test/e2e/setup.mjs), installs the .vsix into a fresh
// profile and opens <repo>/examples itself (not a copy: edits are real) on 127.0.0.1. Runs until Ctrl-C.
//
//   npm start                      port $PORT, else 8080, else any free port
//   npm start -- --no-package      reuse the existing shardwise.vsix
//   npm start -- --folder <dir>    open another folder
//   npm start -- --vsix <file>     install this .vsix instead (implies --no-package)
//   npm start -- --quiet           do not echo code-server's own output

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installExtension, makeTempRoot, portIsFree, freePort, setSignalExitCode, startCodeServer, workbenchUrl, writeSettings } from '../test/e2e/harness.mjs';
import { provisioned, setup } from '../test/e2e/setup.mjs';
import { ensureDependencies, ensureOsPackages } from './bootstrap.mjs';

const repoRoot = resolve(fileURLToPath(import.meta.url), '..', '..');
ensureDependencies(repoRoot);
const DEFAULT_PORT = 8080;

function usage(message) {
  if (message) console.error(`start: ${message}`);
  console.error('usage: npm start [-- --no-package] [--vsix <file>] [--folder <dir>] [--quiet]   (env PORT picks the port)');
  process.exit(2);
}

const args = process.argv.slice(2);
let doPackage = true;
let quiet = false;
let folder = join(repoRoot, 'examples');
let VSIX = join(repoRoot, 'shardwise.vsix');
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--no-package') doPackage = false;
  else if (a === '--quiet') quiet = true;
  else if (a === '--vsix') {
    VSIX = resolve(args[++i] ?? usage('--vsix needs a file'));
    doPackage = false;
  } else if (a === '--folder') folder = resolve(args[++i] ?? usage('--folder needs a directory'));
  else if (a === '--help' || a === '-h') usage();
  else usage(`unknown argument ${a}`);
}

async function choosePort() {
  const wanted = process.env.PORT ? Number(process.env.PORT) : DEFAULT_PORT;
  if (!Number.isInteger(wanted) || wanted < 0 || wanted > 65535) usage(`PORT=${process.env.PORT} is not a port number`);
  if (wanted !== 0 && (await portIsFree(wanted))) return wanted;
  const port = await freePort();
  if (wanted !== 0) console.log(`start: port ${wanted} is in use; using ${port}`);
  return port;
}

async function main() {
  // Before anything slow: code-server's install compiles native modules against these.
  if (!provisioned() && !ensureOsPackages(repoRoot, 'start')) {
    console.error("start: code-server's install needs the OS packages above; install them, then run npm start again");
    process.exit(1);
  }
  if (doPackage) {
    console.log('start: npm run package');
    const res = spawnSync('npm', ['run', 'package'], { cwd: repoRoot, stdio: 'inherit' });
    if (res.status !== 0) {
      console.error(`start: \`npm run package\` failed (${res.error?.message ?? `exit ${res.status}`})`);
      process.exit(1);
    }
  }
  if (!existsSync(VSIX)) {
    console.error(`start: ${VSIX} is missing: run \`npm run package\``);
    process.exit(1);
  }
  if (!existsSync(folder)) {
    console.error(`start: ${folder} does not exist`);
    process.exit(1);
  }

  if (!provisioned()) console.log('start: installing Node 24 and code-server from the npm registry (their native modules compile): the longest step of a first `npm start`, which takes about 10 minutes in all; later ones start in seconds');
  const paths = await setup();

  setSignalExitCode(0); // Ctrl-C is how this ends: a clean exit, not an npm error
  const root = makeTempRoot('start');
  writeSettings(root);
  const ext = installExtension(paths, root, VSIX, { isolateHome: false });
  console.log(`start: installed ${ext}`);

  const port = await choosePort();
  const server = await startCodeServer(paths, root, {
    port,
    folder,
    isolateHome: false,
    onOutput: quiet ? undefined : (text) => process.stdout.write(text.replace(/^(?=.)/gm, '[code-server] ')),
  });
  const url = workbenchUrl(server, folder);
  console.log('');
  console.log(`  Shardwise is running in VS Code (code-server) at:`);
  console.log(`    ${url}`);
  console.log(`  Folder: ${folder} (your real files)`);
  console.log('  Press Ctrl-C to stop.');
  console.log('');

  const { code, signal } = await server.exited;
  root.remove();
  console.error(`start: code-server exited (${signal ?? `exit ${code}`})`);
  process.exit(code || 1);
}

main().catch((err) => {
  console.error(`start: ${err.message}`);
  process.exit(1);
});
