/**
 * Published training runs held back from the planner: this table is never used to fit, tune or
 * choose any term, factor or default of the planner or of its step-time model. It exists only to
 * measure, after a change to the planner, how far the planner is from runs it was not shaped on
 * (published layout among the top five, estimate against the published throughput).
 *
 * Rows follow `PUBLISHED_RUNS` (test/planner/published.ts): the layout each run used and the
 * throughput it measured, as its source gives them, compared as tokens per second per GPU. Where a
 * source gives the step time, tokens follow from global batch × sequence ÷ (step time × GPUs); where
 * it gives MFU only, from its own FLOP formula. `pinned` holds only what the source states or what
 * the software of the time could not do; a setting the source does not give stays open. What the
 * planner's inputs cannot express (a slower network than the hardware profile's, sliding-window
 * attention, a Muon optimizer, FP16 instead of BF16) is said in `how`.
 */
import type { ModelShape, Pinned } from '../../server/src/engine';
import { countParameters } from '../../server/src/engine/plan/memory';
import { modelPreset } from '../../server/src/engine/plan/models';
import type { PublishedRun } from './published';
import { MCORE_BEFORE_014 } from './published-moe';

type Layout = PublishedRun['layout'];

const preset = (id: string): ModelShape => modelPreset(id)!.shape;
const gpt = (layers: number, hidden: number, heads: number, vocab: number): ModelShape => ({ layers, hidden, heads, vocab });

/** Tokens per second per GPU from a published step (iteration) time. */
const fromStep = (globalBatch: number, seq: number, seconds: number, gpus: number): number => (globalBatch * seq) / (seconds * gpus);

/** PaLM's model FLOPs per token (Chowdhery et al. 2023, App. B): 6N + 12·L·H·Q·T, as `published.ts` counts them. */
function palmTokens(mfu: number, peakTflops: number, m: ModelShape, s: number): number {
  return (mfu * peakTflops * 1e12) / (6 * countParameters(m).total + 12 * m.layers * m.hidden * s);
}

// ---------------------------------------------------------------------------------------------
// Model shapes not among the presets (each from the source named beside it).

/** Qwen3 MoE: Megatron Bridge `Qwen3MoEModelProvider30B_A3B` / `…235B_A22B` (src/megatron/bridge/models/qwen/qwen_provider.py @ 47f330e4dc52). */
export const QWEN3_30B_A3B: ModelShape = { layers: 48, hidden: 2048, heads: 32, queryGroups: 4, kvChannels: 128, ffn: 6144, moeFfn: 768, experts: 128, topK: 8, swiglu: true, vocab: 151936, untiedEmbeddings: true, norm: 'rmsnorm' };
export const QWEN3_235B_A22B: ModelShape = { layers: 94, hidden: 4096, heads: 64, queryGroups: 4, kvChannels: 128, ffn: 12288, moeFfn: 1536, experts: 128, topK: 8, swiglu: true, vocab: 151936, untiedEmbeddings: true, norm: 'rmsnorm' };
/** GPT-OSS 120B: Bridge `GPTOSSProvider120B` (models/gpt_oss/gpt_oss_provider.py @ 47f330e4dc52); every other layer is 128-token sliding-window attention, which the shape cannot say. */
export const GPT_OSS_120B: ModelShape = { layers: 36, hidden: 2880, heads: 64, queryGroups: 8, kvChannels: 64, ffn: 2880, moeFfn: 2880, experts: 128, topK: 4, swiglu: true, vocab: 201088, untiedEmbeddings: true, norm: 'rmsnorm' };
/** Kimi K2: Bridge `KimiK2Provider` (models/kimi/kimi_provider.py @ e25e494d15a3): MLA, 384 experts of 2048 + one shared, first layer dense. */
const KIMI_K2: ModelShape = {
  layers: 61,
  hidden: 7168,
  heads: 64,
  ffn: 18432,
  moeFfn: 2048,
  sharedExpertFfn: 2048,
  experts: 384,
  topK: 8,
  firstDenseLayers: 1,
  swiglu: true,
  vocab: 163840,
  untiedEmbeddings: true,
  norm: 'rmsnorm',
  mla: { qLoraRank: 1536, kvLoraRank: 512, qkHeadDim: 128, qkPosEmbHeadDim: 64, vHeadDim: 128 },
};
/**
 * Nemotron (NeMo-Framework-Launcher conf/training/nemotron/nemotron_{8b,22b}.yaml @ 26e42fa91d9e:
 * squared-ReLU MLP, no bias, untied embeddings). The configs name no tokenizer; a vocabulary of
 * 256,000 is the one for which the table's model TFLOP/s ÷ tokens/s (643e12 ÷ 12,507 and
 * 562e12 ÷ 4,312 FLOPs per token) comes out, to 0.1 %, as 6N + 12·L·H·s + 6·h·V.
 */
