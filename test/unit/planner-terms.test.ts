/**
 * The step model's terms one by one (context parallelism's ring, the expert all-to-all on two
 * fabrics, FP8 dispatch, attention before fused kernels, partial recompute, the calibrated band),
 * and the planner's answer when nothing fits: the constraint that removed the layout and what would
 * satisfy it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CALIBRATION, estimateStep, modelPreset, planLayouts, recomputeShare, STEP_MODEL } from '../../server/src/engine';
import { nearestBatch } from '../../server/src/engine/plan/why';
import { layout, workload } from '../planner/fixtures';


test('CP: the first K/V exchange of each pass is exposed, and attention on 1/CP of the sequence runs slower per FLOP', () => {
  const w = workload('llama-3-70b', 64, 'h100-sxm', 8192, 64);
  const cp2 = estimateStep(w, layout({ tp: 8, pp: 1, cp: 2, dp: 4 }));
  // K/V of one rank's chunk: 2 tensors × tokens × (query groups / TP) × head size × 2 bytes, over NVLink? TP 8 × CP 2 spans two nodes.
  assert.equal(cp2.fabrics.cp, 'scale-out');
  const chunk = 2 * 4096 * 1 * 128 * 2;
  const perStep = chunk / (w.hardware.scaleOutGBps * 1e9 * STEP_MODEL.network.value);
  assert.ok(cp2.parts.cp >= 2 * perStep * 80 * cp2.microBatches * 0.999, `exposed CP ${cp2.parts.cp} s below two unhidden exchanges per layer`);
  // The same tokens per GPU without CP (micro-batches of half the sequence are not a CP layout, so compare rates):
  const rate = (cp: number) => (STEP_MODEL.attention.value * (8192 / cp)) / (8192 / cp + STEP_MODEL.attentionLength.value);
  assert.ok(rate(8) < rate(1) * 0.98, 'kernels on 1K tokens reach less of the peak than on 8K');
});

test('EP: an all-to-all spanning nodes sends the in-domain share over NVLink and the rest over the network; FP8 dispatch and overlap shrink it', () => {
  const w = workload('mixtral-8x7b', 64, 'h100-sxm', 4096, 256, 'fp8');
  const off = { tpComm: false, gradReduce: true, paramGather: true, p2p: false, moeA2A: false };
  // The all-to-all dispatcher: a copy per routed expert (the flex dispatcher's default de-duplicates).
  const inside = estimateStep({ ...w, software: { dedupDispatch: false } }, layout({ tp: 1, pp: 1, ep: 8, etp: 1, dp: 64, overlap: off }));
  assert.equal(inside.fabrics.ep, 'scale-up');
  // Two domains of four: half of each rank's copies (3 of 8 peers) stay on NVLink, 4 of 8 cross the network.
  const small = { ...w, nvlinkDomain: 4, software: { dedupDispatch: false } };
  const split = estimateStep(small, layout({ tp: 1, pp: 1, ep: 8, etp: 1, dp: 64, overlap: off }));
  assert.equal(split.fabrics.ep, 'scale-out');
  const allNetwork = inside.parts.ep * (w.hardware.scaleUpGBps / w.hardware.scaleOutGBps);
  const ratio = split.parts.ep / allNetwork;
  assert.ok(Math.abs(ratio - 4 / 7) < 1e-6, `network share ${ratio}: 4 of the 7 peers a rank sends to are across the network`);
  const fp8 = estimateStep({ ...small, software: { ...small.software, fp8Dispatch: true } }, layout({ tp: 1, pp: 1, ep: 8, etp: 1, dp: 64, overlap: off }));
  assert.ok(fp8.parts.ep < split.parts.ep * 0.8, 'FP8 dispatch halves the dispatch bytes (the combine stays 16-bit)');
  const bf16 = estimateStep({ ...small, precision: 'bf16', software: { ...small.software, fp8Dispatch: true } }, layout({ tp: 1, pp: 1, ep: 8, etp: 1, dp: 64, overlap: off }));
  assert.ok(bf16.parts.ep > fp8.parts.ep, 'no FP8 dispatch when the GEMMs are not FP8');
  const overlapped = estimateStep(small, layout({ tp: 1, pp: 1, ep: 8, etp: 1, dp: 64, overlap: { ...off, moeA2A: true } }));
  assert.ok(overlapped.parts.ep < split.parts.ep, 'overlap hides the all-to-all behind the GEMMs');
  const pinned = planLayouts({ workload: small, pinned: { tp: 1, pp: 1, ep: 8, etp: 1, microBatch: 2, moeOverlap: true } });
  assert.equal(pinned.layouts[0].layout.overlap.moeA2A, true, 'the overlap is a choice the planner keeps');
});

test('attention before fused kernels moves the s×s scores through HBM and is slower than a fused kernel', () => {
  const w = workload('llama-3-8b', 8, 'a100-80gb', 2048, 64);
  const l = layout({ tp: 1, pp: 1, dp: 8, recompute: 'full' });
  const fused = estimateStep(w, l);
  const unfused = estimateStep({ ...w, software: { fusedAttention: false } }, l);
  assert.ok(unfused.seconds > fused.seconds * 1.05, `${unfused.seconds} vs ${fused.seconds}`);
});

test('partial recompute: N layers of each chunk, priced and held in memory in proportion, chosen when no recompute does not fit', () => {
  const w = workload('llama-3-70b', 64, 'h100-sxm', 8192, 128);
  assert.equal(recomputeShare(w, { recompute: 'full', recomputeLayers: 5, pp: 4, vpp: 2, split: undefined }), 0.5);
  assert.equal(recomputeShare(w, { recompute: 'none', pp: 4, vpp: 1 }), 0);
  const none = estimateStep(w, layout({ tp: 8, pp: 4, dp: 2 }));
  const half = estimateStep(w, layout({ tp: 8, pp: 4, dp: 2, recompute: 'full', recomputeLayers: 10 }));
  const all = estimateStep(w, layout({ tp: 8, pp: 4, dp: 2, recompute: 'full' }));
  assert.ok(none.parts.compute < half.parts.compute && half.parts.compute < all.parts.compute);
  assert.ok(Math.abs(half.parts.compute - (none.parts.compute + all.parts.compute) / 2) / half.parts.compute < 0.02, 'half the layers, half the extra forward');
  const r = planLayouts({ workload: { ...w, seqLength: 32768, globalBatch: 32 }, pinned: { tp: 8, pp: 4, vpp: 1, cp: 1 } });
  const best = r.layouts[0].layout;
  assert.equal(best.recompute, 'full');
  assert.ok(best.recomputeLayers !== undefined && best.recomputeLayers < 20, `recomputes ${best.recomputeLayers} of 20 layers`);
  assert.ok(r.layouts[0].memory.bytes.total <= r.usableBytes);
});

test('the estimate is a band: the priced step, and the expectation at the calibration factor', () => {
  const w = workload('llama-3-8b', 8);
  const e = estimateStep(w, layout({ tp: 1, pp: 1, dp: 8 }));
  assert.ok(Math.abs(e.expected.seconds - e.seconds * CALIBRATION.value) < 1e-12);
  assert.ok(Math.abs(e.expected.tokensPerSecondPerGpu * CALIBRATION.value - e.tokensPerSecondPerGpu) < 1e-6);
  assert.ok(e.expected.mfu! < e.mfu!);
});

test('no layout: each constraint that removes one is named with what would satisfy it', () => {
  const heads = planLayouts({ workload: workload('llama-3-70b', 64), pinned: { tp: 3 } });
  assert.match(heads.empty!, /^TP 3 does not divide the 64 attention heads.*\(TP 1, 2, 4 or 8 would\)/);
  const layers = planLayouts({ workload: workload('deepseek-v3', 1024, 'h100-sxm', 4096, 4096), pinned: { pp: 8, split: 'accounted' } });
  assert.match(layers.empty!, /^PP 8 does not split the 61 layers.*PP must divide 61 \(PP 1 or 61\).*63 \(PP 3, 7, 9, 21 or 63\).*--pipeline-model-parallel-layout/);
  const batch = planLayouts({ workload: workload('llama-3-70b', 64, 'h100-sxm', 8192, 1001), pinned: { tp: 8, pp: 2, cp: 1 } });
  assert.match(batch.empty!, /no data-parallel degree divides the global batch of 1001 sequences.*a global batch of 1000 would \(DP 4\)/);
  const memory = planLayouts({ workload: workload('llama-3.1-405b', 8) });
  const m = /the smallest GPU count that fits is (\d+) \(TP (\d+) · PP (\d+)/.exec(memory.empty!);
  assert.ok(m, memory.empty);
  const fitting = Number(m[1]);
  assert.ok(planLayouts({ workload: workload('llama-3.1-405b', fitting) }).layouts.length > 0, `${fitting} GPUs fit`);
  assert.equal(planLayouts({ workload: workload('llama-3.1-405b', fitting - 8) }).layouts.length, 0, `${fitting - 8} GPUs do not`);
  const ep = planLayouts({ workload: workload('mixtral-8x7b', 64, 'h100-sxm', 4096, 256), pinned: { ep: 3 } });
  assert.match(ep.empty!, /^EP 3 does not divide the 8 experts \(EP 1, 2, 4 or 8 would\)/);
  const vpp = planLayouts({ workload: workload('llama-3-70b', 64), pinned: { tp: 8, pp: 4, vpp: 3 } });
  assert.match(vpp.empty!, /^VPP 3 does not split the 20 layers of each pipeline stage \(VPP 1, 2, 4, 5, 10 or 20 would\)/);
  const many = planLayouts({ workload: workload('llama-3-70b', 64), pinned: { tp: 8, pp: 4, vpp: 20 } });
  assert.equal(many.layouts[0]?.layout.vpp, 20, 'more virtual stages than the search tries, when asked for');
  assert.deepEqual(nearestBatch(1001, [4, 8]), { batch: 1000, dp: 4 });
  assert.deepEqual(nearestBatch(1004, [8]), { batch: 1008, dp: 8 }, 'the larger on a tie');
});

test('DP: a ring across nodes sends over the network only 1/k of its bytes per GPU, k the group’s members inside one NVLink domain', async () => {
  const { countParameters } = await import('../../server/src/engine/plan/memory');
  const w = workload('llama-3-8b', 16, 'h100-sxm', 4096, 64);
  const off = { tpComm: false, gradReduce: false, paramGather: false, p2p: false, moeA2A: false };
  const e = estimateStep(w, layout({ tp: 1, pp: 1, dp: 16, overlap: off }));
  const params = countParameters(w.model).total;
  // Reduce-scatter of fp32 gradients and all-gather of bf16 parameters, (d−1)/d of them each; 8 members per node.
  const bytes = (15 / 16) * params * (4 + 2);
  const byHand = Math.max(bytes / w.hardware.scaleUpGBps, bytes / 8 / w.hardware.scaleOutGBps) / (1e9 * STEP_MODEL.network.value);
  assert.ok(Math.abs(e.parts.dp - byHand) / byHand < 1e-9, `DP ${e.parts.dp} s, by hand ${byHand} s`);
  assert.equal(e.fabrics.dp, 'scale-out');
  // With TP 8 each node holds one member of each DP group: all of its bytes cross the network.
  const wide = estimateStep(w, layout({ tp: 8, pp: 1, dp: 2, overlap: off }));
  const wideBytes = (1 / 2) * (params / 8) * (4 + 2);
  assert.ok(Math.abs(wide.parts.dp - wideBytes / (w.hardware.scaleOutGBps * 1e9 * STEP_MODEL.network.value)) / wide.parts.dp < 0.05, 'one member per node: the network carries all of it');
});

test('memory: a first pipeline stage with one layer fewer (the embedding counted as a layer) keeps that much less', async () => {
  const { estimateMemory } = await import('../../server/src/engine/plan/memory');
  const base = { model: modelPreset('llama-3.1-405b')!.shape, tp: 8, pp: 16, cp: 1, ep: 1, etp: 8, dp: 8, expertDp: 8, sp: true, microBatch: 1, seqLength: 8192, numMicroBatches: 16, precision: 'bf16' as const, sharding: { kind: 'distributed-optimizer' as const, group: 8 }, recompute: 'none' as const };
  const even = estimateMemory(base, false);
  const fewer = estimateMemory({ ...base, firstStageLayers: 7 }, false);
  const ratio = fewer.detail.activationPerLayer === even.detail.activationPerLayer ? fewer.bytes.activations / even.bytes.activations : NaN;
  // 7 of the 126/16 = 7.875 layers' activations, the embedding's unchanged.
  assert.ok(ratio > 0.88 && ratio < 0.9, `activations × ${ratio}`);
  assert.ok(fewer.paramsOnGpu < even.paramsOnGpu);
  const split = planLayouts({ workload: workload('llama-3.1-405b', 16384, 'h100-sxm', 8192, 2048), pinned: { tp: 8, pp: 16, cp: 2, vpp: 8, microBatch: 1 } }).layouts[0];
  assert.equal(split.layout.split, 'embedding-loss', '126 layers split over 16 stages only with the embedding and the loss counted');
  assert.ok(split.memory.bytes.activations < estimateMemory({ ...base, cp: 2, dp: 64, numMicroBatches: 32, vpp: 8, sharding: { kind: 'distributed-optimizer', group: 128 } }, false).bytes.activations, 'the planner counts the first stage’s own layers');
});

test('Llama 3 405B on 16,384 H100 (8K sequence, global batch 2,048, FSDP sharding gradients and optimizer states as Meta ran it): TP 8 × PP 16 × CP 1 is among the first five', () => {
  const w = workload('llama-3.1-405b', 16384, 'h100-sxm', 8192, 2048);
  const r = planLayouts({ workload: w, pinned: { sharding: 'optim_grads' } });
  const rank = r.layouts.findIndex((x) => x.layout.tp === 8 && x.layout.pp === 16 && x.layout.cp === 1) + 1;
  assert.ok(rank >= 1 && rank <= 5, `rank ${rank}: ${r.layouts.slice(0, 5).map((x) => `TP ${x.layout.tp} PP ${x.layout.pp} CP ${x.layout.cp}`).join('; ')}`);
});

test('kernel gaps: every kernel of a layer costs the launch gap, per layer and micro-batch', () => {
  const w = workload('llama-3.2-1b', 8, 'h100-sxm', 4096, 64);
  const l = layout({ tp: 1, pp: 1, dp: 8 });
  const gap = STEP_MODEL.kernelGap.value;
  const withGaps = estimateStep(w, l);
  try {
    STEP_MODEL.kernelGap.value = 0;
    const without = estimateStep(w, l);
    const byHand = withGaps.microBatches * 16 * STEP_MODEL.kernelsPerLayer.value * gap;
    assert.ok(Math.abs(withGaps.parts.compute - without.parts.compute - byHand) / byHand < 1e-9, `${withGaps.parts.compute - without.parts.compute} s, by hand ${byHand} s`);
  } finally {
    STEP_MODEL.kernelGap.value = gap;
  }
});

test('MoE: the most loaded expert rank sets the pace of the all-to-all and the expert GEMMs; the router costs a GEMM to the expert logits', () => {
  const w = workload('mixtral-8x7b', 64, 'h100-sxm', 4096, 256);
  const off = { tpComm: false, gradReduce: true, paramGather: true, p2p: false, moeA2A: false };
  const l = layout({ tp: 1, pp: 1, ep: 8, etp: 1, dp: 64, microBatch: 2, overlap: off });
  const imbalance = STEP_MODEL.moeImbalance.value;
  const loaded = estimateStep(w, l);
  try {
    STEP_MODEL.moeImbalance.value = 1;
    const even = estimateStep(w, l);
    assert.ok(Math.abs(loaded.parts.ep / even.parts.ep - imbalance) < 1e-9, 'all-to-all bytes × the imbalance');
    assert.ok(loaded.parts.compute > even.parts.compute, 'expert GEMMs on more tokens');
  } finally {
    STEP_MODEL.moeImbalance.value = imbalance;
  }
  // Mixtral's dense twin (the same layers with one expert's FFN) has no router, no permutation and one expert per token.
  const dense = estimateStep({ ...w, model: { ...w.model, experts: undefined, topK: undefined } }, layout({ tp: 1, pp: 1, dp: 64, microBatch: 2, overlap: off }));
  assert.ok(loaded.parts.compute > dense.parts.compute * 1.8, 'two experts per token, a router and the permutations cost more than twice the dense FFN');
});

test('EP dispatch de-duplicated per domain: a token crosses the network once per remote domain it is routed to', () => {
  const w = workload('deepseek-v3', 256, 'h100-sxm', 4096, 1024, 'fp8');
  const off = { tpComm: false, gradReduce: true, paramGather: true, p2p: false, moeA2A: false };
  const l = layout({ tp: 1, pp: 4, ep: 64, etp: 1, dp: 64, overlap: off });
  const plain = estimateStep({ ...w, software: { dedupDispatch: false } }, l);
  const dedup = estimateStep({ ...w, software: { dedupDispatch: true } }, l);
  assert.equal(estimateStep(w, l).parts.ep, dedup.parts.ep, 'the flex dispatcher (DeepEP, HybridEP) is the default');
  // 64 ranks in 8 domains, 8 copies per token: 7 × (1 − (7/8)^8) ≈ 4.64 network sends instead of 8 × 7/8 = 7,
  // at the share of the line rate DeepEP's internode kernels reach instead of NCCL's.
  const expected = ((7 * (1 - (7 / 8) ** 8)) / 7) * (STEP_MODEL.network.value / STEP_MODEL.dispatchNetwork.value);
  assert.ok(Math.abs(dedup.parts.ep / plain.parts.ep - expected) < 1e-9, `ratio ${dedup.parts.ep / plain.parts.ep}, expected ${expected}`);
});

test('NVL72: a job larger than one rack keeps each 64 consecutive ranks in one rack (16 four-GPU trays per rack, Slurm --segment=16 in Megatron-MoE-ModelZoo sbatch_benchmarking.sh @ e8650517d60d), so EP 32 or 64 runs on NVLink', () => {
  // The all-to-all dispatcher, a copy per routed expert, so the bytes compare one for one.
  const w = { ...workload('deepseek-v3', 256, 'gb200-nvl72', 4096, 1024, 'fp8'), software: { dedupDispatch: false } };
  const off = { tpComm: false, gradReduce: true, paramGather: true, p2p: false, moeA2A: false };
  for (const ep of [32, 64]) {
    const est = estimateStep(w, layout({ tp: 1, pp: 4, ep, etp: 1, dp: 64, overlap: off }));
    assert.equal(est.fabrics.ep, 'scale-up', `EP ${ep} inside one rack`);
  }
  // 128 ranks span two racks: half of each rank's peers are in its own 64-rank block, on NVLink.
  const wide = estimateStep(w, layout({ tp: 1, pp: 2, ep: 128, etp: 1, dp: 128, overlap: off }));
  assert.equal(wide.fabrics.ep, 'scale-out');
  const inRack = estimateStep(w, layout({ tp: 1, pp: 2, ep: 64, etp: 1, dp: 128, overlap: off }));
  // The bytes a rank sends per micro-batch, from the in-rack time (63 of 64 peers on NVLink); across two racks 64 of 128 peers are on the network.
  const bytesPerGpu = inRack.parts.ep / (63 / 64) * (w.hardware.scaleUpGBps * 1e9 * STEP_MODEL.network.value);
  const network = (bytesPerGpu * 64) / 128 / (w.hardware.scaleOutGBps * 1e9 * STEP_MODEL.network.value);
  assert.ok(Math.abs(wide.parts.ep / network - 1) < 1e-9, `EP 128 across two racks: ${wide.parts.ep} s, expected ${network} s on the network`);
});

test('CP: each ring step merges its partial attention into fp32 accumulators and launches its own kernels (Transformer Engine context_parallel.py @ d0067d0)', () => {
  const w = workload('llama-3-8b', 8, 'h100-sxm', 8192, 64);
  const off = { tpComm: false, gradReduce: true, paramGather: true, p2p: false, moeA2A: false };
  const l = layout({ tp: 1, pp: 1, cp: 4, dp: 2, overlap: off });
  const merge = STEP_MODEL.cpMergeBytes.value;
  const kernels = STEP_MODEL.cpStepKernels.value;
  const priced = estimateStep(w, l);
  try {
    STEP_MODEL.cpMergeBytes.value = 0;
    STEP_MODEL.cpStepKernels.value = 0;
    const free = estimateStep(w, l);
    // Per layer and micro-batch: 3/4 × CP × 10 bytes × (2 × 4096 output and query-gradient columns + 2 × 8 × 128 key and value columns) per token of this rank.
    const bytes = 0.75 * 4 * merge * (2 * 4096 + 2 * 8 * 128) * 2048;
    const byHand = priced.microBatches * 32 * (bytes / (w.hardware.hbmTBps * 1e12 * STEP_MODEL.hbm.value) + 4 * kernels * STEP_MODEL.kernelGap.value);
    assert.ok(Math.abs(priced.parts.compute - free.parts.compute - byHand) / byHand < 1e-9, `${priced.parts.compute - free.parts.compute} s, by hand ${byHand} s`);
  } finally {
    STEP_MODEL.cpMergeBytes.value = merge;
    STEP_MODEL.cpStepKernels.value = kernels;
  }
});

test('MoE: after the dispatcher waits for the device, the host issues each local expert’s work one by one (Megatron-Core token_dispatcher.py @ core_v0.14.0, Transformer Engine grouped_linear.py @ d0067d0): many small local experts are bound by the host', () => {
  // 256 small experts, top-8, 2K tokens: with EP 1 each GPU issues the work of all 256 experts per layer.
  const m = { ...modelPreset('mixtral-8x7b')!.shape, experts: 256, topK: 8, moeFfn: 512 };
  const w = { ...workload('mixtral-8x7b', 8, 'h100-sxm', 2048, 64, 'fp8'), model: m };
  const at = (ep: number) => layout({ tp: 1, pp: 1, ep, etp: 1, dp: 8 });
  const host = STEP_MODEL.expertHost.value;
  const bound = estimateStep(w, at(1));
  // Per layer and micro-batch the experts take the host's 256 × expertHost, longer than their GEMMs.
  const floor = bound.microBatches * 32 * 256 * host;
  try {
    STEP_MODEL.expertHost.value = 0;
    const free = estimateStep(w, at(1));
    const extra = bound.parts.compute - free.parts.compute;
    assert.ok(extra > floor / 2 && extra <= floor * (1 + 1e-9), `${extra} s more, the host ${floor} s`);
  } finally {
    STEP_MODEL.expertHost.value = host;
  }
  // Spread over EP 8 each rank issues 32 experts: the host bound falls by 8 (the all-to-all aside).
  const spread = estimateStep(w, at(8));
  assert.ok(spread.parts.compute < bound.parts.compute - floor / 2, `${spread.parts.compute} s at EP 8, ${bound.parts.compute} s at EP 1`);
  // A grouped kernel that reads the splits on the device has no host loop.
  const grouped = estimateStep({ ...w, software: { groupedGemmKernel: true } }, at(1));
  assert.ok(grouped.parts.compute < bound.parts.compute - floor / 2);
});

test('MoE: a rank holding several experts sorts the tokens it receives by expert and back (Megatron-Core token_dispatcher.py @ core_v0.14.0); with one expert per rank it does not', () => {
  const w = workload('mixtral-8x7b', 8, 'h100-sxm', 4096, 64);
  const per = STEP_MODEL.localPermutation.value;
  const at = (ep: number) => layout({ tp: 1, pp: 1, ep, etp: 1, dp: 8 });
  const priced = [estimateStep(w, at(2)), estimateStep(w, at(8))];
  try {
    STEP_MODEL.localPermutation.value = 0;
    const free = [estimateStep(w, at(2)), estimateStep(w, at(8))];
    // EP 2: four local experts. Per layer and micro-batch: 4 elements × top-2 copies × 4096 hidden × 4096 tokens,
    // 2 bytes each, forward and twice that backward, at the HBM's reachable bandwidth; 32 layers.
    const byHand = priced[0].microBatches * 32 * ((3 * 2 * per * 2 * 4096 * 4096) / (w.hardware.hbmTBps * 1e12 * STEP_MODEL.hbm.value));
    const extra = priced[0].parts.compute - free[0].parts.compute;
    assert.ok(Math.abs(extra - byHand) / byHand < 1e-9, `${extra} s, by hand ${byHand} s`);
    assert.equal(priced[1].parts.compute, free[1].parts.compute, 'EP = experts: one expert per rank, nothing to sort');
  } finally {
    STEP_MODEL.localPermutation.value = per;
  }
});

test('MoE memory: every routed copy of a token keeps its expert’s input and intermediates (Megatron-Core experts.py @ core_v0.14.0), more on the most loaded EP rank', async () => {
  const { estimateMemory, MOE_IMBALANCE } = await import('../../server/src/engine/plan/memory');
  const shape = modelPreset('mixtral-8x7b')!.shape;
  const base = { model: shape, tp: 1, pp: 1, cp: 1, ep: 1, etp: 1, dp: 8, expertDp: 8, sp: false, microBatch: 1, seqLength: 4096, numMicroBatches: 8, precision: 'bf16' as const, sharding: { kind: 'distributed-optimizer' as const, group: 8 }, recompute: 'none' as const };
  const h = shape.hidden;
  const f = shape.moeFfn ?? shape.ffn ?? 0;
  const sbh = 4096 * h;
  // Korthikanti's layer (18·sbh outside the MLP intermediates) with, instead of one dense MLP's 4·sbf,
  // the top-2 copies' permuted input (2·sbh each) and intermediates (4·sbf each).
  const byHand = (copies: number) => sbh * 18 + copies * (2 * sbh + 4 * 4096 * f);
  const ep1 = estimateMemory(base, false);
  assert.ok(Math.abs(ep1.detail.activationPerLayer - byHand(2)) / byHand(2) < 1e-9, `${ep1.detail.activationPerLayer} B, by hand ${byHand(2)} B`);
  const ep8 = estimateMemory({ ...base, ep: 8, expertDp: 1 }, false);
  const loaded = byHand(2 * MOE_IMBALANCE.value);
  assert.ok(Math.abs(ep8.detail.activationPerLayer - loaded) / loaded < 1e-9, 'dropless routing: the most loaded EP rank keeps more');
});

test('DP overlap: the bucket completed last (the first layers and the input embedding) and the next step’s first parameter gather are exposed (Megatron-Core distributed_data_parallel.py, param_and_grad_buffer.py @ core_v0.14.0)', async () => {
  const { countParameters } = await import('../../server/src/engine/plan/memory');
  const w = workload('llama-3-8b', 16, 'h100-sxm', 4096, 64);
  const e = estimateStep(w, layout({ tp: 1, pp: 1, dp: 16 }));
  assert.ok(e.microBatches === 4);
  const params = countParameters(w.model).total;
  const shape = w.model;
  // Half a bucket of 40M parameters (the default exceeds 1M × DP 16) and the 128K × 4096 input embedding.
  const edge = STEP_MODEL.dpBucket.value / 2 + (shape.vocab ?? 0) * shape.hidden;
  // A ring of 16 over two nodes: 1/8 of the bytes per GPU on the network, all of them on NVLink.
  const ringTime = (n: number, bytes: number) => Math.max((15 / 16) * n * bytes / w.hardware.scaleUpGBps, ((15 / 16) * n * bytes) / 8 / w.hardware.scaleOutGBps) / (1e9 * STEP_MODEL.network.value);
  // The rest fits behind the last backward (gradients) and the first forward (parameters): only the SMs' share.
  const share = STEP_MODEL.commSms.value / w.hardware.sms;
  const byHand = ringTime(edge, 4) + share * ringTime(params - edge, 4) + ringTime(edge, 2) + share * ringTime(params - edge, 2);
  assert.ok(Math.abs(e.parts.dp - byHand) / byHand < 1e-9, `DP ${e.parts.dp} s, by hand ${byHand} s`);
  assert.ok(e.parts.dp > 1.2 * share * (ringTime(params, 4) + ringTime(params, 2)), 'more than the whole hidden at the SMs’ share');
});

test('EP with expert TP: a rank sends its own tokens in the all-to-all, and its expert-TP group then gathers them (Megatron-Core token_dispatcher.py @ core_v0.14.0, MoEAlltoAllTokenDispatcher.dispatch_postprocess)', () => {
  const w = { ...workload('mixtral-8x7b', 64, 'h100-sxm', 4096, 256), software: { dedupDispatch: false } };
  const off = { tpComm: false, gradReduce: true, paramGather: true, p2p: false, moeA2A: false };
  const est = estimateStep(w, layout({ tp: 4, pp: 1, ep: 2, etp: 4, dp: 16, overlap: off }));
  // 4096 tokens over TP 4, top-2, on the most loaded rank; four all-to-alls of 16-bit tokens.
  const bytes = (4096 / 4) * 2 * STEP_MODEL.moeImbalance.value * 4096 * 8;
  // The all-to-all to the other EP rank (half of the copies), then the gather over the 3 other expert-TP ranks: all on NVLink.
  const perLayer = (0.5 * bytes + 3 * bytes) / (w.hardware.scaleUpGBps * 1e9 * STEP_MODEL.network.value);
  const expected = est.microBatches * 32 * perLayer;
  assert.ok(Math.abs(est.parts.ep / expected - 1) < 1e-9, `${est.parts.ep} s, by hand ${expected} s`);
});

test('EP with a benchmark gate that gives each token consecutive experts (NeMo AutoModel FakeBalancedGate): a token reaches one domain, not several', () => {
  const w = workload('deepseek-v3', 256, 'h100-sxm', 4096, 1024);
  const off = { tpComm: false, gradReduce: true, paramGather: true, p2p: false, moeA2A: false };
  const l = layout({ tp: 1, pp: 4, ep: 64, etp: 1, dp: 64, overlap: off });
  const random = estimateStep(w, l);
  const contiguous = estimateStep({ ...w, software: { contiguousRouting: true } }, l);
  // 8 consecutive experts from a multiple of 8, 32 experts per 8-GPU node: one domain, remote 7 times in 8; random: 7 × (1 − (7/8)^8).
  const expected = (7 / 8) / (7 * (1 - (7 / 8) ** 8));
  assert.ok(Math.abs(contiguous.parts.ep / random.parts.ep - expected) < 1e-9, `ratio ${contiguous.parts.ep / random.parts.ep}, expected ${expected}`);
});

test('EP overlap only where the software has it: without it (Megatron-Core before 0.14.0, NeMo AutoModel) the planner never turns it on', () => {
  const w = workload('mixtral-8x7b', 64, 'h100-sxm', 4096, 256);
  const pinned = { tp: 1, pp: 1, ep: 8, etp: 1 };
  assert.ok(planLayouts({ workload: w, pinned }).layouts.some((x) => x.layout.overlap.moeA2A), 'today’s Megatron-Core: the overlap is tried');
  const old = planLayouts({ workload: { ...w, software: { moeA2AOverlap: false } }, pinned });
  assert.ok(old.layouts.length > 0 && old.layouts.every((x) => !x.layout.overlap.moeA2A));
});
