import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { continues } from '../../server/src/engine/directives';
import { analyze, applyEdits, codeActions, complete, explain, fixRound, hover, parseProjectConfig, RULES, rulesMarkdown, settingsFromClient } from '../../server/src/engine';

const at = (text: string, marker: string, delta = 0) => text.indexOf(marker) + delta;

test('hover on a key: the schema doc, type, default and environment variable', () => {
  const text = 'distributed_type: MULTI_GPU\nnum_processes: 16\nnum_machines: 2\n';
  const h = hover(analyze({ path: 'a.yaml', text }), at(text, 'num_processes', 3))!;
  assert.ok(h, 'a hover');
  assert.match(h.markdown, /\*\*num_processes\*\*/);
  assert.match(h.markdown, /total/i);
  assert.match(h.markdown, /Type: an integer ≥ 1/);
  assert.equal(text.slice(h.span.start, h.span.end), 'num_processes');
});

test('hover on an enum value explains that value; on a nested bare key, the prefixed key', () => {
  const text = 'distributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n  offload_params: true\n';
  const a = analyze({ path: 'a.yaml', text });
  const v = hover(a, at(text, 'FSDP', 1))!;
  assert.match(v.markdown, /`FSDP`: /);
  assert.equal(text.slice(v.span.start, v.span.end), 'FSDP');
  const k = hover(a, at(text, 'offload_params', 2))!;
  assert.match(k.markdown, /\*\*offload_params\*\* · in `fsdp_config`/);
  assert.match(k.markdown, /FSDP_OFFLOAD_PARAMS/);
});

