/**
 * `shardwise check` with the conventions of ruff (and eslint where ruff has none): output formats for
 * CI systems, rule selection, exit-status options, statistics, the standard input, excludes and
 * .gitignore, the project configuration in `.shardwise.yaml` and `pyproject.toml`, and the problem
 * matcher contributed for the text format. Runs the built CLI (`npm run build` first).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { parseProjectConfig, parsePyprojectConfig, RULES } from '../../server/src/engine';
import { ROOT, runCli, type JsonFinding } from './run-cli';

const tmp = mkdtempSync(join(tmpdir(), 'shardwise-options-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

function run(args: string[], cwd: string, input?: string, env?: Record<string, string>): ReturnType<typeof runCli> {
  return runCli(args, { cwd, input, env: { ...process.env, CI_PROJECT_DIR: '', ...env } });
}

function findings(args: string[], cwd: string, input?: string): { code: number; findings: JsonFinding[]; err: string } {
  const r = run([...args, '--output-format', 'json'], cwd, input);
  assert.ok(r.out.startsWith('['), `JSON on stdout (exit ${r.code}): ${r.out}${r.err}`);
  return { code: r.code, findings: JSON.parse(r.out) as JsonFinding[], err: r.err };
}

const codes = (fs: readonly JsonFinding[]): string[] => fs.map((f) => `${f.file}:${f.code}`).sort();

/** A folder with `files` (path → text) written into it. */
function project(name: string, files: Record<string, string>): string {
  const dir = join(tmp, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  mkdirSync(dir, { recursive: true });
  return dir;
}

// An Accelerate config with an error (yaml-boolean-trap, safely fixable) and one with a warning only.
const TRAP = 'distributed_type: MULTI_GPU\nnum_processes: 2\nmixed_precision: no\n# shardwise: accelerate=1.14.0\n';
// A single process under MULTI_GPU is a warning up to Accelerate 1.9 (DDP wraps it), a note from 1.10.
const WARN = 'distributed_type: MULTI_GPU\nnum_processes: 1\n# shardwise: accelerate=1.9.0\n';
const CLEAN = 'distributed_type: MULTI_GPU\nnum_processes: 8\nmixed_precision: bf16\n';
// An error (line 4) and two warnings (unknown-key, lines 6 and 7), each safely fixable.
const MIXED = 'compute_environment: LOCAL_MACHINE\ndistributed_type: FSDP\nnum_processes: 2\nmixed_precision: no\nfsdp_config:\n  fsdp_versoin: 2\n  fsdp_ofload_params: true\n# shardwise: accelerate=1.14.0\n';
// Two warnings and no error.
const TWO_WARNINGS = 'compute_environment: LOCAL_MACHINE\ndistributed_type: FSDP\nnum_processes: 2\nfsdp_config:\n  fsdp_versoin: 2\n  fsdp_ofload_params: true\n';

describe('output formats for CI systems', () => {
  test('--output-format gitlab: GitLab Code Quality JSON with the required fields, stable and distinct fingerprints', () => {
    const dir = project('gitlab', { 'configs/a.yaml': MIXED, 'configs/w.yaml': WARN, 'configs/ok.yaml': CLEAN });
    const r = run(['check', '.', '--output-format', 'gitlab'], dir);
    assert.equal(r.code, 1, r.err);
    const issues = JSON.parse(r.out) as { description: string; check_name: string; fingerprint: string; severity: string; location: { path: string; lines: { begin: number; end: number } } }[];
    assert.deepEqual(
      issues.map((i) => [i.location.path, i.location.lines.begin, i.check_name, i.severity]),
      [
        ['configs/a.yaml', 4, 'yaml-boolean-trap', 'major'],
        ['configs/a.yaml', 6, 'unknown-key', 'minor'],
        ['configs/a.yaml', 7, 'unknown-key', 'minor'],
        ['configs/w.yaml', 2, 'multi-gpu-single-process', 'minor'],
      ],
    );
    for (const i of issues) {
      assert.ok(i.description.startsWith(`${i.check_name}: `) && i.description.length > i.check_name.length + 10, i.description);
      assert.match(i.fingerprint, /^[0-9a-f]{64}$/);
      assert.ok(['info', 'minor', 'major', 'critical', 'blocker'].includes(i.severity));
      assert.equal(typeof i.location.lines.end, 'number');
    }
    assert.equal(new Set(issues.map((i) => i.fingerprint)).size, issues.length, 'each issue has its own fingerprint');
    // Lines added above a finding move it, but it is the same finding: the same fingerprint.
    writeFileSync(join(dir, 'configs/a.yaml'), `# a comment\n# another\n${MIXED}`);
    const moved = JSON.parse(run(['check', '.', '--output-format', 'gitlab'], dir).out) as typeof issues;
    assert.equal(moved[0].location.lines.begin, 6);
    assert.deepEqual(moved.map((i) => i.fingerprint), issues.map((i) => i.fingerprint));
    // In a GitLab job, paths are relative to the project's folder.
    const job = JSON.parse(run(['check', 'a.yaml', '--output-format', 'gitlab'], join(dir, 'configs'), undefined, { CI_PROJECT_DIR: dir }).out) as typeof issues;
    assert.equal(job[0].location.path, 'configs/a.yaml');
    // Nothing found: an empty report.
    assert.deepEqual(JSON.parse(run(['check', 'configs/ok.yaml', '--output-format', 'gitlab'], dir).out), []);
  });

  test('--output-format junit: well-formed XML, one testsuite per file, a failure per finding, a passing testcase for a clean file', () => {
    // A file name and a key with what XML reserves.
    const dir = project('junit', { 'a&<b>.yaml': 'compute_environment: LOCAL_MACHINE\ndistributed_type: FSDP\nnum_processes: 2\nmixed_precision: no\nfsdp_config:\n  "fsdp_offload<&>\'params": true\n# shardwise: accelerate=1.14.0\n', 'w.yaml': WARN, 'ok.yaml': CLEAN });
    const r = run(['check', '.', '--output-format', 'junit'], dir);
    assert.equal(r.code, 1, r.err);
    assert.equal(XMLValidator.validate(r.out), true, r.out);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'testsuite' || name === 'testcase' }).parse(r.out);
    const root = doc.testsuites;
    assert.equal(root.name, 'shardwise');
    const suites = root.testsuite as { name: string; tests: string; failures: string; testcase: { name: string; failure?: { message: string; type: string } }[] }[];
    assert.deepEqual(suites.map((s) => [s.name, s.tests, s.failures]), [
      ['a&<b>.yaml', '2', '2'],
      ['ok.yaml', '1', '0'],
      ['w.yaml', '1', '1'],
    ]);
    assert.equal(root.tests, '4');
    assert.equal(root.failures, '3');
    const [trap, key] = suites[0].testcase;
    assert.equal(trap.name, 'yaml-boolean-trap (4:18)');
    assert.equal(trap.failure?.type, 'error');
    assert.match(trap.failure!.message, /^Unquoted `no`/);
    assert.equal(key.failure?.type, 'warning');
    assert.match(key.failure!.message, /fsdp_offload<&>'params/, 'the message, unescaped by the parser, is the original text');
    assert.equal(suites[1].testcase.length, 1);
    assert.equal(suites[1].testcase[0].failure, undefined, 'a clean file passes');
  });
});

