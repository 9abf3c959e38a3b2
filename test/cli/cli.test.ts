/** The built `shardwise` CLI, as CI uses it. Run after `npm run build`. */
import assert from 'node:assert/strict';
import { chmodSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { applyPatch, parsePatch } from 'diff';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, test } from 'node:test';
import { parse } from 'yaml';
import { corpusSkip, findCorpus } from '../corpus-path';
import { sarifValidator } from '../sarif-schema';
import { ROOT, runCli, type JsonFinding } from './run-cli';

const CORPUS = findCorpus();
const tmp = mkdtempSync(join(tmpdir(), 'shardwise-cli-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

function run(args: string[], cwd = ROOT): { code: number; out: string; err: string } {
  return runCli(args, { cwd });
}

function json(args: string[], cwd = ROOT): { code: number; findings: JsonFinding[] } {
  const r = run([...args, '--format', 'json'], cwd);
  return { code: r.code, findings: JSON.parse(r.out) as JsonFinding[] };
}

test('check --format json: yaml-boolean-trap on the `mixed_precision: no` line, exit 1', () => {
  const file = join(tmp, 'trap.yaml');
  writeFileSync(file, 'distributed_type: MULTI_GPU\nnum_processes: 2\nmixed_precision: no\n# shardwise: accelerate=1.14.0\n');
  const { code, findings } = json(['check', file]);
  assert.equal(code, 1);
  assert.deepEqual(findings, [
    {
      file,
      range: { start: { line: 2, character: 17 }, end: { line: 2, character: 19 } },
      severity: 'error',
      code: 'yaml-boolean-trap',
      message: findings[0].message,
      fixes: [{ title: findings[0].fixes[0].title, applicability: 'safe', edits: [{ range: { start: { line: 2, character: 17 }, end: { line: 2, character: 19 } }, newText: "'no'" }] }],
    },
  ]);
  assert.match(findings[0].message, /Quote it/);
});

test('exit codes: 0 when clean (warnings allowed), 2 on usage or I/O failure', () => {
  const clean = join(tmp, 'clean.yaml');
  writeFileSync(clean, 'distributed_type: MULTI_GPU\nnum_processes: 8\nmixed_precision: bf16\n');
  assert.equal(run(['check', clean]).code, 0);
  const warn = join(tmp, 'warn.yaml');
  writeFileSync(warn, 'distributed_type: MULTI_GPU\nnum_processes: 1\n');
  const w = run(['check', warn, '--target', 'accelerate=1.9.0']);
  assert.equal(w.code, 0);
  assert.match(w.out, /warning \[multi-gpu-single-process\]/);
  assert.equal(run(['check', join(tmp, 'missing.yaml')]).code, 2);
  assert.equal(run(['check', clean, '--format', 'xml']).code, 2);
  assert.equal(run(['check', clean, '--bogus']).code, 2);
  assert.equal(run(['frobnicate']).code, 2);
  assert.equal(run([]).code, 2);
  assert.equal(run(['explain', 'no-such-rule']).code, 2);
});

test('check on the Accelerate corpus gives exactly the error-level findings the expectations list', { skip: corpusSkip() }, () => {
  const expectations = parse(readFileSync(join(ROOT, 'test/corpus/expectations.yaml'), 'utf8')).accelerate as Record<string, { errors: string[] }>;
  const dir = join(CORPUS, 'accelerate');
  const { code, findings } = json(['check', dir, '--no-config']);
  assert.equal(code, 1);
  const byFile = new Map<string, Set<string>>();
  for (const f of findings) if (f.severity === 'error') byFile.set(f.file, (byFile.get(f.file) ?? new Set()).add(f.code));
  const actual = Object.fromEntries([...byFile].map(([f, codes]) => [f.slice(dir.length + 1), [...codes].sort()]));
  const expected = Object.fromEntries(Object.entries(expectations).filter(([, e]) => e.errors.length).map(([f, e]) => [f, [...e.errors].sort()]));
  assert.deepEqual(actual, expected);
});

test('check on examples/ reports the planted mistakes, with the project .shardwise.yaml applied', () => {
  const { code, findings } = json(['check', 'examples']);
  assert.equal(code, 1);
  const codes = (name: string) => findings.filter((f) => f.file.endsWith(name)).map((f) => `${f.severity}:${f.code}`).sort();
  assert.deepEqual(codes('typo-and-traps.yaml'), ['error:yaml-boolean-trap', 'warning:unknown-key']);
  assert.deepEqual(codes('multi-node.yaml'), ['warning:multi-node-missing-main-process', 'warning:num-processes-not-divisible-by-machines']);
  assert.deepEqual(codes('nd-parallel.yaml'), ['error:parallelism-requires-fsdp2', 'warning:fsdp1-reshard-after-forward-ignored', 'warning:missing-key-prefix']);
  assert.deepEqual(codes('deepspeed-zero.yaml'), ['information:zero3-init-without-stage3']);
  assert.ok(codes('fsdp2-migration.yaml').includes('error:fsdp2-unsupported-key'));
  assert.deepEqual(codes('clean-fsdp2-hsdp.yaml'), []);
  assert.deepEqual(codes('megatron-70b.yaml'), ['warning:tp-exceeds-nvlink-domain']);
  const trap = findings.find((f) => f.code === 'yaml-boolean-trap')!;
  assert.equal(trap.range.start.line, 6);
});

test('.shardwise.yaml at or above the file sets rule severities; --no-config ignores it; CLI flags win', () => {
  const dir = join(tmp, 'proj', 'sub');
  cpSync(join(ROOT, 'examples/accelerate/deepspeed-zero.yaml'), join(dir, 'ds.yaml'), { recursive: true });
  writeFileSync(join(tmp, 'proj', '.shardwise.yaml'), 'rules:\n  zero3-init-without-stage3: error\n');
  assert.deepEqual(json(['check', dir]).findings.map((f) => f.severity), ['error']);
  assert.deepEqual(json(['check', dir, '--no-config']).findings.map((f) => f.severity), ['information']);
  writeFileSync(join(dir, '.shardwise.yaml'), 'rules:\n  zero3-init-without-stage3: off\n');
  assert.deepEqual(json(['check', dir]).findings, []);
});

test('--target makes version checks apply', () => {
  const file = join(tmp, 'pc.yaml');
  writeFileSync(file, 'distributed_type: MULTI_GPU\nnum_processes: 8\nparallelism_config:\n  parallelism_config_dp_shard_size: 8\n');
  assert.deepEqual(json(['check', file]).findings, []);
  const old = json(['check', file, '--target', 'accelerate=1.9.0']);
  assert.equal(old.code, 1);
  assert.ok(old.findings.every((f) => f.code === 'version-unsupported-key'));
  assert.equal(run(['check', file, '--target', 'pytorch=2.0']).code, 2);
  // Pre-releases and dev builds are releases as pip writes them.
  assert.equal(json(['check', file, '--target', 'accelerate=1.9.0rc1']).code, 1);
  assert.equal(json(['check', file, '--target', 'accelerate=1.13.0.dev0']).code, 0);
  assert.equal(run(['check', file, '--target', 'accelerate=1.9.x']).code, 2);
});

test('--fix applies the preferred fixes in place', () => {
  const file = join(tmp, 'fixme.yaml');
  writeFileSync(file, 'distributed_type: multi_gpu\nnum_processes: 2\nmixed_precision: no\n# shardwise: accelerate=1.14.0\n');
  assert.equal(run(['check', file, '--fix']).code, 0);
  assert.equal(readFileSync(file, 'utf8'), "distributed_type: MULTI_GPU\nnum_processes: 2\nmixed_precision: 'no'\n# shardwise: accelerate=1.14.0\n");
});

/** The Plan of every document of every config under `dir`, by file (relative path). */
function plans(dir: string): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  for (const f of listConfigs(dir)) {
    const r = run(['layout', f, '--format', 'json']);
    if (r.code === 0) out.set(relative(dir, f), JSON.parse(r.out) as unknown[]);
  }
  return out;
}

function listConfigs(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ya?ml|json|sh)$/.test(f) && !f.endsWith('.shardwise.yaml'))
    .map((f) => join(dir, f))
    .sort();
}

