/**
 * The GitHub Action (action.yml) run as a runner runs it: each step's script with the step's
 * environment (its `${{ inputs.… }}` replaced by the inputs), GITHUB_ACTION_PATH a copy of the
 * working tree, GITHUB_ENV carried from one step to the next. What a pull request gets: one
 * workflow command per finding, and SARIF that the 2.1.0 schema accepts.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { parse } from 'yaml';
import { sarifValidator } from '../sarif-schema';
import { cleanEnv, copyWorkingTree, root } from './tree';

interface Step {
  name: string;
  id?: string;
  shell?: string;
  env?: Record<string, string>;
  run?: string;
  uses?: string;
}
interface Action {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

const action = parse(readFileSync(join(root, 'action.yml'), 'utf8')) as Action;
const tmp = mkdtempSync(join(tmpdir(), 'shardwise-action-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * `${{ inputs.name }}` as the runner evaluates it (the input given, else its default), and
 * `${{ github.action_ref }}`: the ref of `uses:`, `main` unless the test names a release tag.
 */
function substitute(text: string, inputs: Record<string, string>, actionRef = 'main'): string {
  return text.replace(/\$\{\{\s*(inputs|github)\.([\w-]+)\s*\}\}/g, (_, context: string, name: string) => {
    if (context === 'github') {
      assert.equal(name, 'action_ref', `action.yml uses github.${name}, which the test does not give`);
      return actionRef;
    }
    assert.ok(name in action.inputs, `action.yml uses an undeclared input ${name}`);
    return inputs[name] ?? action.inputs[name].default ?? '';
  });
}

test('action.yml is a composite action whose scripts get the inputs as environment variables only', () => {
  assert.equal(action.runs.using, 'composite');
  for (const step of action.runs.steps) {
    assert.ok(step.run, `step ${step.name} runs a script (the test runs every step)`);
    assert.equal(step.shell, 'bash');
    // An expression inside the script text would be pasted into it: a path with a quote could run a command.
    assert.doesNotMatch(step.run, /\$\{\{/, `step ${step.name} has an expression in its script`);
  }
  for (const [name, output] of Object.entries(action.outputs)) assert.match(output.value, /^\$\{\{ steps\.check\.outputs\.[\w-]+ \}\}$/, name);
});

test('its steps install shardwise from the action source, annotate the findings and write valid SARIF', async () => {
  const actionPath = join(tmp, 'action');
  const workspace = join(tmp, 'workspace');
  copyWorkingTree(actionPath);
  mkdirSync(workspace);
  cpSync(join(root, 'examples'), join(workspace, 'examples'), { recursive: true });
  const githubEnv = join(tmp, 'github_env');
  const githubOutput = join(tmp, 'github_output');
  writeFileSync(githubEnv, '');
  writeFileSync(githubOutput, '');
  const inputs = { paths: 'examples/accelerate\nexamples/deepspeed', 'sarif-file': 'shardwise.sarif', args: '--hardware h100-sxm' };
  const base = await cleanEnv({ GITHUB_ACTION_PATH: actionPath, GITHUB_ENV: githubEnv, GITHUB_OUTPUT: githubOutput, GITHUB_WORKSPACE: workspace, RUNNER_TEMP: join(tmp, 'runner') });
  mkdirSync(base.RUNNER_TEMP!);
  const results: { name: string; status: number | null; stdout: string; stderr: string }[] = [];
  for (const step of action.runs.steps) {
    // Each step sees what the steps before it wrote to GITHUB_ENV.
    const carried = Object.fromEntries(readFileSync(githubEnv, 'utf8').split('\n').filter(Boolean).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
    const env = { ...base, ...carried, ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(v, inputs)])) };
    const r = spawnSync('bash', ['-e', '-c', step.run!], { cwd: workspace, env, encoding: 'utf8', timeout: 300_000 });
    results.push({ name: step.name, status: r.status, stdout: r.stdout, stderr: r.stderr });
    if (step.id !== 'check') assert.equal(r.status, 0, `${step.name}: ${r.stdout}\n${r.stderr}`);
  }
  const check = results.at(-1)!;
  assert.equal(check.status, 1, `an error in the examples fails the step: ${check.stderr}`);
  const lines = check.stdout.trimEnd().split('\n');
  for (const line of lines) assert.match(line, /^::(error|warning|notice) file=examples\/[^,]+,line=\d+,endLine=\d+(,col=\d+,endColumn=\d+)?,title=shardwise \([a-z0-9-]+\)::\S/, 'stdout holds workflow commands only');
  assert.ok(lines.includes("::error file=examples/accelerate/typo-and-traps.yaml,line=7,endLine=7,col=18,endColumn=19,title=shardwise (yaml-boolean-trap)::Unquoted `no` is read by YAML 1.1 as the boolean `False`, not as the text `no` that `mixed_precision` needs: the launcher calls `.lower()` on it and crashes (`'bool' object has no attribute 'lower'`) or rejects it (\"Unknown mixed_precision mode\"). Quote it: `'no'`."), lines.slice(0, 5).join('\n'));
  assert.ok(lines.some((l) => l.startsWith('::error file=examples/deepspeed/ds_batch.json,') && l.includes('(batch-size-mismatch)')));
  // Notes stay out of a CI log unless asked for (`args: --show-info` makes them notices).
  assert.ok(!lines.some((l) => l.startsWith('::notice ')), 'a note became an annotation by default');

  assert.match(readFileSync(githubOutput, 'utf8'), /^sarif-file=shardwise\.sarif$/m);
  const sarif = JSON.parse(readFileSync(join(workspace, 'shardwise.sarif'), 'utf8'));
  const validate = sarifValidator();
  assert.ok(validate(sarif), JSON.stringify(validate.errors?.slice(0, 3)));
  assert.equal(sarif.runs[0].results.length, lines.length, 'the same findings in both');
});