describe('rule selection', () => {
  const dir = project('select', { 'a.yaml': MIXED, 'w.yaml': WARN });

  test('--select replaces the rules that run, --extend-select adds, --ignore removes; comma-separated and repeatable; ALL', () => {
    assert.deepEqual(codes(findings(['check', '.'], dir).findings), ['a.yaml:unknown-key', 'a.yaml:unknown-key', 'a.yaml:yaml-boolean-trap', 'w.yaml:multi-gpu-single-process']);
    const only = findings(['check', '.', '--select', 'unknown-key'], dir);
    assert.deepEqual(codes(only.findings), ['a.yaml:unknown-key', 'a.yaml:unknown-key']);
    assert.equal(only.code, 0, 'the error is not selected: no error found');
    assert.deepEqual(codes(findings(['check', '.', '--select', 'unknown-key', '--extend-select', 'multi-gpu-single-process'], dir).findings), ['a.yaml:unknown-key', 'a.yaml:unknown-key', 'w.yaml:multi-gpu-single-process']);
    assert.deepEqual(codes(findings(['check', '.', '--select', 'unknown-key,yaml-boolean-trap', '--select', 'multi-gpu-single-process'], dir).findings).length, 4);
    assert.deepEqual(codes(findings(['check', '.', '--ignore', 'unknown-key', '--ignore=multi-gpu-single-process'], dir).findings), ['a.yaml:yaml-boolean-trap']);
    assert.deepEqual(codes(findings(['check', '.', '--select', 'ALL', '--ignore', 'yaml-boolean-trap'], dir).findings), ['a.yaml:unknown-key', 'a.yaml:unknown-key', 'w.yaml:multi-gpu-single-process']);
  });

  test('an unknown rule id is a usage error with a did-you-mean, for each of the three options', () => {
    for (const flag of ['--select', '--extend-select', '--ignore']) {
      const r = run(['check', '.', flag, 'unknown-key,yaml-bolean-trap'], dir);
      assert.equal(r.code, 2, flag);
      assert.match(r.err, new RegExp(`^shardwise: ${flag}: unknown rule "yaml-bolean-trap" \\(did you mean yaml-boolean-trap\\?\\)`, 'm'));
      assert.equal(r.out, '');
    }
  });

  test('--fix leaves an ignored rule alone, and fixes it when it is selected', () => {
    const fixDir = project('select-fix', { 'a.yaml': TRAP });
    const r = run(['check', '.', '--fix', '--ignore', 'yaml-boolean-trap'], fixDir);
    assert.equal(r.code, 0, r.err);
    assert.equal(readFileSync(join(fixDir, 'a.yaml'), 'utf8'), TRAP, 'not fixed');
    assert.equal(run(['check', '.', '--diff', '--select', 'unknown-key'], fixDir).code, 0, 'no diff for a rule not selected');
    assert.equal(run(['check', '.', '--fix', '--select', 'yaml-boolean-trap'], fixDir).code, 0);
    assert.match(readFileSync(join(fixDir, 'a.yaml'), 'utf8'), /mixed_precision: 'no'/);
  });
});

describe('exit status and statistics', () => {
  const dir = project('exit', { 'a.yaml': MIXED, 'w.yaml': WARN });

  test('--exit-zero: exit 0 with errors found, still 2 on a usage or I/O failure', () => {
    const r = run(['check', '.', '--exit-zero'], dir);
    assert.equal(r.code, 0);
    assert.match(r.out, /error \[yaml-boolean-trap\]/);
    assert.equal(run(['check', 'missing.yaml', '--exit-zero'], dir).code, 2);
    assert.equal(run(['check', '.', '--diff', '--exit-zero'], dir).code, 0, '--diff too');
  });

  test('--max-warnings N: exit 1 when there are more than N warnings', () => {
    const w = project('exit-warnings', { 'a.yaml': TWO_WARNINGS });
    assert.equal(run(['check', '.'], w).code, 0, 'warnings alone exit 0');
    assert.equal(run(['check', '.', '--max-warnings', '2'], w).code, 0);
    const over = run(['check', '.', '--max-warnings', '1'], w);
    assert.equal(over.code, 1);
    assert.match(over.err, /2 warnings, more than --max-warnings 1 allows/);
    assert.equal(run(['check', '.', '--max-warnings=0'], w).code, 1);
    assert.equal(run(['check', '.', '--max-warnings', '0', '--exit-zero'], w).code, 0);
    for (const bad of ['-1', 'many', '']) assert.equal(run(['check', '.', '--max-warnings', bad], w).code, 2, bad);
  });

  test('--statistics: findings per rule with severity and how many --fix fixes, the most frequent first; JSON too', () => {
    const r = run(['check', '.', '--statistics'], dir);
    assert.equal(r.code, 1, 'the exit status is the one of the findings');
    assert.deepEqual(r.out.trimEnd().split('\n'), [
      // Both are slips in sections that ignore unknown keys: renaming them would change the run, so --fix does not.
      '2  unknown-key               warning',
      '1  multi-gpu-single-process  warning',
      '1  yaml-boolean-trap         error        [*] 1 fixable with --fix',
    ]);
    const j = run(['check', '.', '--statistics', '--output-format', 'json'], dir);
    assert.deepEqual(JSON.parse(j.out), [
      { code: 'unknown-key', severity: 'warning', count: 2, fixable: 0 },
      { code: 'multi-gpu-single-process', severity: 'warning', count: 1, fixable: 0 },
      { code: 'yaml-boolean-trap', severity: 'error', count: 1, fixable: 1 },
    ]);
    assert.equal(run(['check', '.', '--statistics', '--output-format', 'sarif'], dir).code, 2);
    // A rule whose findings are errors in one place and warnings in another: a row for each.
    const mixed = project('statistics-mixed', { 'a.yaml': 'distributed_type: FSDP\nnum_processes: 2\nnum_machiness: 1\nfsdp_config:\n  fsdp_versoin: 2\n' });
    const rows = JSON.parse(run(['check', '.', '--statistics', '--output-format', 'json'], mixed).out) as { code: string; severity: string }[];
    assert.deepEqual(rows.filter((x) => x.code === 'unknown-key').map((x) => x.severity), ['error', 'warning']);
  });
});