/** Where two JSON values differ: `path: before → after`, depth first. */
function changes(a: unknown, b: unknown, path = ''): string[] {
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.flatMap((k) => changes((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], Array.isArray(a) ? `${path}[${k}]` : path ? `${path}.${k}` : k));
  }
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [`${path}: ${JSON.stringify(a)} → ${JSON.stringify(b)}`];
}

/** The decisions a Plan holds, without provenance (which legitimately moves when text moves). */
function decisions(plan: unknown): unknown {
  return JSON.parse(JSON.stringify(plan, (k, v) => (k === 'from' || k === 'knobs' || k === 'notes' || k === 'effective' ? undefined : v)));
}

test('--fix on examples/: only safe fixes, no number, precision, degree or switch changes; --diff shows exactly what --fix writes; a second --fix changes nothing', () => {
  const work = join(tmp, 'examples-fix');
  cpSync(join(ROOT, 'examples'), work, { recursive: true });
  const diffCopy = join(tmp, 'examples-diff');
  cpSync(join(ROOT, 'examples'), diffCopy, { recursive: true });
  const before = plans(work);
  const originals = new Map(listConfigs(work).map((f) => [relative(work, f), readFileSync(f, 'utf8')]));

  const diff = run(['check', diffCopy, '--diff']);
  assert.equal(diff.code, 1, `--diff exits 1 when there is a diff:\n${diff.err}`);
  for (const f of listConfigs(diffCopy)) assert.equal(readFileSync(f, 'utf8'), originals.get(relative(diffCopy, f)), `--diff changed ${f}`);

  const fixed = run(['check', work, '--fix']);
  assert.match(fixed.err, /\d+ fixes applied/);
  const changed = [...originals].filter(([f, text]) => readFileSync(join(work, f), 'utf8') !== text).map(([f]) => f).sort();
  // Several examples carry a safe fix (a prefix rename that makes an ignored key take effect is not one).
  assert.ok(changed.length >= 4, `only ${changed.length} files were fixed: ${changed.join(', ')}`);

  // The unified diff, applied to the originals, gives exactly the fixed files.
  const patches = parsePatch(diff.out);
  assert.deepEqual(patches.map((p) => relative(diffCopy, p.newFileName!.replace(/^b\//, ''))).sort(), changed);
  for (const patch of patches) {
    const name = relative(diffCopy, patch.newFileName!.replace(/^b\//, ''));
    assert.equal(applyPatch(originals.get(name)!, patch), readFileSync(join(work, name), 'utf8'), `--diff and --fix disagree on ${name}`);
  }

  // Every decision stays: the Plans are equal, except where a misspelled key the tool refuses (the
  // file could not run) now takes effect. A slip in a section that ignores unknown keys is not
  // fixed: `fsdp_versoin: 2` runs FSDP1 today, and renaming it would run FSDP2.
  const after = plans(work);
  assert.match(readFileSync(join(work, 'accelerate/typo-and-traps.yaml'), 'utf8'), /^ {2}fsdp_versoin: 2$/m, 'a rename that changes the run is not a safe fix');
  assert.match(readFileSync(join(work, 'megatron/bridge-llama3-70b-override.yaml'), 'utf8'), /overlap_param_gathr/, 'nor in a Bridge override, which ignores the key');
  const misspelled: Record<string, string[]> = {
    'megatron/pretrain-llama3-8b.sh': ['[0].overlap.gradReduce.value: false → true'], // --overlap-grad-reduse
  };
  assert.ok(before.size >= 10, `only ${before.size} files have a layout`);
  for (const [file, p] of before) assert.deepEqual(changes(decisions(p), decisions(after.get(file))), misspelled[file] ?? [], `--fix changed a decision in ${file}`);
  assert.match(readFileSync(join(work, 'megatron/pretrain-llama3-8b.sh'), 'utf8'), /^TP=4$/m);
  assert.equal(readFileSync(join(work, 'megatron/pretrain-llama3-8b.sh'), 'utf8').match(/--overlap-grad-reduce\b/g)?.length, 1);
  assert.equal(readFileSync(join(work, 'deepspeed/ds_batch.json'), 'utf8').match(/"train_batch_size": (\d+)/)?.[1], originals.get('deepspeed/ds_batch.json')!.match(/"train_batch_size": (\d+)/)?.[1]);

  const snapshot = listConfigs(work).map((f) => readFileSync(f, 'utf8'));
  const again = run(['check', work, '--fix']);
  assert.match(again.err, /0 fixes applied/);
  assert.deepEqual(listConfigs(work).map((f) => readFileSync(f, 'utf8')), snapshot, 'a second --fix changed something');
  assert.equal(run(['check', work, '--diff']).code, 0, '--diff after --fix has nothing to show');
});

test('--unsafe-fixes adds the fixes that change a decision; --show-fixes lists each fix with its applicability', () => {
  const file = join(tmp, 'ds_unsafe.json');
  const text = readFileSync(join(ROOT, 'examples/deepspeed/ds_batch.json'), 'utf8');
  writeFileSync(file, text);
  const shown = run(['check', file, '--show-fixes']);
  assert.match(shown.out, /^ {4}fix \(unsafe\): Set train_batch_size to \d+ \(changes the batch size\)$/m);
  assert.match(shown.out, /^ {4}fix \(safe\): Remove /m);
  const withJson = JSON.parse(run(['check', file, '--show-fixes', '--format', 'json']).out) as { code: string; fixes: { title: string; applicability: string }[] }[];
  assert.ok(withJson.find((f) => f.code === 'batch-size-mismatch')!.fixes.every((x) => x.applicability === 'unsafe'));
  assert.equal(run(['check', file, '--unsafe-fixes']).code, 2, '--unsafe-fixes alone is a usage error');
  run(['check', file, '--fix']);
  const safe = readFileSync(file, 'utf8');
  assert.match(safe, /"train_batch_size": 30/);
  run(['check', file, '--fix', '--unsafe-fixes']);
  assert.doesNotMatch(readFileSync(file, 'utf8'), /"train_batch_size": 30/);
});

test('--fix writes nothing it should not: a read-only file is left as it is (exit 2); CRLF, BOM, comments and the mode survive', () => {
  const ro = join(tmp, 'readonly.yaml');
  const text = 'distributed_type: MULTI_GPU\nnum_processes: 2\nmixed_precision: no\n# shardwise: accelerate=1.14.0\n';
  writeFileSync(ro, text);
  chmodSync(ro, 0o444);
  const r = run(['check', ro, '--fix']);
  assert.equal(r.code, 2);
  assert.match(r.err, /was not fixed: it is read-only; the file is unchanged/);
  assert.equal(readFileSync(ro, 'utf8'), text);
  assert.equal(statSync(ro).mode & 0o777, 0o444);

  const crlf = join(tmp, 'crlf.yaml');
  writeFileSync(crlf, '\ufeff# launch config\r\ndistributed_type: MULTI_GPU  # two GPUs\r\nnum_processes: 2\r\nmixed_precision: no\r\n');
  chmodSync(crlf, 0o640);
  assert.equal(run(['check', crlf, '--fix']).code, 0);
  assert.equal(readFileSync(crlf, 'utf8'), "\ufeff# launch config\r\ndistributed_type: MULTI_GPU  # two GPUs\r\nnum_processes: 2\r\nmixed_precision: 'no'\r\n");
  assert.equal(statSync(crlf).mode & 0o777, 0o640);
  assert.deepEqual(readdirSync(tmp).filter((f) => f.endsWith('.tmp')), [], 'a temporary file was left behind');
});

test('--format sarif is SARIF 2.1.0 with rule metadata and locations', () => {
  const file = join(tmp, 'trap.yaml');
  const r = run(['check', file, '--format', 'sarif']);
  const sarif = JSON.parse(r.out);
  assert.equal(sarif.version, '2.1.0');
  const result = sarif.runs[0].results[0];
  assert.equal(result.ruleId, 'yaml-boolean-trap');
  assert.equal(result.level, 'error');
  assert.deepEqual(result.locations[0].physicalLocation.region, { startLine: 3, startColumn: 18, endLine: 3, endColumn: 20 });
  assert.equal(sarif.runs[0].tool.driver.rules[result.ruleIndex].id, 'yaml-boolean-trap');
  const validate = sarifValidator();
  assert.ok(validate(sarif), JSON.stringify(validate.errors?.slice(0, 3)));
});

test('--output-format sarif: valid for any file name; relative paths under %SRCROOT%; every rule links to its documentation', () => {
  const dir = join(tmp, 'sarif dir #1');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'a b#c%d.yaml'), 'compute_environment: LOCAL_MACHINE\ndistributed_type: MULTI_GPU\nmixed_precision: no\n# shardwise: accelerate=1.14.0\n');
  const r = run(['check', '.', '--output-format', 'sarif'], dir);
  assert.equal(r.code, 1, r.err);
  const sarif = JSON.parse(r.out);
  const validate = sarifValidator();
  assert.ok(validate(sarif), JSON.stringify(validate.errors?.slice(0, 3)));
  const [run0] = sarif.runs;
  assert.deepEqual(run0.results[0].locations[0].physicalLocation.artifactLocation, { uri: 'a%20b%23c%25d.yaml', uriBaseId: '%SRCROOT%' });
  assert.equal(decodeURIComponent(new URL(run0.results[0].locations[0].physicalLocation.artifactLocation.uri, run0.originalUriBaseIds['%SRCROOT%'].uri).pathname), join(dir, 'a b#c%d.yaml'));
  const repository = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).repository;
  const rulesMd = readFileSync(join(ROOT, 'docs', 'rules.md'), 'utf8');
  for (const rule of run0.tool.driver.rules) {
    assert.equal(rule.helpUri, `${(repository?.url ?? repository ?? '').replace(/^git\+/, '').replace(/\.git$/, '')}/blob/main/docs/rules.md#${rule.id}`, 'the documentation is in the repository package.json names');
    assert.ok(rulesMd.includes(`## \`${rule.id}\``), `docs/rules.md has a section whose anchor is #${rule.id}`);
  }
});

test('a cross-file conflict names its other places: relatedLocations in SARIF (the linked JSON by its own path), related in JSON', () => {
  const dir = join(tmp, 'related');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'ds.json'), '{\n  "train_micro_batch_size_per_gpu": 1,\n  "bf16": { "enabled": true }\n}\n');
  writeFileSync(join(dir, 'accelerate.yaml'), 'compute_environment: LOCAL_MACHINE\ndistributed_type: DEEPSPEED\ndeepspeed_config:\n  deepspeed_config_file: ds.json\nmixed_precision: bf16\nnum_processes: 8\n');
  const sarif = JSON.parse(run(['check', 'accelerate.yaml', '--output-format', 'sarif'], dir).out);
  const validate = sarifValidator();
  assert.ok(validate(sarif), JSON.stringify(validate.errors?.slice(0, 3)));
  const conflict = sarif.runs[0].results.find((r: { ruleId: string }) => r.ruleId === 'deepspeed-config-file-conflict');
  assert.ok(conflict, JSON.stringify(sarif.runs[0].results.map((r: { ruleId: string }) => r.ruleId)));
  const places = conflict.relatedLocations.map((l: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }) => `${l.physicalLocation.artifactLocation.uri}:${l.physicalLocation.region.startLine}`);
  assert.deepEqual(places, ['accelerate.yaml:4', 'ds.json:3'], 'the deepspeed_config_file line and the JSON line that sets bf16');
  const json = JSON.parse(run(['check', 'accelerate.yaml', '--output-format', 'json'], dir).out);
  const finding = json.find((f: { code: string }) => f.code === 'deepspeed-config-file-conflict');
  assert.deepEqual(finding.related.map((r: { file?: string; range: { start: { line: number } } }) => `${r.file ?? '(same file)'}:${r.range.start.line}`), ['(same file):3', 'ds.json:2']);
});