/**
 * A registry of one package on 127.0.0.1, holding `tarball` as shardwise@`version`: what npm asks
 * for (the packument, then the tarball it names) and nothing else.
 */
async function registryOf(tarball: string, version: string): Promise<{ url: string; requests: string[]; close(): void }> {
  const data = readFileSync(tarball);
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const { port } = server.address() as AddressInfo;
    if (req.url === '/shardwise') {
      const manifest = JSON.parse(spawnSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }).stdout);
      const dist = { tarball: `http://127.0.0.1:${port}/shardwise/-/shardwise-${version}.tgz`, integrity: `sha512-${createHash('sha512').update(data).digest('base64')}`, shasum: createHash('sha1').update(data).digest('hex') };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ name: 'shardwise', 'dist-tags': { latest: version }, versions: { [version]: { ...manifest, _id: `shardwise@${version}`, dist } } }));
    } else if (req.url === `/shardwise/-/shardwise-${version}.tgz`) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(data);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, requests, close: () => server.close() };
}

test('at its release tag the install step takes that release from the npm registry and builds nothing', async () => {
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  // The package the release workflow publishes: the one the test before packed from the source.
  const tarball = join(tmp, 'runner', 'shardwise-action', `shardwise-${version}.tgz`);
  assert.ok(existsSync(tarball), 'packed by the test before');
  const registry = await registryOf(tarball, version);
  try {
    const actionPath = join(tmp, 'tagged');
    copyWorkingTree(actionPath);
    const githubEnv = join(tmp, 'tagged_env');
    writeFileSync(githubEnv, '');
    const install = action.runs.steps[0];
    const runnerTemp = join(tmp, 'tagged-runner');
    mkdirSync(runnerTemp);
    const env = {
      ...(await cleanEnv({ GITHUB_ACTION_PATH: actionPath, GITHUB_ENV: githubEnv, RUNNER_TEMP: runnerTemp })),
      npm_config_registry: registry.url,
      npm_config_cache: join(tmp, 'tagged-cache'),
      npm_config_prefer_offline: 'false',
      ...Object.fromEntries(Object.entries(install.env ?? {}).map(([k, v]) => [k, substitute(v, {}, `v${version}`)])),
    };
    const started = Date.now();
    const r = await new Promise<{ status: number | null; out: string }>((resolve) => {
      const child = spawn('bash', ['-e', '-c', install.run!], { cwd: actionPath, env });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d));
      child.stderr.on('data', (d: Buffer) => (out += d));
      child.on('close', (status) => resolve({ status, out }));
    });
    const seconds = (Date.now() - started) / 1000;
    assert.equal(r.status, 0, r.out);
    assert.match(r.out, new RegExp(`installing shardwise@${version.replace(/\./g, '\\.')} from the npm registry`));
    assert.deepEqual(registry.requests, ['/shardwise', `/shardwise/-/shardwise-${version}.tgz`]);
    assert.ok(!existsSync(join(actionPath, 'node_modules')), 'nothing was built: no dependencies were installed');
    const bin = readFileSync(githubEnv, 'utf8').match(/^SHARDWISE_BIN=(.*)$/m)?.[1];
    assert.ok(bin, 'the step gives the next one SHARDWISE_BIN');
    assert.equal(spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout.trim(), `shardwise ${version}`);
    assert.ok(seconds < 20, `the install took ${seconds.toFixed(1)} s`);
  } finally {
    registry.close();
  }
});