describe('the standard input', () => {
  const dir = project('stdin', {
    'configs/.shardwise.yaml': 'per-file-ignores:\n  "ds_*.json": [fp16-and-bf16-enabled]\n',
  });
  const DS = '{\n  "train_batch_size": 8,\n  "fp16": { "enabled": true },\n  "bf16": { "enabled": true }\n}\n';

  test('check - reads stdin: told by its content alone, reported as `-`', () => {
    const r = run(['check', '-'], dir, TRAP);
    assert.equal(r.code, 1, r.err);
    assert.match(r.out, /^-:3:18: error \[yaml-boolean-trap\]/m);
    const ds = findings(['check', '-'], dir, DS);
    assert.deepEqual(ds.findings.map((f) => [f.file, f.code]), [['-', 'fp16-and-bf16-enabled']]);
    // A script is a script by its `#!` line.
    const script = findings(['check', '-'], dir, '#!/bin/bash\ntorchrun --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 3 --num-layers 4 --hidden-size 64 --num-attention-heads 8\n');
    assert.ok(script.findings.some((f) => f.code === 'heads-not-divisible-by-tp'), JSON.stringify(script.findings));
  });

  test('--stdin-filename names it: for the output, the format and the configuration', () => {
    const named = findings(['check', '-', '--stdin-filename', 'configs/train.yaml'], dir, TRAP);
    assert.deepEqual(named.findings.map((f) => [f.file, f.code]), [['configs/train.yaml', 'yaml-boolean-trap']]);
    // Without `-`: the standard input as well (as ruff does).
    assert.equal(findings(['check', '--stdin-filename', 'configs/train.yaml'], dir, TRAP).findings.length, 1);
    // The configuration of configs/ applies: its per-file-ignores silence the JSON finding.
    assert.deepEqual(findings(['check', '-', '--stdin-filename', 'configs/ds_zero.json'], dir, DS).findings, []);
    assert.deepEqual(findings(['check', '-', '--stdin-filename', 'other/ds_zero.json'], dir, DS).findings.map((f) => f.code), ['fp16-and-bf16-enabled']);
    assert.equal(run(['check', '-', 'a.yaml'], dir, TRAP).code, 2, '- takes no other path');
    assert.equal(run(['check', 'a.yaml', '--stdin-filename', 'x.yaml'], dir, TRAP).code, 2);
  });

  test('--fix with - prints the fixed text on stdout and the findings on stderr', () => {
    const r = run(['check', '-', '--stdin-filename', 'train.yaml', '--fix'], dir, 'distributed_type: MULTI_GPU\nnum_processes: 1\nmixed_precision: no\n# shardwise: accelerate=1.9.0\n');
    assert.equal(r.out, "distributed_type: MULTI_GPU\nnum_processes: 1\nmixed_precision: 'no'\n# shardwise: accelerate=1.9.0\n");
    assert.equal(r.code, 0, 'the error was fixed');
    assert.match(r.err, /^train\.yaml:2:16: warning \[multi-gpu-single-process\]/m);
    assert.match(r.err, /1 fix applied/);
    // Nothing to fix: the text as it came.
    assert.equal(run(['check', '-', '--fix'], dir, CLEAN).out, CLEAN);
    // --diff shows the change, writes nothing.
    const d = run(['check', '-', '--stdin-filename', 'train.yaml', '--diff'], dir, TRAP);
    assert.equal(d.code, 1);
    assert.match(d.out, /^-mixed_precision: no\n\+mixed_precision: 'no'$/m);
  });

  test('--force-exclude with an excluded --stdin-filename: passed through unchecked', () => {
    const r = run(['check', '-', '--stdin-filename', 'vendor/train.yaml', '--exclude', 'vendor/', '--force-exclude', '--fix'], dir, TRAP);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, TRAP);
    assert.equal(run(['check', '-', '--stdin-filename', 'vendor/train.yaml', '--exclude', 'vendor/'], dir, TRAP).code, 1, 'without --force-exclude it is checked');
  });
});

