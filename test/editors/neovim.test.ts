/**
 * The Neovim setup of docs/editors.md, run as written: the `lua` block between the page's
 * `neovim-init` markers becomes the init.lua of a headless Neovim (`nvim --headless --clean -u`),
 * which opens copies of the examples in a temporary project and runs neovim-driver.lua there. The
 * server is the built one (`node scripts/build.mjs` first), started by the command name the page
 * gives, `shardwise-language-server`, through a shim put first on PATH. HOME and the XDG folders
 * are temporary, so no user configuration, plugin or log is read or written.
 *
 * Without `nvim` the test is skipped, saying so; under CI=true it fails instead. Neovim is killed
 * if it has not quit in time, and every wait inside it is bounded too.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { after, test } from 'node:test';

const root = join(__dirname, '..', '..');
const serverMain = join(root, 'dist', 'server', 'main.js');
const docs = join(root, 'docs', 'editors.md');
const driver = join(__dirname, 'neovim-driver.lua');

/** Inside Neovim: how long to wait for diagnostics, and for one request's answer. */
const WAIT_MS = 30_000;
const REQUEST_MS = 10_000;
/** Neovim is killed after this long: every wait of the driver (three files), with room to spare. */
const KILL_MS = 3 * WAIT_MS + REQUEST_MS + 30_000;

const nvim = spawnSync('nvim', ['--version'], { encoding: 'utf8', timeout: 30_000 });
const nvimMissing = nvim.error || nvim.status !== 0 ? `nvim is not installed (${nvim.error?.message ?? `exit ${nvim.status}`})` : undefined;
const skip = nvimMissing && process.env.CI !== 'true' ? `${nvimMissing}: the Neovim test is skipped` : false;

const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'shardwise-nvim-')));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** The one `lua` fence between the page's `neovim-init` markers, as written there. */
function initFromDocs(): string {
  const page = readFileSync(docs, 'utf8');
  const block = /<!-- neovim-init: begin\b[^>]*-->\n([\s\S]*?)<!-- neovim-init: end -->/.exec(page);
  assert.ok(block, `${docs} has no <!-- neovim-init: begin --> … <!-- neovim-init: end --> block`);
  const fences = [...block[1].matchAll(/^```lua\n([\s\S]*?)^```$/gm)];
  assert.equal(fences.length, 1, 'the neovim-init block holds exactly one ```lua fence');
  return fences[0][1];
}

/** The 0-based line of the first line of `text` that starts with `needle` (indentation aside; comments never do). */
function lineOf(text: string, needle: string): number {
  const line = text.split('\n').findIndex((l) => l.trimStart().startsWith(needle));
  assert.ok(line >= 0, `${JSON.stringify(needle)} not found`);
  return line;
}

interface Seen {
  path: string;
  filetype: string;
  clients: number[];
  diagnostics: { line: number; col: number; code?: string; message: string }[];
  hover?: string[];
}
interface DriverResult {
  version: string;
  files: Seen[];
  clients?: { id: number; name: string; root_dir?: string }[];
  error?: string;
}

/** Runs Neovim until it quits (or kills it); resolves with its exit status and output. */
function runNeovim(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<{ code: number | null; signal: string | null; output: string; killed: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn('nvim', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let killed = false;
    child.stdout.on('data', (d: Buffer) => (output += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (output += d.toString('utf8')));
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, KILL_MS);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, output, killed });
    });
  });
}