test('--output-format github: one workflow command per finding, with what the syntax reserves escaped', () => {
  const dir = join(tmp, 'github');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'a,b:c%.yaml'), 'compute_environment: LOCAL_MACHINE\ndistributed_type: FSDP\nnum_processes: 2\nmixed_precision: no\nfsdp_config:\n  fsdp_versoin: 2\n# shardwise: accelerate=1.14.0\n');
  const r = run(['check', '.', '--output-format', 'github'], dir);
  assert.equal(r.code, 1, r.err);
  const lines = r.out.trimEnd().split('\n');
  assert.equal(lines.length, 2, r.out);
  assert.match(lines[0], /^::error file=a%2Cb%3Ac%25\.yaml,line=4,endLine=4,col=18,endColumn=19,title=shardwise \(yaml-boolean-trap\)::Unquoted `no` /);
  assert.match(lines[1], /^::warning file=a%2Cb%3Ac%25\.yaml,line=6,endLine=6,col=3,endColumn=14,title=shardwise \(unknown-key\)::/);
  assert.equal(run(['check', '.', '--format', 'github'], dir).out, r.out, '--format is the same option');
  assert.match(run(['check', '.', '--output-format', 'xml'], dir).err, /--output-format must be text, full, json, sarif, github, gitlab or junit, not "xml"/);
});

