/**
 * Published mixture-of-experts training runs added after the planner's MoE terms were written, to
 * measure it on runs it was never shaped on. Like `HELDOUT_RUNS`, this table is never used to fit,
 * tune or choose any term, factor or default of the planner or of its step-time model; it is read
 * only to report figures (published layout among the top five, calibrated estimate within ±25 %),
 * and only as totals. None of these rows is in `published.ts` or `published-heldout.ts`.
 *
 * Rows follow `PUBLISHED_RUNS`: the layout, batch, sequence, hardware and throughput as the source
 * gives them, compared as tokens per second per GPU. Where a source gives the step time, tokens
 * follow from global batch × sequence ÷ (step time × GPUs). `pinned` holds only what the source
 * states (Megatron-FSDP or PyTorch FSDP sharding, full recomputation); the rest stays open.
 */
import type { ModelShape, Pinned } from '../../server/src/engine';
import { modelPreset } from '../../server/src/engine/plan/models';
import type { PublishedRun } from './published';
import { GPT_OSS_120B, QWEN3_235B_A22B, QWEN3_30B_A3B } from './published-heldout';
import { AUTOMODEL_GATE } from './published-moe';

type Layout = PublishedRun['layout'];

const preset = (id: string): ModelShape => modelPreset(id)!.shape;
const fromStep = (globalBatch: number, seq: number, seconds: number, gpus: number): number => (globalBatch * seq) / (seconds * gpus);

/**
 * Llama 4 Scout (16 experts): NeMo `Llama4Experts16Config` and its base `Llama4Config`
 * (nemo/collections/llm/gpt/model/llama.py @ 8cfedd720346): 48 layers, hidden 5120, 40 heads,
 * 8 query groups, every layer MoE with 16 experts of 8192, top-1, a shared expert of 8192, vocabulary
 * 202,048, untied. Three of four layers use chunked attention of 8192 tokens, which at the 8192-token
 * sequence of the row below is the full sequence.
 */
const LLAMA4_SCOUT: ModelShape = { layers: 48, hidden: 5120, heads: 40, queryGroups: 8, ffn: 16384, moeFfn: 8192, sharedExpertFfn: 8192, experts: 16, topK: 1, swiglu: true, vocab: 202048, untiedEmbeddings: true, norm: 'rmsnorm' };

interface Row {
  id: string;
  model: string;
  shape: ModelShape;
  hardware: string;
  gpus: number;
  precision: 'bf16' | 'fp8';
  gbs: number;
  mbs: number;
  seq: number;
  layout: Omit<Layout, 'microBatch'>;
  tokens: number;
  source: string;
  how: string;
  pinned?: Pinned;
  reduce16?: boolean;
  software?: PublishedRun['software'];
}

function run(r: Row): PublishedRun {
  return {
    id: r.id,
    source: r.source,
    model: r.model,
    shape: r.shape,
    hardware: r.hardware,
    gpus: r.gpus,
    seqLength: r.seq,
    globalBatch: r.gbs,
    precision: r.precision,
    layout: { ...r.layout, microBatch: r.mbs },
    ...(r.pinned ? { pinned: r.pinned } : {}),
    ...(r.reduce16 ? { gradReduce16: true } : {}),
    ...(r.software ? { software: r.software } : {}),
    tokens: r.tokens,
    how: r.how,
  };
}

// ---------------------------------------------------------------------------------------------
// Megatron Bridge performance summary, 25.11 NeMo container (docs/performance-summary-archive.md
// @ 067f987df03b, section “25.11 NeMo Container”): rows whose model, system, batch or layout
// differ from every row of the other tables. Routing force-balanced and token-dropless.

const B2511 = (system: string, model: string) => `Megatron Bridge performance summary, 25.11 NeMo Container, Pre-Training Performance, System ${system}, row ${model} (NVIDIA-NeMo/Megatron-Bridge docs/performance-summary-archive.md @ 067f987df03b)`;
const B_HOW = 'tokens/s/GPU as published; the performance recipes reduce gradients in BF16; MoE routing force-balanced and token-dropless, as the page notes';