test('docs/editors.md Neovim config: Shardwise diagnostics and hover in a headless Neovim, one client per root', { skip, timeout: KILL_MS + 30_000 }, async () => {
  assert.ok(!nvimMissing, `${nvimMissing}: under CI=true the Neovim test must run (.ci/e2e-deps.sh installs neovim)`);
  assert.ok(existsSync(serverMain), `${serverMain} is missing: run node scripts/build.mjs first`);

  // `shardwise-language-server` on PATH runs the built server, as `npm install -g shardwise` would.
  const bin = join(tmp, 'bin');
  mkdirSync(bin);
  const shim = join(bin, 'shardwise-language-server');
  writeFileSync(shim, `#!/bin/sh\nexec '${process.execPath}' '${serverMain}' "$@"\n`);
  chmodSync(shim, 0o755);

  // A repository (root: the folder with `.git`) holding a team folder with its own `.shardwise.yaml`
  // (root: that folder), so the two markers give two roots and two clients.
  const project = join(tmp, 'project');
  const team = join(project, 'team');
  for (const dir of [join(project, '.git'), join(project, 'configs'), join(project, 'ds'), team]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(team, '.shardwise.yaml'), 'hardware: h100-sxm\n');
  const yamlFile = join(project, 'configs', 'typo-and-traps.yaml');
  const jsonFile = join(project, 'ds', 'ds_zero3.json');
  // No `.sh`: Neovim tells it is a shell script from its `#!/bin/bash` line (filetype sh).
  const scriptFile = join(team, 'pretrain');
  copyFileSync(join(root, 'examples', 'accelerate', 'typo-and-traps.yaml'), yamlFile);
  copyFileSync(join(root, 'examples', 'deepspeed', 'ds_zero3.json'), jsonFile);
  copyFileSync(join(root, 'examples', 'megatron', 'pretrain-llama3-8b.sh'), scriptFile);
  const yamlText = readFileSync(yamlFile, 'utf8');
  const scriptText = readFileSync(scriptFile, 'utf8');

  const init = join(tmp, 'init.lua');
  writeFileSync(init, initFromDocs());
  const out = join(tmp, 'result.json');
  const hoverLine = lineOf(yamlText, 'num_processes:');
  const plan = join(tmp, 'plan.json');
  writeFileSync(plan, JSON.stringify({ out, waitMs: WAIT_MS, requestMs: REQUEST_MS, hover: { line: hoverLine, character: 2 }, others: [jsonFile, scriptFile] }));

  const home = join(tmp, 'home');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    XDG_CACHE_HOME: join(home, '.cache'),
    SHARDWISE_NVIM_PLAN: plan,
  };
  delete env.VIMINIT;
  delete env.MYVIMRC;
  mkdirSync(home);

  const run = await runNeovim(['--headless', '--clean', '-u', init, '-c', `luafile ${driver}`, yamlFile], env, project);
  const said = `Neovim said:\n${run.output.trim() || '(nothing)'}`;
  assert.ok(!run.killed, `Neovim did not quit within ${KILL_MS / 1000} s and was killed. ${said}`);
  assert.ok(existsSync(out), `Neovim quit (status ${run.code}, signal ${run.signal}) without writing ${out}. ${said}`);
  const result = JSON.parse(readFileSync(out, 'utf8')) as DriverResult;
  assert.equal(result.error, undefined, `the driver failed in Neovim ${result.version}: ${result.error}. ${said}`);
  const [yaml, json, script] = result.files;
  const context = `Neovim ${result.version}: ${JSON.stringify(result, null, 1)}\n${said}`;

  // The YAML config: the trap on `mixed_precision: no`, with Shardwise's source and code.
  assert.equal(yaml.filetype, 'yaml');
  assert.equal(yaml.clients.length, 1, `one client attached to the YAML file. ${context}`);
  const trapLine = lineOf(yamlText, 'mixed_precision: no');
  const trap = yaml.diagnostics.find((d) => d.code === 'yaml-boolean-trap');
  assert.ok(trap, `a yaml-boolean-trap diagnostic from source shardwise. ${context}`);
  assert.equal(trap.line, trapLine, 'on the `mixed_precision: no` line');
  assert.equal(trap.col, yamlText.split('\n')[trapLine].indexOf('no'), 'at the `no`');
  assert.ok(yaml.diagnostics.some((d) => d.code === 'unknown-key' && d.line === lineOf(yamlText, 'fsdp_versoin')), `unknown-key on fsdp_versoin. ${context}`);

  // A hover on the key: markdown that names it.
  const hover = (yaml.hover ?? []).join('\n');
  assert.match(hover, /num_processes/, `the hover on num_processes names it. ${context}`);

  // The JSON file under the same root reuses the YAML file's client.
  assert.equal(json.filetype, 'json');
  assert.deepEqual(json.clients, yaml.clients, `the JSON file in the same repository gets the same client. ${context}`);
  assert.ok(json.diagnostics.length > 0, `Shardwise diagnostics in the DeepSpeed JSON. ${context}`);

  // The launch script under `.shardwise.yaml` gets a client of its own, and is read as shell.
  assert.match(script.filetype, /^(sh|bash)$/);
  assert.equal(script.clients.length, 1, `one client attached to the launch script. ${context}`);
  assert.notDeepEqual(script.clients, yaml.clients, `the folder with .shardwise.yaml is a root of its own. ${context}`);
  const typo = script.diagnostics.find((d) => d.code === 'unknown-key');
  assert.ok(typo && /--overlap-grad-reduse/.test(typo.message), `unknown-key on --overlap-grad-reduse in the script. ${context}`);
  assert.equal(typo.line, lineOf(scriptText, '--overlap-grad-reduse'));

  // Two clients in all, both Shardwise's, rooted where the markers are.
  const clients = result.clients ?? [];
  assert.deepEqual(
    clients.map((c) => [c.name, c.root_dir]).sort(),
    [['shardwise', project], ['shardwise', team]].sort(),
    `one client per root. ${context}`,
  );
});