const NEMOTRON_8B: ModelShape = { layers: 32, hidden: 4096, heads: 32, ffn: 16384, vocab: 256000, untiedEmbeddings: true, norm: 'layernorm' };
const NEMOTRON_22B: ModelShape = { layers: 40, hidden: 6144, heads: 48, ffn: 24576, vocab: 256000, untiedEmbeddings: true, norm: 'layernorm' };
/** Nemotron-4 15B report, Table 1 and §2: 32 layers, hidden 6144, 48 heads, 8 KV heads, vocabulary 256,000, squared ReLU, untied. */
const NEMOTRON4_15B: ModelShape = { layers: 32, hidden: 6144, heads: 48, queryGroups: 8, ffn: 24576, vocab: 256000, untiedEmbeddings: true, norm: 'layernorm' };
/** Nemotron-4 340B: 96 layers, hidden 18432, 96 heads, 8 KV heads, FFN 73728, vocabulary 256,000, untied (the shape `published.ts` uses). */
const NEMOTRON4_340B: ModelShape = { layers: 96, hidden: 18432, heads: 96, queryGroups: 8, ffn: 73728, vocab: 256000, untiedEmbeddings: true, norm: 'layernorm' };
/** BLOOM 176B: tr11-176B-ml.slurm (70 layers, hidden 14336, 112 heads, vocabulary padded to 250,880; tied embeddings). */
const BLOOM_176B: ModelShape = gpt(70, 14336, 112, 250880);
/** MT-NLG 530B: 105 layers, hidden 20480, 128 heads, sequence 2048 (Smith et al. 2022, §2.4); vocabulary 50,272 as llm-analysis's configuration of the model lists it. */
const MTNLG_530B: ModelShape = gpt(105, 20480, 128, 50272);
/** GLM-130B: THUDM/GLM-130B configs/model_glm_130b.sh (70 layers, hidden 12288, GeGLU inner 32768, 96 heads, vocabulary 150,528); word embedding reused as the output layer. */
const GLM_130B: ModelShape = { layers: 70, hidden: 12288, heads: 96, ffn: 32768, swiglu: true, vocab: 150528, untiedEmbeddings: false, norm: 'layernorm' };

// ---------------------------------------------------------------------------------------------
// Megatron Bridge performance summaries (NVIDIA-NeMo/Megatron-Bridge, docs/performance-summary-archive.md
// @ 067f987df03b8355b03192d88d70f1709fedf51a). Benchmarks force-balance the routing and drop no token.

const BRIDGE_DOC = 'NVIDIA-NeMo/Megatron-Bridge docs/performance-summary-archive.md @ 067f987df03b';
const BRIDGE_REDUCE = 'the performance recipes reduce gradients in BF16 (src/megatron/bridge/perf_recipes/_common.py, `grad_reduce_in_fp32 = False`)';
const MOE_BALANCED = 'MoE routing force-balanced and token-dropless, as the page notes';

interface BridgeRow {
  id: string;
  model: string;
  shape: ModelShape;
  hardware: string;
  system: string;
  gpus: number;
  precision: string;
  gbs: number;
  mbs: number;
  seq: number;
  layout: Omit<Layout, 'microBatch'>;
  tokens: number;
  release: string;
  /** The row's own label where the table gives one (“DeepSeekV3 (dropless)”, “FP8-CS”). */
  label?: string;
  note?: string;
  /** Gradients reduced in BF16 (the recipes' default); false where a recipe is not known to. */
  reduce16?: boolean;
  /** Replaces the derived `how` where the row needs its own account. */
  how?: string;
}

function bridge(r: BridgeRow): PublishedRun {
  const moe = (r.shape.experts ?? 0) > 0;
  const fp8 = r.precision !== 'BF16';
  const kind = r.precision === 'MXFP8' ? 'MXFP8 (block-scaled FP8)' : r.precision;
  return {
    id: r.id,
    source: `Megatron Bridge performance summary, ${r.release} NeMo Container, Pre-Training Performance, ${r.model}${r.label ? ` (row “${r.label}”)` : ''} on ${r.system} × ${r.gpus}, ${r.precision} (${BRIDGE_DOC})`,
    model: r.model,
    shape: r.shape,
    hardware: r.hardware,
    gpus: r.gpus,
    seqLength: r.seq,
    globalBatch: r.gbs,
    precision: fp8 ? 'fp8' : 'bf16',
    layout: { ...r.layout, microBatch: r.mbs },
    ...(r.reduce16 === false ? {} : { gradReduce16: true }),
    tokens: r.tokens,
    how: r.how ?? `tokens/s/GPU as published, ${kind}; ${BRIDGE_REDUCE}${moe ? `; ${MOE_BALANCED}` : ''}${r.note ? `; ${r.note}` : ''}`,
  };
}