const BRIDGE_2511: PublishedRun[] = [
  run({ id: 'fresh-bridge-qwen3-30b-h100-16-vp24', model: 'Qwen3 30B-A3B', shape: QWEN3_30B_A3B, hardware: 'h100-sxm', gpus: 16, precision: 'fp8', gbs: 512, mbs: 2, seq: 4096, layout: { tp: 1, pp: 2, cp: 1, vpp: 24, ep: 8 }, tokens: 5275, source: B2511('DGX-H100', 'Qwen3_30B_a3B (FP8-CS)'), how: B_HOW, reduce16: true }),
  run({ id: 'fresh-bridge-qwen3-235b-b200-64', model: 'Qwen3 235B-A22B', shape: QWEN3_235B_A22B, hardware: 'b200', gpus: 64, precision: 'fp8', gbs: 1024, mbs: 1, seq: 4096, layout: { tp: 1, pp: 8, cp: 1, vpp: 2, ep: 8 }, tokens: 3269, source: B2511('DGX-B200', 'Qwen3_235B_a22B (FP8-MX)'), how: `${B_HOW}; 94 layers do not split evenly over 16 pipeline chunks`, reduce16: true }),
  run({ id: 'fresh-bridge-deepseek-v3-gb200-bf16', model: 'DeepSeek-V3', shape: preset('deepseek-v3'), hardware: 'gb200-nvl72', gpus: 256, precision: 'bf16', gbs: 4096, mbs: 1, seq: 4096, layout: { tp: 1, pp: 4, cp: 1, vpp: 4, ep: 64, etp: 1 }, tokens: 3139, source: B2511('DGX-GB200', 'DeepSeekV3 (w/o MTP), BF16'), how: `${B_HOW}; without the multi-token-prediction layer, as the row says (the preset does not count it); 61 layers do not split evenly over 16 pipeline chunks`, reduce16: true }),
  run({ id: 'fresh-bridge-gpt-oss-120b-gb200-8k', model: 'GPT-OSS 120B', shape: GPT_OSS_120B, hardware: 'gb200-nvl72', gpus: 64, precision: 'bf16', gbs: 1280, mbs: 1, seq: 8192, layout: { tp: 1, pp: 1, cp: 1, ep: 64 }, tokens: 15876, source: B2511('DGX-GB200', 'GPT OSS 120B, BF16, sequence 8192'), how: `${B_HOW}; half the layers use 128-token sliding-window attention, which the shape counts as full attention`, reduce16: true }),
  run({ id: 'fresh-bridge-gpt-oss-120b-b200-gbs512', model: 'GPT-OSS 120B', shape: GPT_OSS_120B, hardware: 'b200', gpus: 64, precision: 'bf16', gbs: 512, mbs: 4, seq: 4096, layout: { tp: 1, pp: 1, cp: 1, ep: 8 }, tokens: 8213, source: B2511('DGX-B200', 'GPT OSS 120B, BF16'), how: `${B_HOW}; half the layers use 128-token sliding-window attention, which the shape counts as full attention`, reduce16: true }),
  run({ id: 'fresh-bridge-qwen3-235b-gb300-bf16', model: 'Qwen3 235B-A22B', shape: QWEN3_235B_A22B, hardware: 'gb300-nvl72', gpus: 256, precision: 'bf16', gbs: 8192, mbs: 2, seq: 4096, layout: { tp: 1, pp: 4, cp: 1, vpp: 12, ep: 16 }, tokens: 6131, source: B2511('DGX-GB300', 'Qwen3_235B_a22B, BF16'), how: `${B_HOW}; 94 layers do not split evenly over 48 pipeline chunks`, reduce16: true }),
];

// ---------------------------------------------------------------------------------------------
// Megatron-Core MoE model zoo, Qwen3-235B-A22B on 256 H100, BF16, sequence 4096, GBS 2048
// (yanring/Megatron-MoE-ModelZoo best_practice/qwen3/readme.md @ e8650517d60d): step times.

const ZOO = (what: string) => `Megatron-MoE-ModelZoo best_practice/qwen3/readme.md @ e8650517d60d, Qwen3-235B-A22B on 256 H100, BF16, sequence 4096, GBS 2048: ${what}`;
const zooHow = (seconds: number, extra: string) => `2,048 sequences of 4,096 per ${seconds} s step on 256 GPUs; ${extra}; gradient-reduction precision not stated (FP32, Megatron's default)`;

const MODEL_ZOO: PublishedRun[] = [
  run({ id: 'fresh-zoo-qwen3-235b-h100-ep32', model: 'Qwen3 235B-A22B', shape: QWEN3_235B_A22B, hardware: 'h100-sxm', gpus: 256, precision: 'bf16', gbs: 2048, mbs: 1, seq: 4096, layout: { tp: 2, pp: 8, cp: 1, vpp: 4, ep: 32, etp: 1 }, tokens: fromStep(2048, 4096, 19.7, 256), source: ZOO('“Cross-node EP strategy”, DeepEP, TP 2 · EP 32 · PP 8 · VPP 4 · ETP 1, MBS 1, 19.7 s (the row without 1F1B overlap)'), how: zooHow(19.7, 'selective recomputation of norms and activations; DeepEP dispatcher; 94 layers do not split evenly over 32 pipeline chunks') }),
  run({ id: 'fresh-zoo-qwen3-235b-h100-tp4-ep8', model: 'Qwen3 235B-A22B', shape: QWEN3_235B_A22B, hardware: 'h100-sxm', gpus: 256, precision: 'bf16', gbs: 2048, mbs: 1, seq: 4096, layout: { tp: 4, pp: 8, cp: 1, vpp: 4, ep: 8, etp: 1 }, tokens: fromStep(2048, 4096, 29.0, 256), source: ZOO('“Intra-node EP strategy”, DeepEP, TP 4 · EP 8 · PP 8 · VPP 4 · ETP 1, MBS 1, 29.0 s'), how: zooHow(29.0, 'no recomputation; DeepEP dispatcher; 94 layers do not split evenly over 32 pipeline chunks') }),
  run({ id: 'fresh-zoo-qwen3-235b-h100-fsdp', model: 'Qwen3 235B-A22B', shape: QWEN3_235B_A22B, hardware: 'h100-sxm', gpus: 256, precision: 'bf16', gbs: 2048, mbs: 4, seq: 4096, layout: { tp: 2, pp: 1, cp: 1, ep: 8, etp: 1 }, pinned: { sharding: 'optim_grads_params', recompute: 'full' }, tokens: fromStep(2048, 4096, 17.6, 256), source: ZOO('“Intra-node EP strategy”, DeepEP, TP 2 · EP 8 · PP 1 · ETP 1, FSDP on, MBS 4, full recomputation, 17.6 s'), how: zooHow(17.6, 'Megatron-FSDP and full recomputation as the row states; DeepEP dispatcher') }),
];