describe('excludes and .gitignore', () => {
  test('--exclude (repeatable, comma-separated, gitignore syntax) skips files and folders; named files are checked unless --force-exclude', () => {
    const dir = project('exclude', { 'a.yaml': TRAP, 'gen/b.yaml': TRAP, 'deep/x/gen.yaml': TRAP, 'c.yaml': WARN });
    assert.equal(findings(['check', '.'], dir).findings.length, 4);
    assert.deepEqual(codes(findings(['check', '.', '--exclude', 'gen/', '--exclude', 'gen.yaml,c.yaml'], dir).findings), ['a.yaml:yaml-boolean-trap']);
    assert.deepEqual(codes(findings(['check', '.', '--extend-exclude', '*.yaml', '--exclude', '!a.yaml'], dir).findings), ['a.yaml:yaml-boolean-trap']);
    // Named explicitly: checked anyway, unless --force-exclude.
    assert.equal(findings(['check', 'gen/b.yaml', '--exclude', 'gen/'], dir).findings.length, 1);
    const forced = findings(['check', 'gen/b.yaml', 'gen', 'a.yaml', '--exclude', 'gen/', '--force-exclude'], dir);
    assert.deepEqual(codes(forced.findings), ['a.yaml:yaml-boolean-trap']);
  });

  test('.gitignore is respected: nested files, negations, the folders above up to the repository root; --no-respect-gitignore turns it off', () => {
    const dir = project('gitignore', {
      '.git/HEAD': 'ref: refs/heads/main\n',
      '.gitignore': 'build/\n*.local.yaml\n',
      'a.yaml': TRAP,
      'me.local.yaml': TRAP,
      'build/b.yaml': TRAP,
      'sub/.gitignore': '!keep.local.yaml\nscratch.yaml\n',
      'sub/keep.local.yaml': TRAP,
      'sub/scratch.yaml': TRAP,
      'sub/c.yaml': TRAP,
      // Inside an ignored folder a negation cannot re-include (git does not look inside): not descended into.
      'build/.gitignore': '!*.yaml\n',
    });
    assert.deepEqual(codes(findings(['check', '.'], dir).findings), ['a.yaml:yaml-boolean-trap', 'sub/c.yaml:yaml-boolean-trap', 'sub/keep.local.yaml:yaml-boolean-trap']);
    // Checking a folder below: the .gitignore files above it, up to the repository's root, apply.
    assert.deepEqual(codes(findings(['check', 'sub'], dir).findings), ['sub/c.yaml:yaml-boolean-trap', 'sub/keep.local.yaml:yaml-boolean-trap']);
    assert.equal(findings(['check', '.', '--no-respect-gitignore'], dir).findings.length, 6);
    // A named file is checked whatever .gitignore says.
    assert.equal(findings(['check', 'build/b.yaml'], dir).findings.length, 1);
    // As git on Linux: the case of a name matters.
    if (process.platform === 'linux') {
      const cased = project('gitignore-case', { '.gitignore': 'Build/\n', 'build/a.yaml': TRAP, 'Build/b.yaml': TRAP });
      assert.deepEqual(codes(findings(['check', '.'], cased).findings), ['build/a.yaml:yaml-boolean-trap']);
    }
  });

  test('a file the repository tracks is read although a .gitignore matches it (git ignores only untracked files); without git, a notice counts what was left out', (t) => {
    const dir = project('gitignore-tracked', {
      '.gitignore': 'build/\n*.local.yaml\n',
      'me.local.yaml': TRAP,
      'untracked.local.yaml': TRAP,
      'build/b.yaml': TRAP,
      'build/scratch.yaml': TRAP,
      'build/node_modules/c.yaml': TRAP,
    });
    try {
      execFileSync('git', ['init', '-q'], { cwd: dir, stdio: 'ignore' });
      execFileSync('git', ['add', '-f', 'me.local.yaml', 'build/b.yaml', 'build/node_modules/c.yaml'], { cwd: dir, stdio: 'ignore' });
    } catch {
      t.skip('git is not installed');
      return;
    }
    // Tracked: read (a default-excluded folder stays excluded); untracked and ignored: not read.
    assert.deepEqual(codes(findings(['check', '.'], dir).findings), ['build/b.yaml:yaml-boolean-trap', 'me.local.yaml:yaml-boolean-trap']);
    assert.deepEqual(codes(findings(['check', 'build'], dir).findings), ['build/b.yaml:yaml-boolean-trap']);
    // --exclude still applies to a tracked file.
    assert.deepEqual(codes(findings(['check', '.', '--exclude', 'build/'], dir).findings), ['me.local.yaml:yaml-boolean-trap']);
    // Not a repository git can read: the files the patterns matched are counted on stderr.
    const fake = project('gitignore-no-git', { '.git/HEAD': 'not a repository\n', '.gitignore': '*.local.yaml\n', 'a.local.yaml': TRAP, 'b.local.yaml': TRAP });
    const r = findings(['check', '.'], fake);
    assert.equal(r.findings.length, 0);
    assert.match(r.err, /2 config-looking files not read because a \.gitignore matches them/);
  });

  test('a generated .gitignore of 20,000 patterns: the first 10,000 are used, said once on stderr', () => {
    const patterns = Array.from({ length: 20_000 }, (_, i) => `gen_${i}/`);
    const dir = project('gitignore-huge', { '.gitignore': `# generated\n${patterns.join('\n')}\nlate.yaml\n`, 'gen_5/a.yaml': TRAP, 'late.yaml': TRAP, 'b.yaml': TRAP });
    const r = findings(['check', '.'], dir);
    assert.deepEqual(codes(r.findings), ['b.yaml:yaml-boolean-trap', 'late.yaml:yaml-boolean-trap']);
    assert.deepEqual(r.err.split('\n').filter((l) => /patterns/.test(l)), [`shardwise: ${join(dir, '.gitignore')} has 20001 patterns: only the first 10000 are used`]);
  });

  test('a folder with a 5 MB JSON that is not a config and a .gitignored folder holding a config with an error: both skipped, with the notice, in under a second', (t) => {
    const values = Array.from({ length: 800_000 }, (_, i) => i * 0.25);
    const dir = project('done-when', {
      '.gitignore': 'checkpoints/\n',
      'checkpoints/accelerate.yaml': TRAP,
      'data/tokenizer.json': JSON.stringify({ values }),
      'train.yaml': CLEAN,
    });
    assert.ok(readFileSync(join(dir, 'data/tokenizer.json')).length > 5_000_000);
    // The time of the scan alone: a run that checks nothing gives the start-up (Node, the worker, the bundle).
    const startup = Math.min(...[0, 1, 2].map(() => run(['check', 'train.yaml'], dir).ms));
    // The best of three of each, so that a moment of load on a shared machine is not taken for the scan.
    const runs = [0, 1, 2].map(() => run(['check', '.'], dir));
    const r = runs.reduce((a, b) => (b.ms < a.ms ? b : a));
    for (const x of runs) assert.deepEqual([x.code, x.out, x.err], [r.code, r.out, r.err]);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, '', 'neither the JSON nor the ignored config is reported');
    assert.deepEqual(r.err.split('\n').filter((l) => /not checked/.test(l)), ['shardwise: 1 file over 256 KiB was not checked: data/tokenizer.json; --max-file-size raises the limit']);
    assert.match(r.err, /1 config file checked: 0 errors/);
    const scan = r.ms - startup;
    t.diagnostic(`scan: ${scan.toFixed(0)} ms beyond a ${startup.toFixed(0)} ms start-up`);
    assert.ok(scan < 1000, `the scan took ${scan.toFixed(0)} ms beyond the ${startup.toFixed(0)} ms start-up`);
  });
});

