/**
 * Uneven pipeline splits: the chunks (PP × VPP) taking unequal numbers of layers, as Megatron-Core
 * writes them with `--pipeline-model-parallel-layout` (megatron/core/transformer/
 * pipeline_parallel_layer_layout.py @ core_v0.13.0) and `--decoder-first/last-pipeline-num-layers`
 * (megatron/core/transformer/transformer_block.py get_num_layers_to_build @ core_v0.9.0): the split
 * arithmetic, its pricing by the heaviest chunk, the planner's candidates and a file's own layout.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyze, estimateStep, planAlternatives, planLayouts, planStep, type ModelShape } from '../../server/src/engine';
import { layoutMemory } from '../../server/src/engine/plan/planner';
import { estimateMemory } from '../../server/src/engine/plan/memory';
import { firstLastChunks, layerSplit, layoutChunks, stageLoad, vppChoices } from '../../server/src/engine/plan/split';
import { divisors } from '../../server/src/engine/plan/layout';
import { layout, workload } from '../planner/fixtures';

test('split: even where PP divides the layers, the embedding and the loss counted where PP divides layers + 2, else uneven (or none when asked for even ones)', () => {
  assert.equal(layerSplit(61, 1, 'any'), undefined);
  assert.equal(layerSplit(61, 7, 'any'), 'embedding-loss', '63 = 7 × 9');
  assert.equal(layerSplit(61, 8, 'any'), 'uneven', 'DeepSeek-V3 at PP 8: neither 61 nor 63 splits');
  assert.equal(layerSplit(61, 16, 'any'), 'uneven');
  assert.equal(layerSplit(61, 8, 'accounted'), null);
  assert.equal(layerSplit(61, 7, 'even'), null);
  assert.equal(layerSplit(61, 64, 'any'), null, 'more stages than the layers, the embedding and the loss');
  assert.equal(layerSplit(80, 4, 'any'), undefined, 'an even split stays even');
});

test('split: the planner’s uneven chunks hold at most ⌈(layers + 2) / chunks⌉, the first and last rank one layer fewer', () => {
  // DeepSeek-V3 at PP 8 × VPP 4: 32 chunks of 2 places, as the recipe’s `Et|(tt|)*30mL`.
  assert.deepEqual(stageLoad(61, { pp: 8, vpp: 4, split: 'uneven' }), { rank: 8, first: 7, last: 7, chunk: 2 });
  // PP 16: 4 places per stage, as the recipe’s [E + 4t] + [4t] × 14 + [t, mtp, loss].
  assert.deepEqual(stageLoad(61, { pp: 16, vpp: 1, split: 'uneven' }), { rank: 4, first: 3, last: 3, chunk: 4 });
  // Kimi K2 at PP 4 × VPP 4.
  assert.deepEqual(stageLoad(61, { pp: 4, vpp: 4, split: 'uneven' }), { rank: 16, first: 15, last: 15, chunk: 4 });
  // The even and embedding-and-loss splits as before.
  assert.deepEqual(stageLoad(80, { pp: 4, vpp: 2 }), { rank: 20, first: 20, last: 20, chunk: 10 });
  assert.deepEqual(stageLoad(126, { pp: 16, vpp: 2, split: 'embedding-loss' }), { rank: 8, first: 7, last: 7, chunk: 4 });
  // A file's own chunks: the heaviest (other than the last) paces every rank.
  assert.deepEqual(stageLoad(61, { pp: 4, vpp: 1, split: 'uneven', chunks: [16, 16, 16, 13] }), { rank: 16, first: 16, last: 13, chunk: 16 });
});

test('split: virtual stages of an uneven split, those no other beats on pace and bubble', () => {
  // PP 8, 61 layers: VPP 4 (chunks of 2, pace 8) beats VPP 1 and 2 (pace 8, chunks of 8 and 4) and 3, 5–7 (pace 9–14).
  assert.deepEqual(vppChoices(61, { pp: 8, split: 'uneven' }, 16, divisors), [4]);
  assert.deepEqual(vppChoices(61, { pp: 16, split: 'uneven' }, 16, divisors), [2]);
  assert.deepEqual(vppChoices(61, { pp: 8, split: 'uneven' }, 16, divisors, false), [1, 2, 3, 4, 5, 6, 7], 'every one that fits, unpruned (VPP 8: 64 chunks for 63 places)');
  assert.deepEqual(vppChoices(80, { pp: 4 }, 16, divisors), [1, 2, 4, 5, 10], 'an even split: the divisors of its layers per rank');
});

test('split: a layout string or list gives the layers of each chunk; first and last stage sizes the others evenly', () => {
  const ds = layoutChunks('Et|(tt|)*30mL')!;
  assert.equal(ds.length, 32);
  assert.deepEqual([ds[0], ds[1], ds[30], ds[31]], [1, 2, 2, 0]);
  assert.equal(ds.reduce((a, b) => a + b, 0), 61);
  assert.deepEqual(layoutChunks('Ettt|(tt|)*29,m|L'), [3, ...Array(29).fill(2), 0, 0]);
  assert.deepEqual(layoutChunks('Et*3|t*4|t*4L'), [3, 4, 4]);
  assert.equal(layoutChunks('Ex|tL'), undefined, 'an unknown layer type');
  const list = [['embedding', ...Array(4).fill('decoder')], ...Array(14).fill(Array(4).fill('decoder')), ['decoder', 'mtp', 'loss']];
  assert.deepEqual(layoutChunks(list), [4, ...Array(14).fill(4), 1]);
  assert.deepEqual(firstLastChunks(61, 4, 1, 16, 13), [16, 16, 16, 13]);
  assert.deepEqual(firstLastChunks(62, 4, 2, 14, 16), [7, 8, 8, 8, 7, 8, 8, 8], 'each stage’s layers over its VPP chunks');
  assert.equal(firstLastChunks(61, 16, 1, 3, 1), undefined, '57 layers do not split over 14 stages');
});

const bare = (layers: number): ModelShape => ({ layers, hidden: 4096, heads: 32, ffn: 16384 });

test('pricing: an uneven pipeline runs at the pace of its heaviest chunk, in compute, bubble and memory', () => {
  // No vocabulary: no output layer beside the loss, so a micro-batch is the rank's layers alone.
  const w = { ...workload('llama-3-8b', 8, 'h100-sxm', 4096, 64), model: bare(61) };
  const one = { ...w, gpus: 1 };
  const flat = estimateStep(one, layout({ tp: 1, pp: 1, dp: 1 }));
  const perLayer = flat.parts.compute / 61;
  const uneven = estimateStep(w, layout({ tp: 1, pp: 8, vpp: 4, dp: 1, split: 'uneven' }));
  // 8 layers per rank (4 chunks of 2), not 61 / 8 = 7.625.
  assert.ok(Math.abs(uneven.parts.compute / perLayer - 8) < 1e-9, `compute of ${uneven.parts.compute / perLayer} layers per rank`);
  assert.ok(Math.abs(uneven.parts.bubble / (uneven.parts.compute / uneven.microBatches) - 7 / 4) < 1e-9, 'bubble (PP − 1) / VPP micro-batches at that pace');
  // A file's chunks with one chunk of 3 paces every rank at 4 × 3.
  const heavy = estimateStep(w, layout({ tp: 1, pp: 8, vpp: 4, dp: 1, split: 'uneven', chunks: [1, 3, ...Array(29).fill(2), 1] }));
  assert.ok(Math.abs(heavy.parts.compute / perLayer - 12) < 1e-9);
  // Memory: the first rank holds the embedding beside 7 layers, kept for PP micro-batches in flight.
  const lw = { ...workload('deepseek-v3', 1024, 'h100-sxm', 4096, 8192) };
  const l = layout({ tp: 2, pp: 8, vpp: 4, ep: 64, etp: 1, dp: 64, split: 'uneven' });
  const m = layoutMemory(lw, l, false);
  const seven = layoutMemory(lw, { ...l, split: undefined }, false);
  assert.notEqual(m.bytes.total, seven.bytes.total, 'not priced as an even 61 / 8');
  const byHand = estimateMemory({ model: lw.model, tp: 2, pp: 8, vpp: 4, cp: 1, ep: 64, etp: 1, dp: 64, expertDp: 1024 / (8 * 64), sp: true, microBatch: 1, seqLength: 4096, numMicroBatches: 8192 / 64, precision: 'bf16', sharding: { kind: 'distributed-optimizer', group: 64 }, recompute: 'none', recomputeFraction: 0, firstStageLayers: 7 }, false);
  assert.equal(m.bytes.total, byHand.bytes.total);
});

test('planner: DeepSeek-V3 at PP 8 and PP 16 and Kimi K2’s 61 layers at PP 4 × VPP 4 are candidates, uneven; the even and counted splits keep theirs', () => {
  const w = workload('deepseek-v3', 1024, 'h100-sxm', 4096, 8192, 'fp8');
  const pp8 = planLayouts({ workload: w, pinned: { tp: 2, pp: 8, vpp: 4, ep: 64, etp: 1, microBatch: 1 } }).layouts[0];
  assert.ok(pp8, 'TP 2 · PP 8 (VPP 4) · EP 64 is ranked');
  assert.equal(pp8.layout.split, 'uneven');
  assert.equal(planLayouts({ workload: workload('deepseek-v3', 256, 'b200', 4096, 4096), pinned: { tp: 1, pp: 16, ep: 8, etp: 1 } }).layouts[0]?.layout.split, 'uneven');
  const llama = planLayouts({ workload: workload('llama-3.1-405b', 1024, 'h100-sxm', 8192, 512), pinned: { tp: 8, pp: 8 } }).layouts[0];
  assert.equal(llama.layout.split, 'embedding-loss', '126 layers at PP 8: the embedding and the loss counted, as before');
  assert.equal(planLayouts({ workload: workload('llama-3-70b', 64), pinned: { tp: 8, pp: 4 } }).layouts[0].layout.split, undefined);
  // A request for the even and counted splits only names what else would do.
  const counted = planLayouts({ workload: w, pinned: { pp: 8, split: 'accounted' } });
  assert.match(counted.empty!, /^PP 8 does not split the 61 layers.*63 \(PP 3, 7, 9, 21 or 63\).*`--pipeline-model-parallel-layout`, from Megatron Core 0.13.0.*`--decoder-first-pipeline-num-layers`.*from 0\.9\.0/);
  const tooMany = planLayouts({ workload: w, pinned: { tp: 1, pp: 128 } });
  assert.match(tooMany.empty!, /^PP 128 is more than the 61 layers with the embedding and the loss/);
});

test('a file’s own uneven layout is read and priced, and its alternatives keep its pipeline', () => {
  const path = join(__dirname, '../../examples/megatron/pretrain-llama3-8b.sh');
  const text = readFileSync(path, 'utf8').replace('--num-layers 32', '--num-layers 30');
  const plan = (t: string) => analyze({ text: t, path, languageId: 'shellscript' }, {}).docs[0].plan!;
  const pp = (t: string) => t.replace(/^PP=.*$/m, 'PP=4');
  // 30 layers over PP 4 × VPP 2: 8 chunks, the heaviest 4 (the even split has none).
  const written = pp(text).replace('--num-layers 30', '--num-layers 30\n    --pipeline-model-parallel-layout "Ettt|(tttt|)*6tttL"');
  const p = plan(written);
  assert.deepEqual(p.pipelineSplit?.layout, [3, 4, 4, 4, 4, 4, 4, 3]);
  const step = planStep(p)!;
  assert.ok(step, 'the step is priced');
  const listed = plan(pp(text).replace('--num-layers 30', '--num-layers 30\n    --decoder-first-pipeline-num-layers 6\n    --decoder-last-pipeline-num-layers 6'));
  assert.deepEqual([listed.pipelineSplit?.first, listed.pipelineSplit?.last], [6, 6]);
  const alt = planAlternatives(p);
  assert.ok(!('missing' in alt));
  for (const x of alt.layouts) assert.deepEqual([x.layout.pp, x.layout.vpp], [4, 2], 'the layout string fixes PP × VPP: no edit rewrites it');
});