// ---------------------------------------------------------------------------------------------
// NeMo 25.07 performance summary (FP8, per-tensor current scaling), DGX-GB200.

const LLAMA4_ROW = run({
  id: 'fresh-nemo-llama4-scout-gb200-64',
  model: 'Llama 4 Scout (16 experts)',
  shape: LLAMA4_SCOUT,
  hardware: 'gb200-nvl72',
  gpus: 64,
  precision: 'fp8',
  gbs: 1024,
  mbs: 1,
  seq: 8192,
  layout: { tp: 1, pp: 1, cp: 1, ep: 16 },
  tokens: 13783,
  reduce16: true,
  source: 'NeMo 25.07 performance summary, Pre-Training Performance, DGX-GB200, FP8 per-tensor current scaling, row LLAMA4-Scout-LLM (https://docs.nvidia.com/nemo-framework/user-guide/latest/performance/performance-summary.html, Container NeMo 25.07)',
  how: 'tokens/s/GPU as published (13,783; the figure in parentheses, 10,717, is the other FP8 granularity); NeMo’s performance scripts reduce gradients in BF16 for FP8 runs',
});

// ---------------------------------------------------------------------------------------------
// NeMo AutoModel (PyTorch backend: FSDP2 with expert parallelism), DGX-H100, BF16
// (NVIDIA-NeMo/Automodel docs/performance-summary.mdx @ 36044ad3d139, Pre-Training Performance).

const AUTOMODEL = (row: string) => `NeMo AutoModel performance summary, Pre-Training Performance, DGX-H100, BF16, row ${row} (NVIDIA-NeMo/Automodel docs/performance-summary.mdx @ 36044ad3d139)`;
/**
 * The page's rows route with AutoModel's benchmark gate (a fake balanced gate: token i goes to the
 * consecutive experts from i·k, nemo_automodel/components/moe/layers.py FakeBalancedGate), and
 * AutoModel has no expert-parallel all-to-all overlap: the facts `published-moe.ts` records for the
 * same page.
 */
const AUTOMODEL_SOFTWARE = AUTOMODEL_GATE;
const AUTOMODEL_ROWS: PublishedRun[] = [
  run({ id: 'fresh-automodel-qwen3-30b-h100-8', model: 'Qwen3 30B-A3B', shape: QWEN3_30B_A3B, hardware: 'h100-sxm', gpus: 8, precision: 'bf16', gbs: 512, mbs: 4, seq: 4096, layout: { tp: 1, pp: 1, cp: 1, ep: 8 }, pinned: { sharding: 'optim_grads_params' }, software: AUTOMODEL_SOFTWARE, tokens: 12040, source: AUTOMODEL('Qwen3 MoE 30B (8 GPUs, EP 8, FSDP 8, MBS 4, GA 16, 21.773 s per step)'), how: 'tokens/s/GPU as published (= 512 × 4,096 ÷ (21.773 s × 8)); PyTorch FSDP2 over the 8 GPUs with expert parallelism, TE and DeepEP kernels' }),
  run({ id: 'fresh-automodel-deepseek-v3-h100-256', model: 'DeepSeek-V3', shape: preset('deepseek-v3'), hardware: 'h100-sxm', gpus: 256, precision: 'bf16', gbs: 512, mbs: 1, seq: 4096, layout: { tp: 1, pp: 4, cp: 1, vpp: 8, ep: 64 }, pinned: { sharding: 'optim_grads_params' }, software: AUTOMODEL_SOFTWARE, tokens: 1002, source: AUTOMODEL('DeepSeek V3 671B (256 GPUs, PP 4, EP 64, VP 8, FSDP 64, MBS 1, local batch 8, 8.18 s per step)'), how: 'tokens/s/GPU as published (= 512 × 4,096 ÷ (8.18 s × 256)); PyTorch FSDP2 with expert parallelism, TE and DeepEP kernels; 61 layers do not split evenly over 32 pipeline chunks' }),
];

/** The fresh runs. Never read by code that fits, tunes or chooses anything in the planner. */
export const FRESH_RUNS: readonly PublishedRun[] = [...BRIDGE_2511, ...MODEL_ZOO, LLAMA4_ROW, ...AUTOMODEL_ROWS];
