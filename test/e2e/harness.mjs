// Shared code for the real-editor tests (test/e2e/run.mjs) and the demo launcher (scripts/start.mjs):
// a fresh temp root per code-server, settings, installing the .vsix, starting/stopping code-server in
// its own process group, and a Chromium (Debian's, via playwright-core) that may only talk to 127.0.0.1.
// Runs on the machine's Node 20; code-server runs on the Node 24 that setup.mjs provisions.

import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const CHROMIUM = process.env.SHARDWISE_E2E_CHROMIUM || '/usr/bin/chromium';
export const EXTENSION_ID = 'shardwise.shardwise';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--no-default-browser-check',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];

export const BASE_SETTINGS = {
  'telemetry.telemetryLevel': 'off',
  'telemetry.feedback.enabled': false,
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'update.showReleaseNotes': false,
  'workbench.startupEditor': 'none',
  'workbench.enableExperiments': false,
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.settings.enableNaturalLanguageSearch': false,
  'git.enabled': false,
  'git.autofetch': false,
  'npm.fetchOnlinePackageInfo': false,
  'security.workspace.trust.enabled': false,
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

// ---------- small utilities ----------

export function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * Rejects with `message` (a string, or a function called at that time) after `ms`; the timer is
 * cleared whichever way `promise` settles.
 */
export function withTimeout(promise, ms, message) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(typeof message === 'function' ? message() : message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Polls `probe` (sync or async) until it returns a truthy value; returns it, or throws `message`. */
export async function poll(probe, { timeoutMs, intervalMs = 250, message }) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(message ?? `timed out after ${timeoutMs} ms`);
    await sleep(intervalMs);
  }
}

export function freePort(host = '127.0.0.1') {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

export function portIsFree(port, host = '127.0.0.1') {
  return new Promise((resolveFree) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolveFree(false));
    server.listen(port, host, () => server.close(() => resolveFree(true)));
  });
}

// ---------- cleanup on exit ----------

const exitHooks = new Set();
let exitHandlersInstalled = false;
let signalExitCode = null;

/** The exit code after SIGINT/SIGTERM/SIGHUP (default 128 + signal number); `npm start` uses 0. */
export function setSignalExitCode(code) {
  signalExitCode = code;
}

/** `fn` must be synchronous: it runs on 'exit' (and before the process dies of SIGINT/SIGTERM). */
export function onExit(fn) {
  if (!exitHandlersInstalled) {
    exitHandlersInstalled = true;
    process.on('exit', runExitHooks);
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
      process.on(signal, () => {
        runExitHooks();
        process.exit(signalExitCode ?? { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 }[signal]);
      });
    }
  }
  exitHooks.add(fn);
  return () => exitHooks.delete(fn);
}

function runExitHooks() {
  for (const fn of [...exitHooks]) {
    exitHooks.delete(fn);
    try {
      fn();
    } catch {}
  }
}

// ---------- temp root, settings, workspace ----------

/**
 * A fresh folder with everything one code-server + Chromium pair writes:
 * user-data/, extensions/, xdg/{config,data,cache,state}, home/, chromium/.
 */
export function makeTempRoot(label = 'run', { keep = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), `shardwise-e2e-${label}-`));
  const root = {
    dir,
    userData: join(dir, 'user-data'),
    extensions: join(dir, 'extensions'),
    home: join(dir, 'home'),
    chromiumProfile: join(dir, 'chromium'),
    xdg: {
      XDG_CONFIG_HOME: join(dir, 'xdg', 'config'),
      XDG_DATA_HOME: join(dir, 'xdg', 'data'),
      XDG_CACHE_HOME: join(dir, 'xdg', 'cache'),
      XDG_STATE_HOME: join(dir, 'xdg', 'state'),
    },
    keep,
    remove() {
      if (!root.keep) rmSync(dir, { recursive: true, force: true });
    },
  };
  for (const d of [root.userData, root.extensions, root.home, root.chromiumProfile, ...Object.values(root.xdg)]) mkdirSync(d, { recursive: true });
  const unregister = onExit(() => root.remove());
  const remove = root.remove;
  root.remove = () => {
    unregister();
    remove();
  };
  return root;
}