test('hover: no documentation for an unknown key, only what its finding was checked against; nothing on files of no known format', () => {
  const text = 'distributed_type: FSDP\nbogus_key: 1\nnum_processes: 8\n';
  const a = analyze({ path: 'a.yaml', text });
  const h = hover(a, at(text, 'bogus', 1))!;
  assert.doesNotMatch(h.markdown, /\*\*bogus_key\*\*/);
  assert.match(h.markdown, /\*\*Checked against\*\*\n- Release: the newest Accelerate release Shardwise knows \(assumed/);
  assert.equal(text.slice(h.span.start, h.span.end), 'bogus_key');
  assert.doesNotMatch(hover(a, at(text, 'num_processes', 1))!.markdown, /Checked against/, 'a key with no finding: its documentation only');
  const other = 'kind: Pod\nmetadata: {}\n';
  assert.equal(hover(analyze({ path: 'p.yaml', text: other }), 1), undefined);
});

test('hover on any finding says what the file was checked against: the release with the file that pins it, the hardware with its evidence', () => {
  const text = '#!/bin/bash\n#SBATCH --gres=gpu:a100:8\n#SBATCH --nodes=1\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\nsrun torchrun --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 16 --num-layers 32 --hidden-size 4096 --num-attention-heads 32 --micro-batch-size 1 --global-batch-size 8 --bf16\n';
  const a = analyze({ path: 'train.sh', text }, { pins: { 'megatron-core': { spec: '==0.13.0', package: 'megatron-core', file: 'requirements.txt' } } });
  const f = a.findings.find((x) => x.code === 'tp-exceeds-nvlink-domain' || x.code === 'world-size-mismatch');
  assert.ok(f, a.findings.map((x) => x.code).join(', '));
  const h = hover(a, f.span.start)!;
  assert.match(h.markdown, /Release: .*0\.13\.0.*requirements\.txt/);
  assert.match(h.markdown, /Hardware: a100-80gb \(.*#SBATCH --gres=gpu:a100:8/);
});

test('hover: a script a fork reads (Megatron-DeepSpeed) is checked against no Megatron Core release: its release is unknown, not the newest', () => {
  const text = '#!/bin/bash\ndeepspeed --num_gpus 8 pretrain_gpt.py --tensor-model-parallel-size 3 --num-layers 24 --hidden-size 2048 --num-attention-heads 32 --micro-batch-size 1 --global-batch-size 16 --deepspeed --zero-stage 1 --bf16\n';
  const a = analyze({ path: 'train.sh', text });
  const f = a.findings.find((x) => x.code === 'heads-not-divisible-by-tp');
  assert.ok(f, a.findings.map((x) => x.code).join(', '));
  const h = hover(a, f.span.start)!;
  assert.match(h.markdown, /Release: .*read by Megatron-DeepSpeed, whose behaviour no Megatron Core release describes/);
  assert.doesNotMatch(h.markdown, /newest Megatron Core release/);
});

test('hover shows deprecations with the replacement', () => {
  const text = 'distributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n  fsdp_backward_prefetch_policy: BACKWARD_PRE\n';
  const h = hover(analyze({ path: 'a.yaml', text }), at(text, 'fsdp_backward_prefetch_policy', 1))!;
  assert.match(h.markdown, /Deprecated since 1\.0\.0/);
  assert.match(h.markdown, /fsdp_backward_prefetch/);
});

test('completion of top-level keys skips present ones and offers value choices as a snippet', () => {
  const text = 'distributed_type: FSDP\nnum_processes: 8\n\n';
  const items = complete(analyze({ path: 'a.yaml', text }), text.length);
  const labels = items.map((i) => i.label);
  assert.ok(labels.includes('mixed_precision'));
  assert.ok(labels.includes('fsdp_config'));
  assert.ok(!labels.includes('num_processes'), 'present keys are not offered');
  assert.ok(!labels.includes('fp16'), 'deprecated keys are not offered unless typed');
  const mp = items.find((i) => i.label === 'mixed_precision')!;
  assert.equal(mp.snippet, true);
  assert.match(mp.insertText, /^mixed_precision: \$\{1\|.*bf16.*\|\}$/);
  const section = items.find((i) => i.label === 'fsdp_config')!;
  assert.equal(section.insertText, 'fsdp_config:\n  $0');
  // FSDP settings sort before sections the FSDP launcher never reads.
  const rank = (l: string) => items.find((i) => i.label === l)!.sortText;
  assert.ok(rank('fsdp_config') < rank('deepspeed_config'));
});

test('completion of values quotes what YAML 1.1 would misread', () => {
  const text = 'distributed_type: \n';
  const items = complete(analyze({ path: 'a.yaml', text: `# shardwise: format=accelerate\n${text}` }), `# shardwise: format=accelerate\n`.length + 'distributed_type: '.length);
  const no = items.find((i) => i.label === 'NO')!;
  assert.equal(no.insertText, "'NO'");
  assert.ok(items.some((i) => i.label === 'MULTI_GPU' && i.insertText === 'MULTI_GPU'));
  assert.ok(no.documentation && /single process/.test(no.documentation));
});

test('completion inside a section, and in JSON', () => {
  const text = 'distributed_type: FSDP\nfsdp_config:\n  fsdp_ve\n';
  const items = complete(analyze({ path: 'a.yaml', text }), at(text, 'fsdp_ve', 7));
  const v = items.find((i) => i.label === 'fsdp_version')!;
  assert.ok(v);
  assert.equal(text.slice(v.replace.start, v.replace.end), 'fsdp_ve');
  const json = '{"distributed_type": "FSDP", "mixed_precision": ""}';
  const vals = complete(analyze({ path: 'a.json', text: json }), json.lastIndexOf('"'));
  assert.ok(vals.some((i) => i.label === 'bf16' && i.insertText === '"bf16"'));
});

test('code actions: the rule fix, disable for line and file, show documentation', () => {
  const text = 'distributed_type: MULTI_GPU\nnum_processes: 2\nfsdp_config:\n  sub: 1\nmixed_precision: no\n';
  const a = analyze({ path: 'a.yaml', text });
  const f = a.findings.find((x) => x.code === 'yaml-boolean-trap')!;
  const actions = codeActions(a, f.span);
  const titles = actions.map((x) => x.title);
  assert.deepEqual(titles, ["Quote as 'no'", 'Disable yaml-boolean-trap for this line', 'Disable yaml-boolean-trap for this file', 'Show documentation for yaml-boolean-trap']);
  const line = actions[1];
  assert.equal(applyEdits(text, line.edits!), text.replace('mixed_precision: no', '# shardwise-disable-next-line yaml-boolean-trap\nmixed_precision: no'));
  assert.ok(!analyze({ path: 'a.yaml', text: applyEdits(text, line.edits!) }).findings.some((x) => x.code === 'yaml-boolean-trap'));
  const file = applyEdits(text, actions[2].edits!);
  assert.ok(file.startsWith('# shardwise-disable yaml-boolean-trap\n'));
  assert.deepEqual(actions[3].command, { command: 'shardwise.showRuleDocumentation', title: 'Show documentation for yaml-boolean-trap', arguments: ['yaml-boolean-trap'] });
});

test('disable-for-line keeps the indentation and extends an existing directive', () => {
  const text = 'distributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n  # shardwise-disable-next-line fsdp-wrap-policy-mismatch\n  fsdp_versoin: 2\n';
  const a = analyze({ path: 'a.yaml', text });
  const f = a.findings.find((x) => x.code === 'unknown-key')!;
  const edit = codeActions(a, f.span).find((x) => x.title.startsWith('Disable unknown-key for this line'))!;
  assert.equal(applyEdits(text, edit.edits!), text.replace('# shardwise-disable-next-line fsdp-wrap-policy-mismatch', '# shardwise-disable-next-line fsdp-wrap-policy-mismatch, unknown-key'));
});

test('in a launch script, disable-for-line goes above the command a flag continues, and covers the command, never splitting it', () => {
  const text = '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n  --num-layers 32 \\\n  --unknown-flag-x 3 \\\n  --bf16\n';
  const a = analyze({ path: 'train.sh', text });
  const f = a.findings.find((x) => x.code === 'unknown-key')!;
  assert.equal(text.slice(f.span.start, f.span.end), '--unknown-flag-x');
  const edit = codeActions(a, f.span).find((x) => x.title === 'Disable unknown-key for this line')!;
  const after = applyEdits(text, edit.edits!);
  assert.equal(after, text.replace('torchrun', '# shardwise-disable-next-line unknown-key\ntorchrun'));
  const b = analyze({ path: 'train.sh', text: after });
  assert.ok(!b.findings.some((x) => x.code === 'unknown-key'));
  // The command still holds every flag: --bf16 is still read (no finding asks for it).
  assert.deepEqual(b.findings.map((x) => x.code).sort(), a.findings.filter((x) => x.code !== 'unknown-key').map((x) => x.code).sort());
  // Only an odd number of trailing backslashes continues a line (a doubled one is an escaped backslash).
  assert.deepEqual(['a \\', 'a \\\\', 'a \\\\\\', 'a'].map(continues), [true, false, true, false]);
});

test('JSON has no comments: no disable actions are offered', () => {
  const text = '{"distributed_type": "multi_gpu", "num_processes": 2}';
  const a = analyze({ path: 'a.json', text });
  const titles = codeActions(a, a.findings[0].span).map((x) => x.title);
  assert.ok(!titles.some((t) => t.startsWith('Disable')));
  assert.ok(titles.includes('Change to `MULTI_GPU`'));
});

test('fix-all applies every preferred safe fix at once and the result is clean of them; a slip in a section that ignores unknown keys stays (renaming it would change the run)', () => {
  const text = 'distributed_type: multi_gpu\nnum_processes: 2\nmixed_precision: no\nfsdp_config:\n  fsdp_versoin: 2\n';
  const input = { path: 'a.yaml', text };
  const a = analyze(input);
  const fixed = applyEdits(text, fixRound(a, input, {}).edits);
  assert.equal(fixed, "distributed_type: MULTI_GPU\nnum_processes: 2\nmixed_precision: 'no'\nfsdp_config:\n  fsdp_versoin: 2\n");
});

test('.shardwise.yaml: unquoted off means off; mistakes are reported, not fatal', () => {
  const c = parseProjectConfig('root: true\nhardware: h100-sxm\ngpus_per_node: 8\nrules:\n  unknown-key: off\n  invalid-value: info\n  bogus: loud\ntarget_versions:\n  accelerate: "1.10.0"\nwhat: 1\n');
  assert.equal(c.root, true);
  assert.deepEqual(c.settings.rules, { 'unknown-key': 'off', 'invalid-value': 'information' });
  assert.equal(c.settings.gpusPerNode, 8);
  assert.deepEqual(c.settings.targetVersions, { accelerate: '1.10.0' });
  assert.equal(c.problems.length, 2);
  assert.deepEqual(parseProjectConfig(': : :').settings, {});
});

test('editor settings are sanitized', () => {
  const s = settingsFromClient({ hardware: 'b200', gpusPerNode: -1, rules: { 'unknown-key': 'off', x: 'nonsense' }, targetVersions: { accelerate: '1.9.0', deepspeed: 'latest' }, files: { associations: { '**/x/*.yaml': 'accelerate', '*.y': 'nope' } } });
  assert.deepEqual(s, { hardware: 'b200', rules: { 'unknown-key': 'off' }, targetVersions: { accelerate: '1.9.0' }, associations: { '**/x/*.yaml': 'accelerate' } });
});

test('settings associations force a format by path', () => {
  const text = 'num_processes: 8\n';
  assert.equal(analyze({ path: '/w/launch/cfg.yaml', text }).docs[0].format?.id, undefined);
  const a = analyze({ path: '/w/launch/cfg.yaml', text }, { associations: { '**/launch/*.yaml': 'accelerate' } });
  assert.equal(a.docs[0].format?.id, 'accelerate');
  assert.ok(a.findings.some((f) => f.code === 'missing-distributed-type'));
});

test('docs/rules.md is generated from the rules and up to date', () => {
  const md = rulesMarkdown();
  for (const r of RULES) assert.ok(md.includes(`## \`${r.id}\``), r.id);
  const file = readFileSync(join(__dirname, '../../docs/rules.md'), 'utf8');
  assert.equal(file, md, 'docs/rules.md is stale: run `npm run docs`');
  assert.match(explain('yaml-boolean-trap')!, /^# `yaml-boolean-trap`/);
  assert.equal(explain('no-such-rule'), undefined);
});

test("an Accelerate `mpirun_ccl: '1'` (a digit string) is valid, as accelerate reads it", () => {
  const a = analyze({ path: 'a.yaml', text: "distributed_type: MULTI_CPU\nnum_processes: 2\nmpirun_config:\n  mpirun_ccl: '1'\n" });
  assert.ok(!a.findings.some((f) => f.code === 'invalid-value'), a.findings.map((f) => f.message).join('\n'));
});

test('"Disable … for this line" on a large YAML file needs no re-parse of it: a comment line outside any multi-line scalar cannot change what it says', () => {
  const text = `distributed_type: MULTI_GPU\nnum_processes: 2\n${Array.from({ length: 3000 }, () => 'num_machines: 1\n').join('')}note: |\n  a block scalar\n  num_machiness: 1\nnum_machiness: 1\n`;
  const a = analyze({ path: 'a.yaml', text });
  const f = a.findings.find((x) => x.code === 'unknown-key')!;
  const dup = a.findings.find((x) => x.code === 'duplicate-key')!;
  // The rules' own fixes are tried on the text (once each); the suppression comments are not.
  f.fixes();
  dup.fixes();
  const tries = a.trial!.tries;
  const titles = codeActions(a, f.span).map((x) => x.title);
  assert.ok(titles.includes('Disable unknown-key for this line') && titles.includes('Disable unknown-key for this file'), titles.join(' | '));
  assert.equal(a.trial!.tries, tries, 'the file was parsed again for a comment line');
  assert.ok(codeActions(a, dup.span).some((x) => x.title === 'Disable duplicate-key for this line'));
  assert.equal(a.trial!.tries, tries);
});
