/**
 * `shardwise plan`: the ranked layouts as text and JSON, a model read from a preset, a Hugging Face
 * config.json or a launch script (whose GPUs, sequence and batch become the defaults), and usage
 * mistakes.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from './run-cli';

const LLAMA_70B = ['plan', '--model', 'llama-3-70b', '--gpus', '64', '--hardware', 'h100-sxm', '--seq-length', '8192', '--global-batch', '128'];

interface PlanJson {
  workload: { gpus: number; hardware: string; seqLength: number; globalBatch: number; precision: string };
  counts: { considered: number };
  layouts: { rank: number; tp: number; pp: number; cp: number; dp: number; vpp: number; microBatch: number; sharding: string; memoryGiB: number; stepSeconds: number; tokensPerSecondPerGpu: number; mfu: number | null }[];
  assumptions: string[];
}

test('plan: the best layouts of Llama 3 70B on 64 H100 as a table, with where the step goes and every assumption', () => {
  const r = runCli(LLAMA_70B);
  assert.equal(r.code, 0, r.err);
  const lines = r.out.split('\n');
  assert.match(lines[0], /^Llama 3 70B .* on 64 × H100 SXM5 80 GB/);
  assert.match(lines[1], /sequence 8192 · global batch 128 · BF16 · [\d,]+ layouts and settings considered/);
  const header = lines.findIndex((l) => /^#\s+TP\s+PP\s+VPP\s+CP\s+DP\s+MBS/.test(l));
  assert.ok(header > 0, r.out);
  const rows = lines.slice(header + 1, header + 6);
  assert.equal(rows.length, 5);
  rows.forEach((row, i) => assert.match(row, new RegExp(`^${i + 1}\\s+\\d+\\s+\\d+\\*?\\s+\\d+\\s+\\d+\\s+\\d+\\s+\\d+\\s+(on|off)\\s+\\S.*\\s\\d+\\.\\d %$`), row));
  // Right under the table: the figures are best-case, for ranking, and where they were checked.
  assert.match(lines[header + 7], /^step, tokens\/s, TFLOP\/s and MFU are best-case estimates .*docs\/planner-validation\.md.*upper bound/);
  assert.match(r.out, /Where the step of #1 goes: compute .*pipeline bubble .*data-parallel .*micro-batches per step/);
  assert.match(r.out, /Assumptions:\n/);
  assert.match(r.out, /a large GEMM reaches 0\.803 of the dense BF16 peak .* on h100-sxm/);
  assert.match(r.out, /model: meta-llama\/Meta-Llama-3-70B config\.json/);
});

test('plan --output-format json: the same ranking as data, ordered by step time except among ties (which say so), each layout within the HBM', () => {
  const r = runCli([...LLAMA_70B, '--output-format', 'json', '--top', '3']);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out) as PlanJson & { caveat: string };
  assert.match(j.caveat, /best-case estimates/);
  assert.deepEqual(j.workload, { gpus: 64, hardware: 'h100-sxm', nvlinkDomain: 8, gpusPerNode: 8, seqLength: 8192, globalBatch: 128, precision: 'bf16' } as never);
  assert.equal(j.layouts.length, 3);
  for (const [i, l] of j.layouts.entries()) {
    assert.equal(l.rank, i + 1);
    assert.equal(l.tp * l.pp * l.cp * l.dp, 64);
    assert.ok(l.memoryGiB <= 72);
    assert.ok(Math.abs(l.tokensPerSecondPerGpu - (128 * 8192) / (l.stepSeconds * 64)) < 1e-6);
    // Layouts within the step model's measured error of the fastest are ties, ordered by a named
    // rule; elsewhere the order is the step time.
    const order = (x: unknown) => (x as { order?: { tied?: boolean } }).order;
    if (i && !(order(l)?.tied && order(j.layouts[i - 1])?.tied)) assert.ok(l.stepSeconds >= j.layouts[i - 1].stepSeconds);
  }
  const order = (x: unknown) => (x as { order?: { tied?: boolean } }).order;
  const fastest = Math.min(...j.layouts.map((l) => l.stepSeconds));
  for (const l of j.layouts) if (order(l)?.tied) assert.ok(l.stepSeconds <= fastest * 1.1, 'a tie is within the model error of the fastest');
  assert.ok(j.assumptions.some((a) => /NCCL collectives/.test(a)));
});

test('plan pins what it is told: --tp 8 --pp 4 --recompute full --sharding none', () => {
  const r = runCli([...LLAMA_70B, '--tp', '8', '--pp', '4', '--recompute', 'full', '--sharding', 'none', '--output-format', 'json']);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out) as PlanJson;
  assert.ok(j.layouts.length > 0);
  for (const l of j.layouts) assert.deepEqual([l.tp, l.pp, l.sharding], [8, 4, 'none']);
});

test('plan --model reads a Hugging Face config.json, and a launch script gives its GPUs, sequence and batch as defaults', () => {
  const dir = mkdtempSync(join(tmpdir(), 'shardwise-plan-'));
  try {
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ model_type: 'llama', num_hidden_layers: 32, hidden_size: 4096, num_attention_heads: 32, num_key_value_heads: 8, intermediate_size: 14336, vocab_size: 128256, hidden_act: 'silu', rms_norm_eps: 1e-5, tie_word_embeddings: false }));
    const hf = runCli(['plan', '--model', config, '--gpus', '8', '--output-format', 'json']);
    assert.equal(hf.code, 0, hf.err);
    const j = JSON.parse(hf.out) as PlanJson & { model: string };
    assert.equal(j.workload.seqLength, 4096, 'the sequence length is assumed when nothing gives it');
    assert.equal(j.workload.globalBatch, 1024, 'about 4M tokens');
    assert.ok(j.assumptions.some((a) => /sequence length 4096, assumed/.test(a)));
    assert.ok(j.assumptions.some((a) => /hardware: h100-sxm, assumed/.test(a)));

    const script = runCli(['plan', '--model', 'examples/megatron/pretrain-llama3-8b.sh', '--output-format', 'json']);
    assert.equal(script.code, 0, script.err);
    const s = JSON.parse(script.out) as PlanJson;
    assert.equal(s.workload.gpus, 16, 'two nodes of eight GPUs');
    assert.equal(s.workload.seqLength, 8192);
    assert.ok(s.assumptions.some((a) => /GPUs: 16, from examples\/megatron\/pretrain-llama3-8b\.sh/.test(a)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('plan: usage mistakes and models it cannot read exit 2 with what is wrong', () => {
  const cases: [string[], RegExp][] = [
    [['plan', '--gpus', '8'], /plan needs --model: a preset \(llama-3-8b, /],
    [['plan', '--model', 'llama-4-9000b', '--gpus', '8'], /--model llama-4-9000b is no preset .* and cannot be read/],
    [['plan', '--model', 'llama-3-8b'], /plan needs --gpus N/],
    [['plan', '--model', 'llama-3-8b', '--gpus', '8', '--precision', 'fp4'], /--precision takes bf16 or fp8, not "fp4"/],
    [['plan', '--model', 'llama-3-8b', '--gpus', '8', '--hardware', 'h10'], /unknown hardware/],
    [['plan', '--model', 'llama-3-8b', '--gpus', '8', '--hardware', 'a100-80gb', '--precision', 'fp8'], /a100-80gb has no FP8 tensor cores/],
    [['plan', '--model', 'llama-3-8b', '--gpus', '8', '--recompute', 'some'], /--recompute takes none, selective, full/],
    [['plan', '--model', 'llama-3-8b', '--gpus', '0'], /--gpus needs a positive integer/],
    [['plan', '--model', 'llama-3-8b', '--gpus', '8', 'extra.yaml'], /plan takes the model as --model/],
  ];
  for (const [args, message] of cases) {
    const r = runCli(args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.out}`);
    assert.match(r.err, message, args.join(' '));
  }
  const none = runCli(['plan', '--model', 'llama-3.1-405b', '--gpus', '8']);
  assert.equal(none.code, 1, 'a model no layout holds is a finding, not a usage error');
  assert.match(none.out, /No layout: every valid layout needs more than 72 GiB per GPU/);
});

test('plan --explain says where the first layout’s step goes and what the second would need; a model file without a vocabulary says so, and --vocab and --network-gbps are taken', () => {
  const r = runCli(['plan', '--model', 'examples/megatron/pretrain-llama3-8b.sh', '--explain', '--top', '2']);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^Why #1 \(TP \d+ · PP \d+.*\): its step of .* is$/m);
  assert.match(r.out, /^ {2}compute [\d.]+ m?s \([\d.]+ %\)$/m);
  assert.match(r.out, /^#2 \(.*\) takes .* (longer: .*\+|less: .*−)/m);
  // Within the tie band a rule decides between them (named), beyond it the part that would have to fall; a faster #2 below #1 names the rule that put it there.
  assert.match(r.out, /^(For #2 to win, (.* would have to fall by more than |it would have to follow “.*” \[[a-z-]+\] as #1 does)|#1 ranks above #2 by the tie order, not by time: .* \[[a-z-]+: )/m);
  assert.match(r.out, /^Ranked by the tie order, not by time \(steps within [\d.]+ % of the fastest are ties/m);
  assert.match(r.out, /does not give the vocabulary size .* --vocab N adds them/);
  const asJson = JSON.parse(runCli(['plan', '--model', 'examples/megatron/pretrain-llama3-8b.sh', '--explain', '--top', '2', '--output-format', 'json']).out) as { explain: string[] };
  assert.match(asJson.explain[0], /^Why #1 \(TP \d+/);
  assert.ok(asJson.explain.some((l) => /^#2 \(.*\) takes /.test(l)));
  const j = JSON.parse(runCli(['plan', '--model', 'examples/megatron/pretrain-llama3-8b.sh', '--output-format', 'json', '--top', '1']).out) as { layouts: { stepSeconds: number; expected: { stepSeconds: number; calibration: number } }[] };
  const l = j.layouts[0];
  assert.ok(Math.abs(l.expected.stepSeconds - l.stepSeconds * l.expected.calibration) < 1e-9, 'the expectation is the priced step × the calibration');
  const given = runCli(['plan', '--model', 'examples/megatron/pretrain-llama3-8b.sh', '--vocab', '128256', '--network-gbps', '25', '--output-format', 'json', '--top', '1']);
  const g = JSON.parse(given.out) as { assumptions: string[]; layouts: { stepSeconds: number }[] };
  assert.ok(!g.assumptions.some((a) => /does not give the vocabulary/.test(a)));
  assert.ok(g.assumptions.some((a) => /vocabulary 128256 \(--vocab\)/.test(a)));
  assert.ok(g.assumptions.some((a) => /network: 25 GB\/s per GPU/.test(a)));
  assert.ok(g.layouts[0].stepSeconds > l.stepSeconds, 'the logits and a slower network cost time');
  const badRecompute = runCli(['plan', '--model', 'llama-3-8b', '--gpus', '8', '--recompute', 'selective', '--recompute-layers', '2']);
  assert.equal(badRecompute.code, 2);
  assert.match(badRecompute.err, /--recompute-layers recomputes whole layers: it goes with --recompute full/);
});

test('plan --grouped-gemm prices the local experts without the host loop, and says which it assumed', () => {
  // DeepSeek-V3 at EP 8: 32 local experts per GPU, each issued by the host after the dispatcher's synchronization.
  const base = ['plan', '--model', 'deepseek-v3', '--gpus', '256', '--seq-length', '4096', '--global-batch', '1024', '--tp', '1', '--pp', '8', '--ep', '8', '--micro-batch', '1', '--output-format', 'json', '--top', '1'];
  const step = (args: string[]) => JSON.parse(runCli(args).out) as { assumptions: string[]; layouts: { stepSeconds: number }[] };
  const loop = step(base);
  assert.ok(loop.assumptions.some((a) => /local experts issued one by one from the host/.test(a)));
  const grouped = step([...base, '--grouped-gemm']);
  assert.ok(grouped.assumptions.some((a) => /one grouped GEMM that reads the tokens per expert on the GPU \(--grouped-gemm\)/.test(a)));
  assert.ok(grouped.layouts[0].stepSeconds < loop.layouts[0].stepSeconds, `${grouped.layouts[0].stepSeconds} s grouped, ${loop.layouts[0].stepSeconds} s issued one by one`);
});

test('plan with no layout names the constraint: the heads a TP does not divide', () => {
  const r = runCli(['plan', '--model', 'llama-3-70b', '--gpus', '64', '--tp', '3']);
  assert.equal(r.code, 1);
  assert.match(r.out, /No layout: TP 3 does not divide the 64 attention heads .*\(TP 1, 2, 4 or 8 would\)\./);
});

test('plan --unfused-attention and --fp8-dispatch say what they change, and only change what the run can do', () => {
  const base = ['plan', '--model', 'mixtral-8x7b', '--gpus', '64', '--seq-length', '4096', '--global-batch', '256', '--tp', '1', '--pp', '1', '--ep', '8', '--micro-batch', '2', '--output-format', 'json', '--top', '1'];
  const step = (args: string[]) => JSON.parse(runCli(args).out) as { assumptions: string[]; layouts: { stepSeconds: number }[] };
  const fp8 = step([...base, '--precision', 'fp8']);
  const dispatched = step([...base, '--precision', 'fp8', '--fp8-dispatch']);
  assert.ok(dispatched.assumptions.includes('tokens dispatched to the experts in FP8 (--fp8-dispatch)'));
  assert.ok(dispatched.layouts[0].stepSeconds < fp8.layouts[0].stepSeconds, "FP8 tokens cross the all-to-all in half the bytes");
  const bf16 = step([...base, '--fp8-dispatch']);
  assert.ok(bf16.assumptions.some((a) => /--fp8-dispatch has no effect: the GEMMs run in BF16/.test(a)));
  // The flex dispatcher (DeepEP) is the default; the all-to-all one sends a copy per routed expert.
  assert.ok(step(base).assumptions.some((a) => /flex dispatcher .*once per remote NVLink domain/.test(a)));
  const spanning = [...base, '--nvlink-domain', '4', '--gpus-per-node', '4'];
  const alltoall = step([...spanning, '--dispatcher', 'alltoall']);
  assert.ok(alltoall.assumptions.some((a) => /all-to-all dispatcher: one network copy per routed expert \(--dispatcher alltoall\)/.test(a)));
  assert.ok(alltoall.layouts[0].stepSeconds > step(spanning).layouts[0].stepSeconds, 'EP 8 over nodes of 4 GPUs: a copy per routed expert costs more than one per node');
  assert.equal(step([...spanning, '--dedup-dispatch']).layouts[0].stepSeconds, step(spanning).layouts[0].stepSeconds);
  // Inside one NVLink domain the flex dispatcher still sends a token once to each GPU it reaches (its
  // experts there share it), the all-to-all one once per routed expert: never faster.
  assert.ok(step([...base, '--dispatcher', 'alltoall']).layouts[0].stepSeconds > step(base).layouts[0].stepSeconds);
  const unfused = step([...base, '--unfused-attention']);
  assert.ok(unfused.assumptions.some((a) => /attention without a fused kernel \(--unfused-attention\)/.test(a)));
  assert.ok(unfused.layouts[0].stepSeconds > step(base).layouts[0].stepSeconds);
});