const DSV3_MTP = 'whether the multi-token-prediction layer ran is not stated (the preset does not count it)';
const DSV3_SPLIT = '61 layers do not split evenly over the pipeline chunks (the current H100 recipe’s layout `Et|(tt|)*30mL` puts one layer beside the embedding and the MTP layer beside the loss); expert TP 1 (perf_recipes/deepseek/common.py)';

const BRIDGE_ROWS: PublishedRun[] = [
  bridge({ id: 'bridge-deepseek-v3-h100-1024', model: 'DeepSeek-V3', shape: preset('deepseek-v3'), hardware: 'h100-sxm', system: 'DGX-H100', gpus: 1024, precision: 'FP8', gbs: 8192, mbs: 1, seq: 4096, layout: { tp: 2, pp: 8, cp: 1, vpp: 4, ep: 64, etp: 1 }, tokens: 1297, release: '25.09', label: 'DeepSeekV3 (dropless)', note: `the table has no precision column: FP8 as its note on H100 block-scaling granularity says; ${DSV3_MTP}; ${DSV3_SPLIT}` }),
  bridge({ id: 'bridge-qwen3-235b-h100-256', model: 'Qwen3 235B-A22B', shape: QWEN3_235B_A22B, hardware: 'h100-sxm', system: 'DGX-H100', gpus: 256, precision: 'FP8', gbs: 8192, mbs: 1, seq: 4096, layout: { tp: 2, pp: 8, cp: 1, vpp: 4, ep: 32 }, tokens: 1633, release: '26.02', note: '94 layers do not split evenly over 32 pipeline chunks' }),
  bridge({ id: 'bridge-qwen3-30b-h100-16', model: 'Qwen3 30B-A3B', shape: QWEN3_30B_A3B, hardware: 'h100-sxm', system: 'DGX-H100', gpus: 16, precision: 'FP8', gbs: 1024, mbs: 1, seq: 4096, layout: { tp: 1, pp: 1, cp: 1, ep: 16 }, tokens: 8826, release: '26.06', note: 'the expert group spans two nodes' }),
  bridge({ id: 'bridge-gpt-oss-120b-h100-64', model: 'GPT-OSS 120B', shape: GPT_OSS_120B, hardware: 'h100-sxm', system: 'DGX-H100', gpus: 64, precision: 'BF16', gbs: 1280, mbs: 1, seq: 4096, layout: { tp: 1, pp: 4, cp: 1, ep: 8 }, tokens: 5993, release: '26.02', note: 'half the layers use 128-token sliding-window attention, which the shape counts as full attention' }),
  bridge({ id: 'bridge-deepseek-v3-b200-256', model: 'DeepSeek-V3', shape: preset('deepseek-v3'), hardware: 'b200', system: 'DGX-B200', gpus: 256, precision: 'MXFP8', gbs: 4096, mbs: 1, seq: 4096, layout: { tp: 1, pp: 16, cp: 1, ep: 8, etp: 1 }, tokens: 2689, release: '26.02', note: `${DSV3_MTP}; ${DSV3_SPLIT}` }),
  bridge({ id: 'bridge-qwen3-235b-b200-256', model: 'Qwen3 235B-A22B', shape: QWEN3_235B_A22B, hardware: 'b200', system: 'DGX-B200', gpus: 256, precision: 'MXFP8', gbs: 8192, mbs: 1, seq: 4096, layout: { tp: 1, pp: 8, cp: 1, ep: 8 }, tokens: 3805, release: '26.02', note: '94 layers do not split evenly over 8 pipeline stages' }),
  bridge({ id: 'bridge-gpt-oss-120b-b200-64', model: 'GPT-OSS 120B', shape: GPT_OSS_120B, hardware: 'b200', system: 'DGX-B200', gpus: 64, precision: 'BF16', gbs: 1280, mbs: 4, seq: 4096, layout: { tp: 1, pp: 1, cp: 1, ep: 64 }, tokens: 8047, release: '26.02', note: 'half the layers use 128-token sliding-window attention, which the shape counts as full attention' }),
  bridge({ id: 'bridge-qwen3-30b-b200-8', model: 'Qwen3 30B-A3B', shape: QWEN3_30B_A3B, hardware: 'b200', system: 'DGX-B200', gpus: 8, precision: 'MXFP8', gbs: 512, mbs: 1, seq: 4096, layout: { tp: 1, pp: 1, cp: 1, ep: 8 }, tokens: 9691, release: '26.02' }),
  bridge({ id: 'bridge-deepseek-v3-gb200-256', model: 'DeepSeek-V3', shape: preset('deepseek-v3'), hardware: 'gb200-nvl72', system: 'DGX-GB200', gpus: 256, precision: 'MXFP8', gbs: 4096, mbs: 1, seq: 4096, layout: { tp: 1, pp: 4, cp: 1, vpp: 4, ep: 64, etp: 1 }, tokens: 4969, release: '26.06', note: `${DSV3_MTP}; ${DSV3_SPLIT}` }),
  bridge({ id: 'bridge-qwen3-235b-gb200-256', model: 'Qwen3 235B-A22B', shape: QWEN3_235B_A22B, hardware: 'gb200-nvl72', system: 'DGX-GB200', gpus: 256, precision: 'MXFP8', gbs: 8192, mbs: 1, seq: 4096, layout: { tp: 1, pp: 8, cp: 1, vpp: 3, ep: 32 }, tokens: 7376, release: '26.06', note: '94 layers do not split evenly over 24 pipeline chunks' }),
  bridge({ id: 'bridge-gpt-oss-120b-gb200-64', model: 'GPT-OSS 120B', shape: GPT_OSS_120B, hardware: 'gb200-nvl72', system: 'DGX-GB200', gpus: 64, precision: 'MXFP8', gbs: 1280, mbs: 4, seq: 4096, layout: { tp: 1, pp: 1, cp: 1, ep: 64 }, tokens: 28947, release: '26.06', note: 'half the layers use 128-token sliding-window attention, which the shape counts as full attention' }),
  bridge({ id: 'bridge-qwen3-30b-gb200-8', model: 'Qwen3 30B-A3B', shape: QWEN3_30B_A3B, hardware: 'gb200-nvl72', system: 'DGX-GB200', gpus: 8, precision: 'MXFP8', gbs: 512, mbs: 4, seq: 4096, layout: { tp: 1, pp: 1, cp: 1, ep: 8 }, tokens: 40706, release: '26.06' }),
  bridge({ id: 'bridge-deepseek-v3-gb300-256', model: 'DeepSeek-V3', shape: preset('deepseek-v3'), hardware: 'gb300-nvl72', system: 'DGX-GB300', gpus: 256, precision: 'MXFP8', gbs: 4096, mbs: 1, seq: 4096, layout: { tp: 1, pp: 2, cp: 1, vpp: 8, ep: 32, etp: 1 }, tokens: 6338, release: '26.06', note: `${DSV3_MTP}; ${DSV3_SPLIT}` }),
  bridge({
    id: 'bridge-kimi-k2-gb300-256',
    model: 'Kimi K2',
    shape: KIMI_K2,
    hardware: 'gb300-nvl72',
    system: 'DGX-GB300',
    gpus: 256,
    precision: 'MXFP8',
    gbs: 4096,
    mbs: 2,
    seq: 4096,
    layout: { tp: 1, pp: 4, cp: 1, vpp: 4, ep: 64 },
    tokens: 5372,
    release: '26.06',
    reduce16: false,
    how: `tokens/s/GPU as published, MXFP8 (block-scaled FP8); ${MOE_BALANCED}; trained with the Muon optimizer, as the page notes (the planner prices Adam state); gradient-reduction precision not stated (the recipes' common settings name Kimi K2 as overriding their BF16 default); 61 layers do not split evenly over 16 pipeline chunks`,
  }),
  bridge({ id: 'bridge-llama3-8b-b200', model: 'Llama 3 8B', shape: preset('llama-3-8b'), hardware: 'b200', system: 'DGX-B200', gpus: 8, precision: 'FP8', gbs: 128, mbs: 2, seq: 8192, layout: { tp: 1, pp: 1, cp: 1 }, tokens: 30624, release: '25.11', label: 'FP8-CS, per-tensor current scaling' }),
  bridge({ id: 'bridge-llama31-405b-b200-128', model: 'Llama 3.1 405B', shape: preset('llama-3.1-405b'), hardware: 'b200', system: 'DGX-B200', gpus: 128, precision: 'FP8', gbs: 64, mbs: 1, seq: 8192, layout: { tp: 4, pp: 8, cp: 2, vpp: 8 }, tokens: 661, release: '25.11', label: 'FP8-CS, per-tensor current scaling', note: '126 layers do not split evenly over 64 pipeline chunks' }),
  {
    ...bridge({ id: 'bridge-llama3-70b-gb200-fsdp', model: 'Llama 3 70B', shape: preset('llama-3-70b'), hardware: 'gb200-nvl72', system: 'DGX-GB200', gpus: 64, precision: 'FP8', gbs: 256, mbs: 2, seq: 8192, layout: { tp: 1, pp: 1, cp: 1 }, tokens: 4040, release: '26.02', note: 'Megatron-FSDP over the 64 GPUs (FSDP 64 as published)' }),
    pinned: { sharding: 'optim_grads_params' },
  },
];