describe('the project configuration', () => {
  test('.shardwise.yaml: select, extend-select, ignore, per-file-ignores (relative to its folder) and exclude; flags win', () => {
    const dir = project('config-select', {
      '.shardwise.yaml': [
        'select: [yaml-boolean-trap, unknown-key]',
        'extend-select: multi-gpu-single-process',
        'ignore: [multi-gpu-single-process]',
        'per-file-ignores:',
        '  "legacy/*.yaml": [yaml-boolean-trap]',
        '  "ds_*.json": [fp16-and-bf16-enabled]',
        'exclude: ["generated/", "*.tmp.yaml"]',
        '',
      ].join('\n'),
      'a.yaml': MIXED,
      'w.yaml': WARN,
      'legacy/old.yaml': TRAP,
      'nested/legacy/old.yaml': TRAP,
      'generated/g.yaml': TRAP,
      'x.tmp.yaml': TRAP,
      'ds_zero.json': '{ "train_batch_size": 8, "fp16": { "enabled": true }, "bf16": { "enabled": true } }\n',
    });
    assert.deepEqual(codes(findings(['check', '.'], dir).findings), ['a.yaml:unknown-key', 'a.yaml:unknown-key', 'a.yaml:yaml-boolean-trap', 'nested/legacy/old.yaml:yaml-boolean-trap']);
    // The JSON's finding is silenced by per-file-ignores alone.
    assert.deepEqual(codes(findings(['check', '.', '--select', 'ALL'], dir).findings), ['a.yaml:unknown-key', 'a.yaml:unknown-key', 'a.yaml:yaml-boolean-trap', 'nested/legacy/old.yaml:yaml-boolean-trap', 'w.yaml:multi-gpu-single-process']);
    // Flags win: --select replaces the configuration's selection; per-file-ignores still apply.
    assert.deepEqual(codes(findings(['check', '.', '--select', 'multi-gpu-single-process,yaml-boolean-trap'], dir).findings), ['a.yaml:yaml-boolean-trap', 'nested/legacy/old.yaml:yaml-boolean-trap', 'w.yaml:multi-gpu-single-process']);
    assert.deepEqual(codes(findings(['check', '.', '--extend-select', 'multi-gpu-single-process', '--ignore', 'unknown-key'], dir).findings), ['a.yaml:yaml-boolean-trap', 'nested/legacy/old.yaml:yaml-boolean-trap', 'w.yaml:multi-gpu-single-process']);
    assert.ok(codes(findings(['check', '.', '--no-config'], dir).findings).includes('ds_zero.json:fp16-and-bf16-enabled'));
    assert.equal(findings(['check', '.', '--no-config'], dir).findings.length, 9);
    // An excluded file named explicitly is checked; with --force-exclude it is not.
    assert.equal(findings(['check', 'generated/g.yaml'], dir).findings.length, 1);
    assert.equal(findings(['check', 'generated/g.yaml', '--force-exclude'], dir).findings.length, 0);
  });

  test('pyproject.toml [tool.shardwise] has the same keys; one without the table is no configuration; .shardwise.yaml beats it in the same folder; the nearest wins', () => {
    const dir = project('config-pyproject', {
      'pyproject.toml': '[project]\nname = "trainer"\n\n[tool.shardwise]\nignore = ["yaml-boolean-trap"]\nexclude = ["scratch/"]\n\n[tool.shardwise.per-file-ignores]\n"w.yaml" = ["multi-gpu-single-process"]\n',
      'a.yaml': TRAP,
      'w.yaml': WARN,
      'scratch/s.yaml': TRAP,
      // No [tool.shardwise]: not a configuration, so the one above applies.
      'pkg/pyproject.toml': '[project]\nname = "pkg"\n[tool.ruff]\nselect = ["E"]\n',
      'pkg/a.yaml': TRAP,
      // Both in one folder: .shardwise.yaml wins, the pyproject.toml is not read (its mistake is not
      // reported); the nearer file's selection comes after the farther one's.
      'both/.shardwise.yaml': 'extend-select: [yaml-boolean-trap]\n',
      'both/pyproject.toml': '[tool.shardwise]\nbogus = 1\n',
      'both/a.yaml': TRAP,
      'both/w.yaml': WARN,
    });
    const r = findings(['check', '.'], dir);
    assert.equal(r.code, 1, r.err);
    assert.deepEqual(codes(r.findings), ['both/a.yaml:yaml-boolean-trap']);
    assert.deepEqual(codes(findings(['check', '.', '--no-config'], dir).findings).length, 6);
  });

  test('a mistake in the configuration is an error (exit 2, nothing checked) naming the file and the key, with a did-you-mean', () => {
    const cases: [string, string, RegExp][] = [
      ['.shardwise.yaml', 'hardwar: h100-sxm\n', /\.shardwise\.yaml: Unknown setting `hardwar` in \.shardwise\.yaml \(did you mean `hardware`\?\)/],
      ['.shardwise.yaml', 'hardware: h900\n', /\.shardwise\.yaml: `hardware`: unknown hardware profile "h900" \(did you mean h200\?\)/],
      ['.shardwise.yaml', 'ignore: [yaml-bolean-trap]\n', /\.shardwise\.yaml: `ignore`: unknown rule "yaml-bolean-trap" \(did you mean yaml-boolean-trap\?\)/],
      ['.shardwise.yaml', 'rules:\n  yaml-bolean-trap: off\n', /`rules\.yaml-bolean-trap`: unknown rule "yaml-bolean-trap" \(did you mean yaml-boolean-trap\?\)/],
      ['.shardwise.yaml', 'per-file-ignores:\n  "*.json": [unknwn-key]\n', /`per-file-ignores\.\*\.json`: unknown rule "unknwn-key" \(did you mean unknown-key\?\)/],
      ['pyproject.toml', '[tool.shardwise]\nextend_selct = ["unknown-key"]\n', /pyproject\.toml: Unknown setting `extend_selct` in \[tool\.shardwise\] \(did you mean `extend-select`\?\)/],
      ['pyproject.toml', '[tool.shardwise]\nhardware = \n', /pyproject\.toml: not valid TOML/],
    ];
    for (const [i, [name, text, message]] of cases.entries()) {
      const dir = project(`config-mistake-${i}`, { [name]: text, 'a.yaml': TRAP });
      const r = run(['check', '.'], dir);
      assert.equal(r.code, 2, `${text}: ${r.err}`);
      assert.match(r.err, message);
      assert.match(r.err, /nothing was checked/);
      assert.equal(r.out, '', 'nothing is checked');
      assert.equal(run(['check', '.', '--no-config'], dir).code, 1, '--no-config does not read it');
    }
    // A folder with no config file to check: its configuration is still read, and its mistake reported.
    const empty = project('config-mistake-empty', { '.shardwise.yaml': 'hardwar: h100-sxm\n', 'README.md': '# nothing\n' });
    const r = run(['check', '.'], empty);
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /Unknown setting `hardwar`/);
  });

  test('parseProjectConfig and parsePyprojectConfig read the same keys the same way', () => {
    const yaml = parseProjectConfig('select: "unknown-key, yaml-boolean-trap"\nextend_select: [ALL]\nignore: []\nper_file_ignores: { "a/*.json": [unknown-key] }\nexclude: [x/]\ntarget: [accelerate=1.10.0]\nhardware: h100\n');
    const toml = parsePyprojectConfig('[tool.shardwise]\nselect = ["unknown-key", "yaml-boolean-trap"]\nextend-select = ["ALL"]\nignore = []\nexclude = ["x/"]\ntarget = ["accelerate=1.10.0"]\nhardware = "h100"\n[tool.shardwise.per-file-ignores]\n"a/*.json" = ["unknown-key"]\n')!;
    for (const c of [yaml, toml]) {
      assert.deepEqual(c.problems, []);
      assert.deepEqual(c.selection, { select: ['unknown-key', 'yaml-boolean-trap'], extendSelect: ['ALL'], ignore: [] });
      assert.deepEqual(c.perFileIgnores, [{ pattern: 'a/*.json', rules: ['unknown-key'] }]);
      assert.deepEqual(c.exclude, ['x/']);
      assert.deepEqual(c.settings.targetVersions, { accelerate: '1.10.0' });
      assert.equal(c.settings.hardware, 'h100');
    }
    assert.equal(parsePyprojectConfig('[project]\nname = "x"\n'), undefined);
    assert.equal(parsePyprojectConfig('this is [not toml'), undefined, 'broken, and not naming the table: not ours');
    assert.ok(RULES.length > 10);
  });
});

