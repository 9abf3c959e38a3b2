/**
 * The GitHub Action (action.yml) run as a runner runs it: each step's script with the step's
 * environment (its `${{ inputs.… }}` replaced by the inputs), GITHUB_ACTION_PATH a copy of the
 * working tree, GITHUB_ENV carried from one step to the next. What a pull request gets: one
 * workflow command per finding, and SARIF that the 2.1.0 schema accepts.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** `${{ inputs.name }}` as the runner evaluates it: the input given, else its default. */
function substitute(text: string, inputs: Record<string, string>): string {
  return text.replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_, name: string) => {
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