// ---------------------------------------------------------------------------------------------
// NeMo performance summaries (FP8): rows `published.ts` does not hold. 24.07 from the NeMo
// repository; 25.02 (DGX-B200) and 25.04 (DGX-GB200) from the NeMo Framework user guide pages.

const NEMO_2407 = 'NeMo 24.07 performance summary, Pretraining, DGX-H100, FP8 (NVIDIA/NeMo docs/source/performance/performance_summary.md @ 9c5c5e970940)';
const NEMO_2502 = 'NeMo 25.02 performance summary, Pretraining, DGX-B200, FP8 (https://docs.nvidia.com/nemo-framework/user-guide/latest/performance/performance_summary.html as of the 25.02 release)';
const NEMO_2504 = 'NeMo 25.04 performance summary, Pre-Training Performance, DGX-GB200, FP8 per-tensor current scaling (https://docs.nvidia.com/nemo-framework/user-guide/latest/performance/archive/25.04-performance-summary.html)';
const NEMO_HOW = 'tokens/s/GPU as published; NeMo’s performance scripts reduce gradients in BF16 for FP8 runs';
const HW_OF: Record<string, string> = { [NEMO_2407]: 'h100-sxm', [NEMO_2502]: 'b200', [NEMO_2504]: 'gb200-nvl72' };