test('the problem matcher contributed in package.json reads every finding line of the text output', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const matcher = (pkg.contributes.problemMatchers as { name: string; pattern: { regexp: string; file: number; line: number; column: number; severity: number; code: number; message: number } }[]).find((m) => m.name === 'shardwise')!;
  assert.ok(matcher, 'a matcher named shardwise');
  const re = new RegExp(matcher.pattern.regexp);
  const dir = project('matcher', {
    'a b/train:1.yaml': MIXED,
    'w.yaml': WARN,
    '.shardwise.yaml': 'rules:\n  multi-gpu-single-process: information\n  unknown-key: hint\n',
  });
  const text = run(['check', '.', '--show-fixes', '--show-info'], dir);
  const expected = findings(['check', '.'], dir).findings;
  const lines = text.out.split('\n').filter((l) => re.test(l));
  assert.equal(lines.length, expected.length, text.out);
  // VS Code reads the severity group as error, warning or info (hint: info), the default being error.
  const severity: Record<string, string> = { error: 'error', warning: 'warning', information: 'info', hint: 'hint' };
  for (const [i, line] of lines.entries()) {
    const m = re.exec(line)!;
    const f = expected[i];
    assert.deepEqual([m[matcher.pattern.file], Number(m[matcher.pattern.line]), Number(m[matcher.pattern.column]), m[matcher.pattern.severity], m[matcher.pattern.code]], [f.file, f.range.start.line + 1, f.range.start.character + 1, severity[f.severity], f.code]);
    assert.equal(m[matcher.pattern.message], f.message);
  }
  assert.ok(expected.some((f) => f.severity === 'information') && expected.some((f) => f.severity === 'hint'));
  // The fix lines of --show-fixes and the summary on stderr are not findings.
  assert.ok(text.out.includes('    fix ('));
  assert.ok(!text.err.split('\n').some((l) => re.test(l)));
});

test('a misspelled option or output format is a usage error with a did-you-mean', () => {
  const option = run(['check', '.', '--exlude', 'x/'], tmp);
  assert.equal(option.code, 2);
  assert.match(option.err, /^shardwise: unknown option --exlude \(did you mean --exclude\?\)/m);
  assert.match(run(['check', '.', '--max-warning=3'], tmp).err, /^shardwise: unknown option --max-warning \(did you mean --max-warnings\?\)/m);
  const format = run(['check', '.', '--output-format', 'junt'], tmp);
  assert.equal(format.code, 2);
  assert.match(format.err, /not "junt" \(did you mean junit\?\)/);
});

test('check --help lists every option of check, and the README names each of them', () => {
  const help = run(['check', '--help'], tmp).out;
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const source = readFileSync(join(ROOT, 'server/src/cli/cli.ts'), 'utf8');
  const options = [...source.matchAll(/case '(--[a-z-]+)':/g)].map((m) => m[1]).filter((o) => o !== '--version' && o !== '--help');
  assert.ok(options.length >= 20, options.join(' '));
  // The did-you-mean list knows every option.
  const listed = /const CHECK_OPTIONS = \[([^\]]*)\]/.exec(source)![1];
  assert.deepEqual([...listed.matchAll(/'(--[a-z-]+)'/g)].map((m) => m[1]).sort(), [...options].sort());
  for (const o of options) {
    assert.ok(help.includes(o), `--help lists ${o}`);
    assert.ok(readme.includes(o), `README names ${o}`);
  }
});

test('--verbose says on stderr which format each file was read as and why, and why a file that came close was not read', () => {
  const EVAL = 'models:\n  - name: m\nicl_tasks: tasks.yaml\nprecision: amp_bf16\nseed: 1\nfsdp_config:\n  sharding_strategy: FULL_SHARD\n';
  const TRAINER = JSON.stringify({ fsdp: 'full_shard auto_wrap', fsdp_config: { fsdp_version: 2 } });
  const dir = project('verbose', { 'configs/acc.yaml': TRAP, 'configs/eval.yaml': EVAL, 'configs/fsdp.json': TRAINER, 'k8s/pod.yaml': 'kind: Pod\nmetadata: {}\n', 'two.yaml': 'seed: 1\n---\n' + CLEAN });
  const quiet = run(['check', '.'], dir);
  const r = run(['check', '.', '--verbose'], dir);
  // The findings and the exit status are those of a run without it.
  assert.equal(r.code, quiet.code);
  assert.equal(r.code, 1);
  assert.equal(r.out, quiet.out);
  const lines = r.err.split('\n').filter((l) => l.startsWith('shardwise: ') && !/config files? checked/.test(l));
  assert.deepEqual(lines, [
    'shardwise: configs/acc.yaml: read as an Accelerate config: `distributed_type`, `num_processes`, `mixed_precision` are Accelerate keys, 3 of 3 top-level keys known',
    'shardwise: configs/eval.yaml: not read as a Transformers Trainer recipe: `seed` alone is not enough',
    "shardwise: configs/eval.yaml: not read as an Accelerate config: 4 of 5 top-level keys (`models`, `icl_tasks`, `precision`…) are not Accelerate's; `fsdp_config` alone is not enough",
    'shardwise: k8s/pod.yaml: not read: it has no key of a format Shardwise reads',
    'shardwise: two.yaml (document 1): not read as a Transformers Trainer recipe: `seed` alone is not enough',
    'shardwise: two.yaml (document 2): read as an Accelerate config: `distributed_type`, `num_processes`, `mixed_precision` are Accelerate keys, 3 of 3 top-level keys known',
    "shardwise: configs/fsdp.json: not read as an Accelerate config: `fsdp` with `fsdp_config` and no `distributed_type` is the Transformers Trainer's FSDP setting; 1 of 2 top-level keys (`fsdp`) is not Accelerate's; `fsdp_config` alone is not enough",
  ]);
  // Machine-readable output stays on stdout, untouched.
  const json = run(['check', '.', '--verbose', '--output-format', 'json'], dir);
  assert.deepEqual(JSON.parse(json.out), JSON.parse(run(['check', '.', '--output-format', 'json'], dir).out));
  assert.match(json.err, /configs\/eval\.yaml: not read as an Accelerate config/);
  // layout says why a file has no layout.
  const layout = run(['layout', 'configs/eval.yaml', '--verbose'], dir);
  assert.equal(layout.code, 2);
  assert.match(layout.err, /^shardwise: configs\/eval\.yaml: not read as an Accelerate config: .*alone is not enough$/m);
});