test('explain prints a rule; rules lists every rule; docs --check agrees with docs/rules.md', () => {
  const e = run(['explain', 'unknown-key']);
  assert.equal(e.code, 0);
  assert.match(e.out, /^# `unknown-key`/);
  assert.match(e.out, /Triggers it:/);
  const rules = run(['rules']);
  assert.ok(rules.out.split('\n').filter(Boolean).length >= 25);
  assert.equal(run(['docs', '--check', 'docs/rules.md']).code, 0);
});

test('layout prints the Plan with provenance, groups and memory; json gives the Plan itself', () => {
  const r = run(['layout', 'examples/accelerate/megatron-70b.yaml']);
  assert.equal(r.code, 0);
  const lines = r.out.split('\n');
  assert.match(lines[0], /^64 GPUs = TP 16 × PP 2 × CP 1 × DP 2 · ~[\d.]+ GiB\/GPU of 80 · h100-sxm$/);
  assert.match(r.out, /^release: Accelerate 1\.14\.0, as set$/m, 'what the file is checked against, and how that is known');
  assert.match(r.out, /TP \(tensor parallel\)\s+16\s+set by `megatron_lm_config\.megatron_lm_tp_degree`/);
  assert.match(r.out, /expert TP\s+1\s+default: the Megatron-LM plugin sets expert TP to 1/);
  assert.match(r.out, /DP \(data parallel\)\s+2\s+DP = 64 \/ \(TP 16 × PP 2 × CP 1\) = 2/);
  assert.match(r.out, /hardware: h100-sxm .*hardware profile `h100-sxm`/);
  assert.match(r.out, /TP 16: InfiniBand/);
  assert.match(r.out, /Memory per GPU: ~[\d.]+ GiB of 80/);
  const json = JSON.parse(run(['layout', 'examples/accelerate/megatron-70b.yaml', '--format', 'json']).out);
  assert.equal(json[0].dp.value, 2);
  assert.deepEqual(json[0].dp.from, { kind: 'derived', formula: 'DP = 64 / (TP 16 × PP 2 × CP 1) = 2' });
  assert.equal(run(['layout', join(tmp, 'clean.yaml'), '--hardware', 'gb200-nvl72']).out.split('\n')[0], '8 GPUs = DP 8 · gb200-nvl72');
  const pod = join(tmp, 'pod.yaml');
  writeFileSync(pod, 'kind: Pod\n');
  assert.equal(run(['layout', pod]).code, 2);
  assert.equal(run(['layout']).code, 2);
});

/** A continuation-style launch script on one 8-GPU node with the given Megatron flags. */
function launchScript(name: string, flags: string[]): string {
  const file = join(tmp, name);
  const lines = ['#!/bin/bash', 'export CUDA_DEVICE_MAX_CONNECTIONS=1', 'torchrun --nproc_per_node 8 --nnodes 1 pretrain_gpt.py \\', ...flags.map((f) => `    ${f} \\`), '    --bf16', ''];
  writeFileSync(file, lines.join('\n'));
  return file;
}

test('check --format json on launch scripts: the layout and argument errors Megatron would stop on', () => {
  const grid = launchScript('grid.sh', ['--tensor-model-parallel-size 8', '--pipeline-model-parallel-size 16', '--sequence-parallel', '--tp-comm-overlap']);
  // Releases before Megatron Core 0.9.0 cut PP to fit and run: the error is for a release that stops.
  const g = json(['check', grid, '--target', 'megatron-core=0.9.0']);
  assert.equal(g.code, 1);
  const mismatch = g.findings.find((f) => f.code === 'world-size-mismatch');
  assert.ok(mismatch, `no world-size-mismatch: ${g.findings.map((f) => f.code).join(', ')}`);
  assert.equal(mismatch.severity, 'error');
  assert.match(mismatch.message, /8 GPUs .* TP 8 × PP 16 × CP 1 = 128/);

  const heads = launchScript('heads.sh', ['--tensor-model-parallel-size 8', '--sequence-parallel', '--tp-comm-overlap', '--num-layers 24', '--hidden-size 2560', '--num-attention-heads 20']);
  const h = json(['check', heads]).findings.find((f) => f.code === 'heads-not-divisible-by-tp');
  assert.ok(h, 'no heads-not-divisible-by-tp');
  // On the TP value of the flag line.
  assert.deepEqual(h.range, { start: { line: 3, character: 33 }, end: { line: 3, character: 34 } });

  const overlap = launchScript('overlap.sh', ['--tensor-model-parallel-size 2', '--sequence-parallel', '--tp-comm-overlap', '--overlap-grad-reduce', '--overlap-param-gather']);
  const o = json(['check', overlap]).findings.find((f) => f.code === 'overlap-param-gather-requires-distributed-optimizer');
  assert.ok(o, 'no overlap-param-gather-requires-distributed-optimizer');
  assert.equal(readFileSync(overlap, 'utf8').split('\n')[o.range.start.line].trim(), '--overlap-param-gather \\');

  // With the fixes Megatron would accept, the same scripts are clean of errors.
  const fixed = launchScript('fixed.sh', ['--tensor-model-parallel-size 8', '--pipeline-model-parallel-size 1', '--sequence-parallel', '--tp-comm-overlap', '--num-attention-heads 32', '--use-distributed-optimizer', '--overlap-grad-reduce', '--overlap-param-gather']);
  assert.equal(json(['check', fixed]).findings.filter((f) => f.severity === 'error').length, 0);
});

// ---- an Accelerate config and the DeepSpeed JSON it points at (`deepspeed_config_file`) ----

import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/** A fresh folder under tmp with the given files (relative path → text). */
function project(name: string, files: Record<string, string>): string {
  const dir = join(tmp, name);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

function dsAccelerate(ref: string, extra: string[] = [], processes = 8): string {
  return ['distributed_type: DEEPSPEED', `num_processes: ${processes}`, 'deepspeed_config:', `  deepspeed_config_file: ${ref}`, ...extra, ''].join('\n');
}

const DS_STAGE3 = '{\n  "train_micro_batch_size_per_gpu": "auto",\n  "fp16": { "enabled": true },\n  "zero_optimization": { "stage": 3 }\n}\n';

test('check --format json <dir>: zero_stage next to deepspeed_config_file → deepspeed-config-file-conflict on zero_stage', () => {
  const dir = project('ds-conflict', { 'accelerate.yaml': dsAccelerate('ds_config.json', ['  zero_stage: 2']), 'ds_config.json': DS_STAGE3 });
  // Accelerate refuses the pair from 0.16.0 (an error for a release that does; a warning when none is named).
  const { code, findings } = json(['check', dir, '--target', 'accelerate=1.6.0']);
  assert.equal(code, 1);
  const conflict = findings.find((f) => f.code === 'deepspeed-config-file-conflict');
  assert.ok(conflict, `no deepspeed-config-file-conflict: ${findings.map((f) => f.code).join(', ')}`);
  assert.equal(conflict.file, join(dir, 'accelerate.yaml'));
  assert.equal(conflict.range.start.line, 4, 'on the zero_stage line');
  assert.ok(!findings.some((f) => f.code === 'deepspeed-config-file-missing'), 'the JSON next to the config is found');
});

test('check: a JSON checked with its config takes the world size from num_processes → batch-size-mismatch', () => {
  // 30 ≠ micro 4 × accumulation 2 × 4 processes = 32.
  const dir = project('ds-batch', {
    'accelerate.yaml': dsAccelerate('ds_batch.json', [], 4),
    'ds_batch.json': '{\n  "train_batch_size": 30,\n  "train_micro_batch_size_per_gpu": 4,\n  "gradient_accumulation_steps": 2,\n  "zero_optimization": { "stage": 2 }\n}\n',
  });
  const together = json(['check', dir]);
  const mismatch = together.findings.find((f) => f.code === 'batch-size-mismatch');
  assert.ok(mismatch, `no batch-size-mismatch: ${together.findings.map((f) => f.code).join(', ')}`);
  assert.equal(mismatch.file, join(dir, 'ds_batch.json'));
  assert.match(mismatch.message, /\b4\b/);
  assert.match(mismatch.message, /\b32\b/, 'the product with the 4 processes of the config');
  assert.equal(together.code, 1);
  // Checked alone, the JSON knows no world size: whatever it says, it is not the product with 4 processes.
  const alone = json(['check', join(dir, 'ds_batch.json')]).findings.find((f) => f.code === 'batch-size-mismatch');
  assert.ok(!alone || !/\b32\b/.test(alone.message), alone?.message);
  // The order on the command line does not matter, and files are reported in that order.
  const reversed = json(['check', join(dir, 'ds_batch.json'), join(dir, 'accelerate.yaml')]);
  assert.equal(reversed.findings[0]?.file, join(dir, 'ds_batch.json'));
  assert.ok(reversed.findings.some((f) => f.code === 'batch-size-mismatch' && /\b32\b/.test(f.message)));
});

test('check: a referenced JSON that is not among the checked paths is still read; relative paths are tried from the file, the folders above it up to the current directory, then the current directory', () => {
  const dir = project('ds-resolve', {
    'configs/accelerate.yaml': dsAccelerate('ds/zero3.json', [], 8).replace('num_processes: 8', 'num_processes: 8\nmixed_precision: bf16'),
    'ds/zero3.json': DS_STAGE3,
  });
  const yaml = join(dir, 'configs', 'accelerate.yaml');
  // From the project folder (where `accelerate launch` would run), ds/zero3.json is found: fp16 there vs bf16 here.
  const found = json(['check', yaml], dir);
  assert.ok(found.findings.some((f) => f.code === 'mixed-precision-conflict'), `codes: ${found.findings.map((f) => f.code).join(', ')}`);
  assert.ok(!found.findings.some((f) => f.code === 'deepspeed-config-file-missing'));
  // From a folder above the project, the project folder is one the launch may run in: found too.
  assert.ok(!json(['check', yaml], tmp).findings.some((f) => f.code === 'deepspeed-config-file-missing'));
  // From a folder the config is not in, it is not: the message lists every location tried, in order.
  const elsewhere = mkdtempSync(join(tmpdir(), 'shardwise-cli-elsewhere-'));
  const missing = json(['check', yaml], elsewhere).findings.find((f) => f.code === 'deepspeed-config-file-missing');
  assert.ok(missing, 'no deepspeed-config-file-missing');
  const first = join(dir, 'configs', 'ds', 'zero3.json');
  const second = join(elsewhere, 'ds', 'zero3.json');
  assert.ok(missing.message.includes(first) && missing.message.includes(second), missing.message);
  assert.ok(missing.message.indexOf(first) < missing.message.indexOf(second), missing.message);
  rmSync(elsewhere, { recursive: true, force: true });
});

test('check --format json on examples/deepspeed/ds_batch.json: batch-size-mismatch and fp16-and-bf16-enabled, on their values', () => {
  const file = join(ROOT, 'examples/deepspeed/ds_batch.json');
  const text = readFileSync(file, 'utf8');
  const { code, findings } = json(['check', file]);
  assert.equal(code, 1);
  const at = (f: JsonFinding) => text.split('\n')[f.range.start.line].slice(f.range.start.character, f.range.end.character);
  const batch = findings.find((f) => f.code === 'batch-size-mismatch');
  assert.ok(batch, findings.map((f) => f.code).join(', '));
  assert.equal(batch.severity, 'error');
  assert.equal(at(batch), '30');
  assert.match(batch.message, /not a multiple of micro batch 4 × gradient accumulation 2 = 8/);
  const both = findings.find((f) => f.code === 'fp16-and-bf16-enabled');
  assert.ok(both);
  assert.equal(at(both), 'true');
  assert.equal(text.split('\n')[both.range.start.line].trim(), '"enabled": true,');
});

test('a DeepSpeed JSON saved as .conf is checked when an Accelerate config names it, and not otherwise', () => {
  const dir = mkdtempSync(join(tmp, 'conf-'));
  const ds = '{\n  "zero_optimization": { "stage": 3, "bogus_key": 1 },\n  "train_batch_size": 16\n}\n';
  writeFileSync(join(dir, 'accel.yaml'), 'compute_environment: LOCAL_MACHINE\ndistributed_type: DEEPSPEED\nnum_processes: 8\ndeepspeed_config:\n  deepspeed_config_file: ds/stage3.conf\n  zero3_init_flag: true\n');
  mkdirSync(join(dir, 'ds'));
  writeFileSync(join(dir, 'ds', 'stage3.conf'), ds);
  writeFileSync(join(dir, 'orphan.conf'), ds);
  const { findings } = json(['check', '.', '--no-config'], dir);
  const files = [...new Set(findings.map((f) => f.file))];
  assert.ok(findings.some((f) => f.file === 'ds/stage3.conf' && f.code === 'unknown-key' && /bogus_key/.test(f.message)), files.join(', '));
  // A .conf file nothing names is not read: it may be anything.
  assert.ok(!files.some((f) => f.endsWith('orphan.conf')), files.join(', '));
});

test('a mistake in the command line is a usage error with a suggestion, never a silent fallback', () => {
  const hw = run(['check', 'examples/accelerate/megatron-70b.yaml', '--hardware', 'h900']);
  assert.equal(hw.code, 2, 'an unknown hardware profile is not replaced by the default one');
  assert.match(hw.err, /^shardwise: unknown hardware "h900" \(did you mean h200\?\); the profiles are a100-40gb, .*mi300x$/m);
  assert.equal(hw.out, '', 'nothing is checked');
  assert.equal(hw.err.split('\n').filter(Boolean).length, 2, 'the mistake and a pointer to --help, not the whole help');
  assert.match(hw.err, /Run `shardwise --help` for the commands and their options\.\n$/);
  assert.equal(run(['-V']).out, run(['--version']).out);
  const rule = run(['explain', 'yaml-bolean-trap']);
  assert.equal(rule.code, 2);
  assert.match(rule.err, /unknown rule "yaml-bolean-trap" \(did you mean yaml-boolean-trap\?\)/);
  for (const command of ['check', 'layout', 'explain', 'rules', 'docs']) {
    const help = run([command, '--help']);
    assert.equal(help.code, 0, `${command} --help`);
    assert.match(help.out, /^Usage:\n {2}shardwise check/, `${command} --help prints the usage`);
    assert.equal(help.err, '');
  }
});

test('a Kubernetes job template whose placeholders YAML reads as mappings (`value: {{ model }}`) is read for its GPUs without a library warning on stderr', () => {
  const dir = join(tmp, 'template');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'job.yaml'), 'apiVersion: batch/v1\nkind: Job\nspec:\n  template:\n    spec:\n      containers:\n      - name: trainer\n        resources:\n          limits:\n            nvidia.com/gpu: 8\n        env:\n        - name: MODEL\n          value: {{ model }}\n');
  const r = run(['check', dir]);
  assert.equal(r.code, 0);
  assert.doesNotMatch(r.err, /Warning|stringified/);
});