/**
 * NeMo 24.07, 25.02 and 25.04 ship Megatron-Core 0.8 to 0.12, which have no expert-parallel
 * all-to-all overlap (`--overlap-moe-expert-parallel-comm` arrives in 0.14.0): recorded for their MoE rows.
 */
function nemo(source: string, id: string, model: string, shape: ModelShape, gpus: number, gbs: number, mbs: number, seq: number, layout: Omit<Layout, 'microBatch'>, tokens: number, note?: string): PublishedRun {
  const software = (shape.experts ?? 0) > 0 ? { software: MCORE_BEFORE_014 } : {};
  return { id, source: `${source}, row ${model}`, model, shape, hardware: HW_OF[source], gpus, seqLength: seq, globalBatch: gbs, precision: 'fp8', layout: { ...layout, microBatch: mbs }, gradReduce16: true, ...software, tokens, how: note ? `${NEMO_HOW}; ${note}` : NEMO_HOW };
}

/** The 25.02 and 25.04 pages print GBS 1 and MBS 64 for this row; their GA column (16 = 64 ÷ (DP 4 × MBS 1)) shows the two swapped. */
const MIXTRAL_SWAP = 'GBS 64 and MBS 1: the page prints GBS 1 and MBS 64, and its GA of 16 = 64 ÷ (DP 4 × MBS 1) shows the two columns swapped; its model TFLOP/s ÷ tokens/s matches 64K causal sequences';

