/**
 * The values an enumerated key accepts at the release a file is checked against: invalid-value's list
 * and its suggestions, hover and completion take them from `x-enum-since`, `x-enum-removed` and the old
 * values of `x-deprecated-values` (schemas/README.md), so none offers a value that release refuses.
 * Accelerate's DistributedType: v1.4.0 has TP and no MULTI_SDAA, MULTI_HPU or MULTI_NEURON
 * (src/accelerate/utils/dataclasses.py@v1.4.0, class DistributedType); v1.3.0 has no TP; v1.10.0
 * drops TP. Megatron-LM's --position-embedding-type choices: learned_absolute, rope, none at
 * core_v0.10.0 (megatron/training/arguments.py@core_v0.10.0:952), with mrope and relative and without
 * yarn at core_v0.15.0 (:1589).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyze, complete, hover } from '../../server/src/engine';
import { enumAtRelease } from '../../server/src/engine/schema/vocabulary';
import { versionAtLeast } from '../../server/src/engine/version';

const accelerate = (text: string, release?: string) => analyze({ path: 'accelerate_config.yaml', text }, release ? { targetVersions: { accelerate: release } } : {});
const invalid = (text: string, release?: string) => accelerate(text, release).findings.filter((f) => f.code === 'invalid-value');

test('enumAtRelease: the values a release accepts, with old values before their deprecation and removed ones while they last', () => {
  const schema = { enum: ['A', 'B', 'C'], 'x-enum-since': { B: '1.5.0', OLD: '1.2.0' }, 'x-enum-removed': { GONE: { since: '1.1.0', removed: '1.3.0' } }, 'x-deprecated-values': { OLD: { since: '1.4.0', effect: 'error', message: '' } } } as never;
  const at = (r: string) => enumAtRelease(schema, (v) => versionAtLeast(r, v));
  assert.deepEqual(at('1.0.0'), ['A', 'C']);
  assert.deepEqual(at('1.2.0'), ['A', 'C', 'GONE', 'OLD']);
  assert.deepEqual(at('1.4.0'), ['A', 'C']);
  assert.deepEqual(at('1.5.0'), ['A', 'B', 'C']);
});

test('invalid-value at accelerate 1.4.0: the list is that release\'s, and no correction offers a value it refuses', () => {
  const [slip] = invalid('distributed_type: multi_gpu\nnum_processes: 8\n', '1.4.0');
  assert.match(slip.message, /must be one of `NO`, `MULTI_CPU`, `MULTI_GPU`, `MULTI_NPU`, `MULTI_MLU`, `MULTI_MUSA`, `MULTI_XPU`, `DEEPSPEED`, `FSDP`, `XLA`, `MEGATRON_LM`, `TP`, not `multi_gpu`/);
  assert.deepEqual(slip.fixes().map((x) => [x.title, x.applicability]), [['Change to `MULTI_GPU`', 'safe']]);
  const [hpu] = invalid('distributed_type: multi_hpu\nnum_processes: 8\n', '1.4.0');
  assert.doesNotMatch(hpu.message, /one of [^:]*`MULTI_HPU`/);
  assert.match(hpu.message, /The targeted 1\.4\.0 does not have `MULTI_HPU` \(from accelerate 1\.5\.0\)/);
  assert.ok(hpu.fixes().every((x) => !/MULTI_HPU/.test(x.title) && x.applicability === 'unsafe'), 'no fix to MULTI_HPU, and no safe guess among several');
  const [tp] = invalid('distributed_type: tp\nnum_processes: 8\n', '1.4.0');
  assert.deepEqual(tp.fixes().map((x) => [x.title, x.applicability]), [['Change to `TP`', 'safe']]);
  // 1.3.0 has no TP: neither listed nor suggested; written as is, version-unsupported-key says it arrived in 1.4.0.
  const [before] = invalid('distributed_type: tp\nnum_processes: 8\n', '1.3.0');
  assert.doesNotMatch(before.message, /`TP`/);
  assert.deepEqual(before.fixes(), []);
  const young = accelerate('distributed_type: TP\nnum_processes: 8\n', '1.3.0').findings.map((f) => [f.code, f.severity, /arrived in accelerate 1\.4\.0/.test(f.message)]);
  assert.deepEqual(young, [['version-unsupported-key', 'error', true]]);
});

test('invalid-value with no release named: a correction to a value some releases refuse is not safe', () => {
  const [neuron] = invalid('distributed_type: multi_neuron\nnum_processes: 8\n');
  assert.deepEqual(neuron.fixes().map((x) => [x.title.startsWith('Change to `MULTI_NEURON`'), /only some releases accept/.test(x.title), x.applicability]), [[true, true, 'unsafe']]);
  const [gpu] = invalid('distributed_type: multi_gpu\nnum_processes: 8\n');
  assert.deepEqual(gpu.fixes().map((x) => [x.title, x.applicability]), [['Change to `MULTI_GPU`', 'safe']]);
});

test('invalid-value on a Megatron-LM flag lists the choices of the targeted release', () => {
  const script = (value: string) => `#!/bin/bash\ntorchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 2 --hidden-size 64 --num-attention-heads 4 --micro-batch-size 1 --global-batch-size 8 --position-embedding-type ${value}\n`;
  const at = (value: string, release: string) => analyze({ path: 'train.sh', text: script(value) }, { targetVersions: { 'megatron-core': release } }).findings.find((f) => f.code === 'invalid-value')!;
  assert.match(at('rotery', '0.10.0').message, /must be one of `learned_absolute`, `rope`, `none`, not `rotery`/);
  const yarn = at('yarnn', '0.15.0');
  assert.match(yarn.message, /must be one of `learned_absolute`, `rope`, `mrope`, `relative`, `none`, not `yarnn`/);
  assert.match(yarn.message, /does not have `yarn` \(from Megatron-LM 0\.18\.0\)/);
  assert.ok(yarn.fixes().every((x) => !/yarn`/.test(x.title)));
  assert.match(at('yarnn', '0.19.0').message, /Did you mean `yarn`\?/);
});

test('hover and completion offer the values of the release the file is checked against', () => {
  const text = 'distributed_type: MULTI_GPU\nnum_processes: 8\n';
  const h = hover(accelerate(text, '1.4.0'), text.indexOf('distributed_type') + 2)!;
  assert.match(h.markdown, /Type: one of `NO`, [^\n]*`TP`/);
  assert.doesNotMatch(h.markdown, /Type: [^\n]*`MULTI_HPU`/);
  assert.match(h.markdown, /Allowed values in 1\.4\.0, the release checked against:/);
  assert.match(h.markdown, /Not accepted by 1\.4\.0: `MULTI_SDAA`, `MULTI_HPU`, `MULTI_NEURON`/);
  assert.match(hover(accelerate(text), text.indexOf('distributed_type') + 2)!.markdown, /Type: one of [^\n]*`MULTI_NEURON`/, 'no release named: every value of the newest');
  const blank = '# shardwise: format=accelerate\ndistributed_type: \n';
  const labels = (release?: string) => complete(accelerate(blank, release), blank.length - 1).map((i) => i.label);
  assert.ok(labels('1.4.0').includes('TP') && !labels('1.4.0').includes('MULTI_HPU'));
  assert.ok(labels().includes('MULTI_HPU') && !labels().includes('TP'));
});