describe('what a file is checked against', () => {
  test('--show-settings: the format and why, the release from the repository pins, the hardware from the Slurm request, the configuration files; nothing is checked', () => {
    const script = '#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gres=gpu:h100:8\ntorchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 2 --hidden-size 256 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --micro-batch-size 1 --global-batch-size 8 --tensor-model-parallel-size 16\n';
    const dir = project('show-settings', {
      '.git/HEAD': 'ref: refs/heads/main\n',
      'requirements.txt': 'accelerate==1.6.0\nmegatron-core>=0.13,<0.14\n',
      'configs/.shardwise.yaml': 'ignore: [missing-overlap-grad-reduce]\n',
      'configs/accelerate.yaml': 'compute_environment: LOCAL_MACHINE\ndistributed_type: MULTI_GPU\nnum_processes: 8\nmixed_precision: bf16\n',
      'train.sh': script,
    });
    const r = run(['check', '--show-settings', 'configs/accelerate.yaml', 'train.sh'], dir);
    assert.equal(r.code, 0, r.err);
    const lines = r.out.trimEnd().split('\n');
    assert.equal(lines[0], 'configs/accelerate.yaml');
    assert.match(lines[1], /^ {2}format: an Accelerate config: /);
    assert.equal(lines[2], '  release: Accelerate 1.6.0, as the repository pins it (../requirements.txt: accelerate==1.6.0)');
    assert.match(lines[3], /^ {2}hardware: h100-sxm \(assumed: /);
    assert.match(lines[4], /^ {2}configuration: .*configs\/\.shardwise\.yaml$/);
    assert.equal(lines[5], 'train.sh');
    assert.match(lines[7], /^ {2}release: Megatron Core >=0\.13,<0\.14 \(assumed: .*requirements\.txt: megatron-core>=0\.13,<0\.14/);
    assert.match(lines[8], /^ {2}hardware: h100-sxm \(`h100-sxm`, from `#SBATCH --gres=gpu:h100:8`/);
    assert.equal(lines[9], '  configuration: none (no .shardwise.yaml or [tool.shardwise] at or above the file)');
    assert.ok(!/tp-exceeds|error|warning/.test(r.out), 'nothing is checked');
  });
});

describe('what a terminal or CI log shows', () => {
  const examples = join(ROOT, 'examples');
  test('text prints errors and warnings, counts the notes and says how to see them; --show-info prints them; --min-severity sets the level in every format', () => {
    const plain = runCli(['check', examples]);
    assert.doesNotMatch(plain.out, /: (information|hint) \[/, 'a note in the default text output');
    assert.match(plain.out, /: error \[/);
    assert.match(plain.err, /checked: \d+ errors, \d+ warnings, (\d+) notes \(not shown: --show-info shows them\)/);
    const notes = Number(/(\d+) notes/.exec(plain.err)![1]);
    assert.ok(notes > 0);
    const info = runCli(['check', examples, '--show-info']);
    assert.equal(info.out.split('\n').filter((l) => /: (information|hint) \[/.test(l)).length, notes);
    assert.doesNotMatch(info.err, /not shown/);
    assert.equal(plain.code, info.code, 'the exit code does not depend on what is shown');
    const json = JSON.parse(runCli(['check', examples, '--output-format', 'json']).out) as JsonFinding[];
    assert.ok(json.some((f) => f.severity === 'information'), 'the machine formats keep everything');
    const errorsOnly = JSON.parse(runCli(['check', examples, '--output-format', 'json', '--min-severity', 'error']).out) as JsonFinding[];
    assert.ok(errorsOnly.length > 0 && errorsOnly.every((f) => f.severity === 'error'));
    const bad = runCli(['check', examples, '--min-severity', 'notes']);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /--min-severity takes error, warning, information, hint, not "notes"/);
  });
  test('the summary counts in the singular when there is one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'shardwise-one-'));
    writeFileSync(join(dir, 'a.yaml'), 'distributed_type: MULTI_GPU\nnum_processes: 2\nnum_machiness: 1\n');
    assert.match(runCli(['check', join(dir, 'a.yaml')]).err, /1 config file checked: 1 error, 0 warnings, 0 notes/);
    rmSync(dir, { recursive: true, force: true });
  });

  test('--color: never and always as said; auto honours NO_COLOR and FORCE_COLOR and leaves a pipe plain', () => {
    const dir = project('colour', { 'a.yaml': MIXED });
    const ESC = '\x1b[';
    const colored = (r: { out: string }): boolean => r.out.includes(ESC);
    assert.ok(!colored(runCli(['check', 'a.yaml'], { cwd: dir })), 'a pipe is not a terminal: plain');
    assert.ok(colored(runCli(['check', 'a.yaml', '--color', 'always'], { cwd: dir })));
    assert.ok(colored(runCli(['check', 'a.yaml'], { cwd: dir, colorEnv: { FORCE_COLOR: '1' } })));
    assert.ok(!colored(runCli(['check', 'a.yaml'], { cwd: dir, colorEnv: { FORCE_COLOR: '0' } })));
    assert.ok(!colored(runCli(['check', 'a.yaml'], { cwd: dir, colorEnv: { FORCE_COLOR: '1', NO_COLOR: '1' } })), 'NO_COLOR wins');
    assert.ok(!colored(runCli(['check', 'a.yaml', '--color', 'never'], { cwd: dir, colorEnv: { FORCE_COLOR: '1' } })), 'the option wins');
    // Coloured, the same text once the escapes are taken out; the escapes of the input stay escaped.
    const strip = (s: string): string => s.replace(/\x1b\[[0-9;]*m/g, '');
    assert.equal(strip(runCli(['check', 'a.yaml', '--color', 'always'], { cwd: dir }).out), runCli(['check', 'a.yaml'], { cwd: dir }).out);
    assert.match(runCli(['check', 'a.yaml', '--color', 'sometimes'], { cwd: dir }).err, /--color takes auto, always, never, not "sometimes"/);
  });
  test('--quiet prints the findings and nothing else; the exit code stays', () => {
    const dir = project('quiet', { 'a.yaml': MIXED, 'w.yaml': WARN });
    const loud = runCli(['check', '.'], { cwd: dir });
    for (const flag of ['--quiet', '-q']) {
      const quiet = runCli(['check', '.', flag], { cwd: dir });
      assert.equal(quiet.out, loud.out);
      assert.equal(quiet.err, '');
      assert.equal(quiet.code, loud.code);
    }
    assert.match(loud.err, /checked/);
    // Nor the notices about files skipped for their size, or the diff's count.
    const big = project('quiet-big', { 'a.yaml': MIXED, 'big.yaml': `${MIXED}# ${'x'.repeat(300 * 1024)}\n` });
    assert.match(runCli(['check', '.'], { cwd: big }).err, /not checked/);
    assert.equal(runCli(['check', '.', '-q'], { cwd: big }).err, '');
    assert.equal(runCli(['check', '.', '-q', '--diff'], { cwd: big }).err, '');
  });
  test('--output-format full: each finding with its line and carets under its range', () => {
    const dir = project('full', { 'a.yaml': MIXED, 'tab.yaml': 'distributed_type: MULTI_GPU\nnum_processes: 2\nmixed_precision: no\t# \x1b[31m\n# shardwise: accelerate=1.14.0\n' });
    const r = runCli(['check', 'a.yaml', 'tab.yaml', '--output-format', 'full'], { cwd: dir });
    assert.equal(r.code, 1);
    const lines = r.out.split('\n');
    const at = lines.findIndex((l) => l.startsWith('a.yaml:6:3: warning [unknown-key]'));
    assert.ok(at >= 0, r.out);
    assert.deepEqual(lines.slice(at + 1, at + 4), ['  |', '6 |   fsdp_versoin: 2', '  |   ^^^^^^^^^^^^']);
    const trap = lines.findIndex((l) => l.startsWith('tab.yaml:3:18: error [yaml-boolean-trap]'));
    assert.ok(trap >= 0, r.out);
    // The escape in the comment is shown escaped; the carets stay under `no`.
    assert.equal(lines[trap + 2], '3 | mixed_precision: no    # \\x1b[31m');
    assert.equal(lines[trap + 3], '  |                  ^^');
    assert.doesNotMatch(r.out, /\x1b/);
  });
  test('--output-format json carries every fix with its applicability and edits, which apply as --fix applies them', () => {
    const dir = project('json-fixes', { 'a.yaml': MIXED });
    const out = JSON.parse(runCli(['check', 'a.yaml', '--output-format', 'json', '--show-info'], { cwd: dir }).out) as (JsonFinding & { fixes: { title: string; applicability: string; edits: { range: JsonFinding['range']; newText: string }[] }[] })[];
    assert.ok(out.every((f) => Array.isArray(f.fixes)));
    const trap = out.find((f) => f.code === 'yaml-boolean-trap')!;
    const safe = trap.fixes.filter((x) => x.applicability === 'safe');
    assert.equal(safe.length, 1);
    // The safe edits applied by hand give what --fix writes for this finding.
    const text = MIXED.split('\n');
    const e = safe[0].edits[0];
    assert.equal(e.range.start.line, e.range.end.line);
    const line = text[e.range.start.line];
    text[e.range.start.line] = line.slice(0, e.range.start.character) + e.newText + line.slice(e.range.end.character);
    runCli(['check', 'a.yaml', '--fix', '--select', 'yaml-boolean-trap'], { cwd: dir });
    assert.equal(readFileSync(join(dir, 'a.yaml'), 'utf8'), text.join('\n'));
    assert.ok(out.some((f) => f.fixes.some((x) => x.applicability === 'unsafe')), 'unsafe fixes are listed too');
  });
  test('a rule prefix ending in - selects the family, on the command line and in .shardwise.yaml; a prefix no rule has is a usage error', () => {
    const dir = project('prefix', { 'a.yaml': MIXED, 'sub/a.yaml': MIXED, 'sub/.shardwise.yaml': 'select: [yaml-]\n' });
    const family = (args: string[]) => [...new Set((JSON.parse(runCli([...args, '--output-format', 'json'], { cwd: dir }).out) as JsonFinding[]).map((f) => `${f.file}:${f.code}`))].sort();
    assert.deepEqual(family(['check', 'a.yaml', '--select', 'yaml-']), ['a.yaml:yaml-boolean-trap']);
    assert.deepEqual(family(['check', 'a.yaml', '--ignore', 'unknown-,yaml-']), []);
    assert.deepEqual(family(['check', 'sub/a.yaml']), ['sub/a.yaml:yaml-boolean-trap']);
    const bad = runCli(['check', 'a.yaml', '--select', 'yamll-'], { cwd: dir });
    assert.equal(bad.code, 2);
    assert.match(bad.err, /no rule id starts with "yamll-" \(did you mean yaml-\?\)/);
    assert.equal(runCli(['check', 'a.yaml', '--select', 'tp-'], { cwd: dir }).code, 0, 'a family with nothing to say here');
  });
  test('--config FILE: that configuration for every file instead of those found; its patterns from its folder; a missing one, one without [tool.shardwise] or with --no-config is refused', () => {
    const dir = project('explicit', { 'a.yaml': MIXED, 'sub/b.yaml': MIXED, 'sub/.shardwise.yaml': 'ignore: [yaml-boolean-trap]\n', 'strict.yaml': 'select: [yaml-boolean-trap, unknown-key]\nper-file-ignores: { "sub/*.yaml": [unknown-key] }\n', 'cfg/pyproject.toml': '[project]\nname = "x"\n' });
    const codesOf = (args: string[]) => [...new Set((JSON.parse(runCli([...args, '--output-format', 'json'], { cwd: dir }).out) as JsonFinding[]).map((f) => `${f.file}:${f.code}`))].sort();
    // sub/.shardwise.yaml is not read: its file keeps the trap; the patterns are the named file's, from its folder.
    assert.deepEqual(codesOf(['check', 'a.yaml', 'sub/b.yaml', '--config', 'strict.yaml']), ['a.yaml:unknown-key', 'a.yaml:yaml-boolean-trap', 'sub/b.yaml:yaml-boolean-trap']);
    assert.ok(!codesOf(['check', 'a.yaml', 'sub/b.yaml']).includes('sub/b.yaml:yaml-boolean-trap'), 'without it, the configuration found');
    for (const [config, why] of [['cfg/none.yaml', /cfg\/none\.yaml: cannot be read: it does not exist/], ['cfg/pyproject.toml', /has no \[tool\.shardwise\] table/]] as const) {
      const r = runCli(['check', '.', '--config', config], { cwd: dir });
      assert.equal(r.code, 2);
      assert.match(r.err, why);
      assert.equal(r.out, '');
    }
    const both = runCli(['check', '.', '--config', 'cfg/strict.yaml', '--no-config'], { cwd: dir });
    assert.equal(both.code, 2);
    assert.match(both.err, /give one of them/);
  });
});