const NEMO_ROWS: PublishedRun[] = [
  nemo(NEMO_2407, 'nemo-nemotron-8b', 'Nemotron-8B', NEMOTRON_8B, 64, 256, 4, 4096, { tp: 2, pp: 1, cp: 1 }, 12507),
  nemo(NEMO_2407, 'nemo-nemotron-22b', 'Nemotron-22B', NEMOTRON_22B, 64, 256, 2, 4096, { tp: 2, pp: 4, cp: 1, vpp: 10 }, 4312),
  nemo(NEMO_2502, 'nemo-gpt3-175b-b200-512', 'GPT3-175B', preset('gpt3-175b'), 512, 2048, 2, 2048, { tp: 4, pp: 4, cp: 1, vpp: 6 }, 1600),
  nemo(NEMO_2502, 'nemo-llama3-70b-b200-cp2', 'LLAMA3-70B', preset('llama-3-70b'), 64, 128, 1, 8192, { tp: 2, pp: 4, cp: 2, vpp: 5 }, 3062),
  nemo(NEMO_2502, 'nemo-nemotron4-15b-b200', 'Nemotron-15B', NEMOTRON4_15B, 64, 256, 2, 4096, { tp: 1, pp: 1, cp: 1 }, 14760),
  nemo(NEMO_2502, 'nemo-nemotron4-340b-b200', 'Nemotron-340B', NEMOTRON4_340B, 128, 32, 1, 4096, { tp: 8, pp: 4, cp: 1, vpp: 12 }, 602),
  nemo(NEMO_2502, 'nemo-mixtral-8x22b-b200-cp8', 'Mixtral-8x22B', preset('mixtral-8x22b'), 256, 64, 1, 65536, { tp: 2, pp: 4, cp: 8, vpp: 14, ep: 8 }, 2232, MIXTRAL_SWAP),
  nemo(NEMO_2504, 'nemo-nemotron4-340b-gb200', 'Nemotron-340B', NEMOTRON4_340B, 128, 32, 1, 4096, { tp: 8, pp: 4, cp: 1, vpp: 12 }, 737),
  nemo(NEMO_2504, 'nemo-mixtral-8x22b-gb200-cp8', 'Mixtral-8x22B', preset('mixtral-8x22b'), 256, 64, 1, 65536, { tp: 2, pp: 4, cp: 8, vpp: 14, ep: 8 }, 2731, MIXTRAL_SWAP),
];

// ---------------------------------------------------------------------------------------------
// Technical reports that give the layout and the step time of the production run.

const N15 = 'Nemotron-4 15B Technical Report (Parmar et al. 2024, https://arxiv.org/abs/2402.16819), §2 Pre-training and Table 2 (384 DGX H100 nodes, 8 × 400 Gb/s InfiniBand each; BF16; 8-way TP with a distributed optimizer over DP)';
function nemotron15(dp: number, gbs: number, seconds: number): PublishedRun {
  const gpus = dp * 8;
  return {
    id: `nemotron4-15b-dp${dp}`,
    source: N15,
    model: 'Nemotron-4 15B',
    shape: NEMOTRON4_15B,
    hardware: 'h100-sxm',
    gpus,
    seqLength: 4096,
    globalBatch: gbs,
    precision: 'bf16',
    layout: { tp: 8, pp: 1, cp: 1 },
    pinned: { sharding: 'optimizer' },
    tokens: fromStep(gbs, 4096, seconds, gpus),
    how: `${gbs} sequences of 4,096 per ${seconds} s iteration on ${gpus} GPUs (Table 2, DP ${dp})`,
  };
}

const REPORT_ROWS: PublishedRun[] = [
  nemotron15(96, 384, 0.57),
  nemotron15(288, 1152, 0.64),
  {
    id: 'nemotron4-340b-6144',
    source: 'Nemotron-4 340B Technical Report (NVIDIA 2024, https://d1qx31qr3h6wln.cloudfront.net/publications/Nemotron_4_340B_8T_0.pdf), training details and Table 2 (768 DGX H100 nodes; BF16; 8-way TP, 12-way PP, DP 64 at batch 2,304)',
    model: 'Nemotron-4 340B',
    shape: NEMOTRON4_340B,
    hardware: 'h100-sxm',
    gpus: 6144,
    seqLength: 4096,
    globalBatch: 2304,
    precision: 'bf16',
    layout: { tp: 8, pp: 12, cp: 1 },
    tokens: fromStep(2304, 4096, 8.0, 6144),
    how: '2,304 sequences of 4,096 per 8.0 s iteration on 6,144 GPUs (the 7.6T-token stage of Table 2); the interleaving the report mentions has no published depth, so VPP stays open',
  },
  {
    id: 'dgxc-nemotron4-340b-bf16-128',
    source: 'NVIDIA DGX Cloud Benchmarking, Nemotron4 340B recipe (https://catalog.ngc.nvidia.com/orgs/nvidia/teams/dgxc-benchmarking/resources/nemotron340b-dgxc-benchmarking-a), Expected Performance: worked MFU example for NeMo 24.11 BF16, TP 8, PP 8, VP 12, MBS 1, GA 16 on 128 × H100, GBS 32',
    model: 'Nemotron-4 340B',
    shape: NEMOTRON4_340B,
    hardware: 'h100-sxm',
    gpus: 128,
    seqLength: 4096,
    globalBatch: 32,
    precision: 'bf16',
    layout: { tp: 8, pp: 8, cp: 1, vpp: 12, microBatch: 1 },
    tokens: fromStep(32, 4096, 4.77, 128),
    how: '32 sequences of 4,096 per 4.77 s training step on 128 GPUs (the page’s own tokens = sequence × GBS ÷ step time)',
  },
];