export function writeSettings(root, extra = {}) {
  const file = join(root.userData, 'User', 'settings.json');
  mkdirSync(join(root.userData, 'User'), { recursive: true });
  writeFileSync(file, JSON.stringify({ ...BASE_SETTINGS, ...extra }, null, 2) + '\n');
  return file;
}

/** Copies `source` (e.g. examples/) to `<root>/workspace/<name>`; returns the copy's path. */
export function copyWorkspace(root, source, name = 'examples') {
  if (!existsSync(source)) throw new Error(`workspace source ${source} does not exist`);
  const dest = join(root.dir, 'workspace', name);
  cpSync(source, dest, { recursive: true });
  return dest;
}

// ---------- code-server ----------

function codeServerEnv(root, { isolateHome = true } = {}) {
  const env = { ...process.env, ...root.xdg, EXTENSIONS_GALLERY: '{}' };
  if (isolateHome) env.HOME = root.home;
  // Nothing of the caller's npm/node setup should leak into the editor's processes.
  for (const k of Object.keys(env)) if (k.startsWith('npm_') || k === 'NODE_OPTIONS') delete env[k];
  return env;
}

function baseArgs(root) {
  return ['--user-data-dir', root.userData, '--extensions-dir', root.extensions];
}

/**
 * Installs a .vsix into the root's extensions dir; returns the installed extension's folder
 * (e.g. <extensions>/shardwise.shardwise-0.1.0).
 */
export function installExtension({ node24, codeServerBin }, root, vsix, { isolateHome = true } = {}) {
  if (!existsSync(vsix)) throw new Error(`${vsix} does not exist`);
  const res = spawnSync(node24, [codeServerBin, ...baseArgs(root), '--install-extension', resolve(vsix), '--force'], {
    env: codeServerEnv(root, { isolateHome }),
    encoding: 'utf8',
    timeout: 120_000,
  });
  const output = `${res.stdout ?? ''}${res.stderr ?? ''}`.trim();
  if (res.status !== 0 || res.error) {
    throw new Error(`installing ${vsix} failed (${res.error?.message ?? `exit ${res.status}`}):\n${output}`);
  }
  const folder = readdirSync(root.extensions).find((n) => n.toLowerCase().startsWith(`${EXTENSION_ID}-`));
  if (!folder) throw new Error(`installed ${vsix}, but no ${EXTENSION_ID}-* folder appeared in ${root.extensions}:\n${output}`);
  return join(root.extensions, folder);
}

/**
 * Starts code-server detached, in its own process group, on 127.0.0.1:port, and waits for
 * "HTTP server listening on". Returns { url, port, pid, output(), stop(), exited }.
 * Workspace trust is off (`--disable-workspace-trust`) unless `workspaceTrust` is true; then a
 * folder opens in Restricted Mode when the user settings enable trust and nobody trusted it.
 */
