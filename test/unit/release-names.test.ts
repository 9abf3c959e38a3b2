/**
 * The flags and values a message names, held against the release it is written for
 * (server/src/engine/formats/megatron/release-names.ts): advice names what that release accepts.
 * Every annotated case under test/rules/ is also checked for it (annotate.ts, namedOutsideRelease).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyze } from '../../server/src/engine';
import { atRelease, EARLIER_SPELLINGS, namedFlags, refusedAt } from '../../server/src/engine/formats/megatron/release-names';
import { versionAtLeast } from '../../server/src/engine/version';

const at = (version: string) => (v: string) => versionAtLeast(version, v);
const refused = (span: string, version: string) => namedFlags(`\`${span}\``).map((n) => refusedAt(n, at(version))).find((x) => x);

test('a flag or value is refused before the release that added it and after the one that removed it (x-since, x-enum-since, x-removed)', () => {
  // `full_iteration` became an implementation in 0.18 (transformer_config.py@core_v0.18.0:927; a
  // Literal of none/local/transformer_engine at @core_v0.16.0:776 and @core_v0.17.0:857).
  assert.match(refused('--cuda-graph-impl full_iteration', '0.17.0') ?? '', /not a value/);
  assert.equal(refused('--cuda-graph-impl full_iteration', '0.18.0'), undefined);
  // The implementation flag arrived in 0.15 (training/arguments.py@core_v0.15.0:1405).
  assert.match(refused('--cuda-graph-impl local', '0.14.0') ?? '', /arrived in 0\.15\.0/);
  // A list argument's values (`--cuda-graph-scope`, nargs '+'): `full_iteration` from 0.14.
  assert.match(refused('--cuda-graph-scope full_iteration', '0.13.0') ?? '', /not a value/);
  assert.equal(refused('--cuda-graph-scope full_iteration', '0.16.0'), undefined);
  // Renamed in 0.14 (`--use-custom-fsdp` gone, `--use-megatron-fsdp` new).
  assert.match(refused('--use-custom-fsdp', '0.14.0') ?? '', /removed in 0\.14\.0/);
  // Words that are no value the schema knows (a number, a placeholder) are not judged.
  assert.equal(refused('--tensor-model-parallel-size 8', '0.5.0'), undefined);
});

test('advice takes the spelling the release has, where an earlier one did the same; a quote of the file and an unnamed release keep today\'s', () => {
  const msg = 'Use selective recomputation, or `--cuda-graph-impl full_iteration`.';
  const none = () => false;
  assert.equal(atRelease(msg, '0.16.0', none), 'Use selective recomputation, or `--cuda-graph-impl local --cuda-graph-scope full_iteration`.');
  assert.equal(atRelease(msg, '0.18.0', none), msg);
  assert.equal(atRelease(msg, undefined, none), msg);
  assert.equal(atRelease(msg, '0.16.0', () => true), msg, 'what the file writes is quoted as written');
  // A value of a renamed flag carries over; a flag whose meaning differs in its values does not take them.
  assert.equal(atRelease('Set `--muon-nesterov`.', '0.17.0', none), 'Set `--muon-use-nesterov`.');
  assert.equal(atRelease('Give `--num-virtual-stages-per-pipeline-rank 2`.', '0.10.0', none), 'Give `--num-virtual-stages-per-pipeline-rank 2`.');
  assert.equal(atRelease('Give `--num-virtual-stages-per-pipeline-rank`.', '0.10.0', none), 'Give `--num-layers-per-virtual-pipeline-stage`.');
  // An earlier spelling the release lacks too is not offered: the external switch arrived in 0.12.
  assert.equal(atRelease('`--cuda-graph-impl transformer_engine`', '0.11.0', none), '`--cuda-graph-impl transformer_engine`');
  assert.equal(atRelease('`--cuda-graph-impl transformer_engine`', '0.12.0', none), '`--external-cuda-graph`');
});

test('every earlier spelling is accepted by the releases it stands in for, and its later spelling is not', () => {
  for (const e of EARLIER_SPELLINGS) {
    const before = at(e.until.replace(/^(\d+)\.(\d+)\.\d+$/, (_x, a: string, b: string) => `${a}.${Number(b) - 1}.0`));
    assert.ok(namedFlags(`\`${e.now}\``).some((n) => refusedAt(n, before)), `${e.now} is refused before ${e.until}`);
    assert.ok(namedFlags(`\`${e.then}\``).every((n) => !refusedAt(n, before)), `${e.then} is accepted before ${e.until}`);
  }
});

test('a launch script checked against Megatron Core 0.16 is told the full-iteration graph as 0.16 spells it; 0.18 as 0.18 does', () => {
  const script = (release: string) =>
    `# shardwise: megatron_core=${release}\n#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \\\n    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \\\n    --cuda-graph-impl transformer_engine --recompute-method uniform --recompute-num-layers 1 --recompute-granularity full\n`;
  const advice = (release: string) => analyze({ path: 'train.sh', text: script(release) }, { targetVersions: { 'megatron-core': release } }).findings.find((f) => f.code === 'cuda-graph-config-invalid')?.message ?? '';
  assert.match(advice('0.16.0'), /`--cuda-graph-impl local --cuda-graph-scope full_iteration`\.$/);
  assert.match(advice('0.17.0'), /`--cuda-graph-impl local --cuda-graph-scope full_iteration`\.$/);
  assert.match(advice('0.18.0'), /`--cuda-graph-impl full_iteration`\.$/);
});