// ---------------------------------------------------------------------------------------------
// A100 runs of 2021–2022 (software without sequence parallelism or fused attention).

const A100_ROWS: PublishedRun[] = [
  {
    id: 'bloom-176b-384',
    source: 'BigScience tr11-176B-ml (bigscience-workshop/bigscience train/tr11-176B-ml/README.md and tr11-176B-ml.slurm @ 39ed8110482e): 48 Jean Zay nodes of 8 × A100 80 GB, TP 4, PP 12, DP 8, MBS 2, GBS 2048, sequence 2048, BF16; log line at the end of the first epoch (iteration 85376)',
    model: 'BLOOM 176B',
    shape: BLOOM_176B,
    hardware: 'a100-80gb',
    gpus: 384,
    seqLength: 2048,
    globalBatch: 2048,
    precision: 'bf16',
    layout: { tp: 4, pp: 12, cp: 1, microBatch: 2 },
    pinned: { sp: false, sharding: 'optimizer', recompute: 'full' },
    tokens: fromStep(2048, 2048, 104.7, 384),
    how: '2,048 sequences of 2,048 per 104.70 s iteration on 384 GPUs (149.77 hardware TFLOP/s logged); Megatron-DeepSpeed of 2022: no sequence parallelism, `--checkpoint-activations`, the BF16 optimizer’s ZeRO-1-equivalent sharding; 70 layers do not split evenly over 12 stages (`type:transformer|embedding` partition counts the two embeddings); the nodes have 4 Omni-Path links (400 Gb/s per node, README “Inter-node connect”), a quarter of the a100-80gb profile’s network',
  },
  ...[
    [280, 60.1],
    [420, 44.4],
  ].map(([nodes, seconds]): PublishedRun => ({
    id: `mt-nlg-530b-${nodes}-nodes`,
    source: 'Smith et al. 2022, Using DeepSpeed and Megatron to Train Megatron-Turing NLG 530B (https://arxiv.org/abs/2201.11990), §2.2 (each replica 280 A100 80 GB: 8-way tensor slicing within a node, 35-way pipeline across nodes) and §2.4 (GBS 1920 on 280, 350 and 420 DGX A100 servers: 60.1, 50.2 and 44.4 s per iteration; 126, 121, 113 TFLOP/s per GPU)',
    model: 'MT-NLG 530B',
    shape: MTNLG_530B,
    hardware: 'a100-80gb',
    gpus: nodes * 8,
    seqLength: 2048,
    globalBatch: 1920,
    precision: 'bf16',
    layout: { tp: 8, pp: 35, cp: 1 },
    pinned: { sp: false },
    tokens: fromStep(1920, 2048, seconds, nodes * 8),
    how: `1,920 sequences of 2,048 per ${seconds} s iteration on ${nodes * 8} GPUs (Selene, 8 × 200 Gb/s HDR per node); 16-bit mixed precision; trained in 2021, before sequence parallelism existed`,
  })),
  {
    id: 'glm-130b-768',
    source: 'Zeng et al. 2023, GLM-130B: An Open Bilingual Pre-Trained Model (https://arxiv.org/abs/2210.02414), §2.3 (96 DGX-A100 8 × 40 GB servers; 4-way TP, 8-way PP with DeepSpeed PipeDream-Flush; GBS 4,224; sequence 2,048; MFU 32.5 %, HFU 43.3 % “due to re-materialization”, by Chowdhery et al.’s count)',
    model: 'GLM-130B',
    shape: GLM_130B,
    hardware: 'a100-40gb',
    gpus: 768,
    seqLength: 2048,
    globalBatch: 4224,
    precision: 'bf16',
    layout: { tp: 4, pp: 8, cp: 1 },
    pinned: { sp: false, recompute: 'full' },
    tokens: palmTokens(0.325, 312, GLM_130B, 2048),
    how: '32.5 % MFU of 312 TFLOP/s, divided by PaLM’s 6N + 12·L·H·Q·T FLOPs per token; FP16 mixed precision (Apex O2, same A100 tensor rate as BF16, which the precision field stands for); 70 layers do not split evenly over 8 stages (9 × 8 − 2: the end stages hold the embeddings)',
  },
];

// ---------------------------------------------------------------------------------------------
// MosaicML llm-foundry MPT training benchmarks: PyTorch FSDP over all GPUs (TP 1, PP 1), flash
// attention, GPT-NeoX tokenizer (vocabulary 50,368), tied embeddings, 4·h MLP.