export async function startCodeServer(
  { node24, codeServerBin },
  root,
  { port, folder, isolateHome = true, workspaceTrust = false, extraArgs = [], onOutput, startTimeoutMs = 60_000 } = {},
) {
  port ??= await freePort();
  const args = [
    codeServerBin,
    ...baseArgs(root),
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    ...(workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
    '--disable-proxy',
    '--ignore-last-opened',
    ...extraArgs,
  ];
  if (folder) args.push(folder);
  const child = spawn(node24, args, {
    env: codeServerEnv(root, { isolateHome }),
    cwd: root.dir,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines = [];
  const record = (chunk) => {
    const text = chunk.toString();
    for (const line of text.split('\n')) if (line.trim()) lines.push(line);
    if (lines.length > 400) lines.splice(0, lines.length - 400);
    onOutput?.(text);
  };
  child.stdout.on('data', record);
  child.stderr.on('data', record);

  let exitInfo = null;
  const exited = new Promise((r) => child.on('exit', (code, signal) => r((exitInfo = { code, signal }))));
  const killGroup = (signal) => {
    if (exitInfo || !child.pid) return;
    try {
      process.kill(-child.pid, signal);
    } catch {}
  };
  const unregister = onExit(() => killGroup('SIGKILL'));

  const server = {
    url: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid,
    child,
    exited,
    output: () => lines.join('\n'),
    /** Signals the whole process group (code-server, its extension hosts, language servers). */
    async stop() {
      unregister();
      if (!exitInfo) {
        killGroup('SIGTERM');
        try {
          await withTimeout(exited, 5000, 'code-server did not stop on SIGTERM');
        } catch {
          killGroup('SIGKILL');
          await withTimeout(exited, 5000, 'code-server did not stop on SIGKILL').catch(() => {});
        }
      }
      // Children (extension host, language server) may outlive the leader briefly: sweep the group.
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    },
    /** Lets it run on after this process exits (for --keep). */
    detach() {
      unregister();
      child.stdout.destroy();
      child.stderr.destroy();
      child.unref();
    },
  };

  child.on('error', (err) => lines.push(`spawn error: ${err.message}`));
  try {
    await withTimeout(
      new Promise((ready, failed) => {
        const check = (chunk) => {
          if (chunk.toString().includes('HTTP server listening on') || lines.some((l) => l.includes('HTTP server listening on'))) ready();
        };
        child.stdout.on('data', check);
        child.stderr.on('data', check);
        exited.then((info) => failed(new Error(`code-server exited before listening (${info.signal ?? `exit ${info.code}`})`)));
      }),
      startTimeoutMs,
      `code-server did not print "HTTP server listening on" within ${startTimeoutMs / 1000} s`,
    );
  } catch (err) {
    await server.stop();
    throw new Error(`${err.message}\n--- code-server output ---\n${server.output()}`);
  }
  return server;
}

/** The URL that opens `folder` in the workbench (optionally with a payload of [key, value] pairs). */
export function workbenchUrl(server, folder, payload) {
  let url = `${server.url}/?folder=${encodeURIComponent(folder).replace(/%2F/g, '/')}`;
  if (payload) url += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  return url;
}

/** `vscode-remote://127.0.0.1:PORT/<absolute path>`: how the browser workbench names server files. */
export function remoteUri(server, path) {
  return `vscode-remote://127.0.0.1:${server.port}${resolve(path).split('/').map(encodeURIComponent).join('/')}`;
}

// ---------- Chromium ----------

/**
 * Launches Chromium with a fresh profile under the root; every request that is not to 127.0.0.1
 * is aborted and recorded in `blocked`. Returns { context, page, blocked, close() }.
 */
export async function launchBrowser(playwright, root, { viewport = { width: 1400, height: 900 } } = {}) {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: run .ci/e2e-deps.sh (apt-get install chromium)`);
  const env = { ...process.env, HOME: root.home, ...root.xdg };
  const context = await playwright.chromium.launchPersistentContext(root.chromiumProfile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    env,
    viewport,
    timeout: 60_000,
  });
  const blocked = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    let host = '';
    try {
      host = new URL(url).hostname;
    } catch {}
    if (host === '127.0.0.1') return route.continue();
    blocked.push(url);
    return route.abort('blockedbyclient');
  });
  const page = context.pages()[0] ?? (await context.newPage());
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await withTimeout(context.close(), 15_000, 'closing Chromium timed out').catch(() => {});
  };
  return { context, page, blocked, close };
}

/**
 * VS Code 1.139 ignores the payload's extensionDevelopmentPath/extensionTestsPath unless
 * developmentOptions.enableSmokeTestDriver is set, and code-server's CLI does not pass that through.
 * This init script sets it in the workbench configuration the page reads from its <meta> tag.
 */
export function enableSmokeTestDriverScript() {
  const original = Element.prototype.getAttribute;
  Element.prototype.getAttribute = function (name) {
    const value = original.call(this, name);
    if (name === 'data-settings' && value && this.id === 'vscode-workbench-web-configuration') {
      try {
        const config = JSON.parse(value);
        config.developmentOptions = { ...(config.developmentOptions ?? {}), enableSmokeTestDriver: true };
        return JSON.stringify(config);
      } catch {
        return value;
      }
    }
    return value;
  };
}