const MPT_DOC = 'mosaicml/llm-foundry scripts/train/benchmarking/README.md @ c90b9b312c64';
const MPT_SHAPES: Record<string, ModelShape> = {
  '7b': gpt(32, 4096, 32, 50368),
  '13b': gpt(40, 5120, 40, 50368),
  '70b': gpt(80, 8192, 64, 50368),
  '30b': gpt(48, 7168, 56, 50368),
};
const MPT_TABLES: Record<string, [string, string]> = {
  'a100-80gb': ['A100 80GB with 1600 Gbps node-node interconnect (RoCE)', 'a100-80gb'],
  'a100-40gb': ['A100 40GB with 1600 Gbps node-node interconnect (RoCE)', 'a100-40gb'],
  'h100-large': ['H100 80GB BF16 (Large Scale, >= 128 GPUs)', 'h100-sxm'],
};

interface MptRow {
  size: string;
  table: keyof typeof MPT_TABLES;
  seq: number;
  gpus: number;
  mbs: number;
  ga: number;
  gbs: number;
  mp: 'PURE' | 'DEFAULT';
  shard: 'FULL_SHARD' | 'SHARD_GRAD_OP';
  ckpt: boolean;
  tokens: number;
}

function mpt(r: MptRow): PublishedRun {
  const [title, hardware] = MPT_TABLES[r.table];
  const pinned: Pinned = { sharding: r.shard === 'FULL_SHARD' ? 'optim_grads_params' : 'optim_grads', recompute: r.ckpt ? 'full' : 'none' };
  return {
    id: `mpt-${r.size}-${hardware}-${r.gpus}-s${r.seq}`,
    source: `MPT training benchmarks, table “${title}”, row ${r.size} · ${r.seq} · ${r.gpus} GPUs (${MPT_DOC})`,
    model: `MPT ${r.size.toUpperCase()}`,
    shape: MPT_SHAPES[r.size],
    hardware,
    gpus: r.gpus,
    seqLength: r.seq,
    globalBatch: r.gbs,
    precision: 'bf16',
    layout: { tp: 1, pp: 1, cp: 1, microBatch: r.mbs },
    pinned,
    gradReduce16: r.mp === 'PURE',
    tokens: r.tokens,
    how: `Throughput (T/s/GPU) as published; FSDP ${r.shard}, mixed precision ${r.mp}${r.mp === 'PURE' ? ' (gradients reduced in BF16)' : ''}, activation checkpointing ${r.ckpt ? 'on' : 'off'}, ${r.ga} gradient accumulation step${r.ga > 1 ? 's' : ''}`,
  };
}

const MPT_ROWS: PublishedRun[] = [
  mpt({ size: '70b', table: 'a100-80gb', seq: 2048, gpus: 64, mbs: 8, ga: 4, gbs: 2048, mp: 'PURE', shard: 'FULL_SHARD', ckpt: true, tokens: 410 }),
  mpt({ size: '30b', table: 'a100-80gb', seq: 2048, gpus: 8, mbs: 3, ga: 21, gbs: 504, mp: 'DEFAULT', shard: 'FULL_SHARD', ckpt: true, tokens: 916 }),
  mpt({ size: '7b', table: 'a100-80gb', seq: 8192, gpus: 8, mbs: 8, ga: 2, gbs: 128, mp: 'DEFAULT', shard: 'FULL_SHARD', ckpt: true, tokens: 3206 }),
  mpt({ size: '70b', table: 'a100-40gb', seq: 2048, gpus: 128, mbs: 4, ga: 1, gbs: 512, mp: 'PURE', shard: 'FULL_SHARD', ckpt: true, tokens: 376 }),
  mpt({ size: '13b', table: 'a100-40gb', seq: 2048, gpus: 64, mbs: 16, ga: 1, gbs: 1024, mp: 'PURE', shard: 'FULL_SHARD', ckpt: true, tokens: 1976 }),
  mpt({ size: '7b', table: 'a100-40gb', seq: 2048, gpus: 128, mbs: 18, ga: 1, gbs: 2304, mp: 'PURE', shard: 'FULL_SHARD', ckpt: true, tokens: 3623 }),
  mpt({ size: '70b', table: 'h100-large', seq: 2048, gpus: 512, mbs: 8, ga: 1, gbs: 4096, mp: 'DEFAULT', shard: 'FULL_SHARD', ckpt: true, tokens: 1007 }),
];

/** The held-back runs. Never read by code that fits, tunes or chooses anything in the planner. */
export const HELDOUT_RUNS: readonly PublishedRun[] = [...BRIDGE_ROWS, ...NEMO_ROWS, ...REPORT_ROWS, ...A100_ROWS, ...MPT_ROWS];
