/**
 * Published training runs the planner is checked against: the layout each run used and the
 * throughput it measured, as its source gives them. Throughput is compared as tokens per second
 * per GPU, which does not depend on how a source counts FLOPs; where a source gives TFLOP/s only,
 * its own FLOP formula turns them into tokens (`tokens`). `pinned` holds what the software of the
 * time could not do (no sequence parallelism or distributed optimizer in 2021) or what the source's
 * recipe fixed, never a setting chosen to make the case pass.
 */
import { MCORE_BEFORE_014, MOE_RUNS } from './published-moe';
import type { ModelShape, Pinned } from '../../server/src/engine';
import type { Software } from '../../server/src/engine/plan/steptime';
import { countParameters } from '../../server/src/engine/plan/memory';
import { modelPreset } from '../../server/src/engine/plan/models';

export interface PublishedRun {
  id: string;
  source: string;
  model: string;
  shape: ModelShape;
  hardware: string;
  gpus: number;
  seqLength: number;
  globalBatch: number;
  precision: 'bf16' | 'fp8';
  /** The published layout; DP follows. */
  layout: { tp: number; pp: number; cp?: number; ep?: number; etp?: number; vpp?: number; microBatch?: number };
  pinned?: Pinned;
  gradReduce16?: boolean;
  /** What the run's software could not do (no fused attention before 2022). */
  software?: Software;
  /** Tokens per second per GPU, and how they follow from what was published. */
  tokens: number;
  how: string;
}

const preset = (id: string): ModelShape => modelPreset(id)!.shape;
const gpt = (layers: number, hidden: number, heads: number, vocab: number): ModelShape => ({ layers, hidden, heads, vocab });

/** Narayanan et al. 2021, Eq. 3: 96·B·s·l·h²(1 + s/6h + V/16lh) per step, recomputation included. */
function narayanan(tflops: number, m: ModelShape, s: number): number {
  const perToken = 96 * m.layers * m.hidden ** 2 * (1 + s / (6 * m.hidden) + m.vocab! / (16 * m.layers * m.hidden));
  return (tflops * 1e12) / perToken;
}

/** Megatron-LM's `num_floating_point_operations` of July 2024 for a GPT: 72·l·h²(1 + s/6h + V/12lh) per token. */
function megatron2024(tflops: number, m: ModelShape, s: number): number {
  return (tflops * 1e12) / (72 * m.layers * m.hidden ** 2 * (1 + s / (6 * m.hidden) + m.vocab! / (12 * m.layers * m.hidden)));
}

/** PaLM's model FLOPs (Chowdhery et al. 2023, the MFU Llama 3 reports): 6N + 12·L·H·Q·T per token. */
function palm(tflops: number, m: ModelShape, s: number): number {
  return (tflops * 1e12) / (6 * countParameters(m).total + 12 * m.layers * m.hidden * s);
}

const NARAYANAN = 'Narayanan et al. 2021, Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM, Table 1 (A100 80 GB, 8 × 200 Gb/s HDR per node, sequence 2048, vocabulary 51,200)';
/** Megatron-LM before Megatron-Core 0.9.0 (its first/last stage sizes) and NeMo before 2.2 split the layers evenly only. */
const EVEN_ONLY: Pinned = { split: 'even' };
const NARAYANAN_PIN: Pinned = { sp: false, sharding: 'none', recompute: 'full', ...EVEN_ONLY };
const NARAYANAN_HOW = 'TFLOP/s per GPU from Table 1, divided by the paper’s Eq. 3 FLOPs per token (recomputation counted)';
function nar(name: string, heads: number, hidden: number, layers: number, tp: number, pp: number, gpus: number, batch: number, tflops: number): PublishedRun {
  const shape = gpt(layers, hidden, heads, 51200);
  return {
    id: `narayanan-${name.toLowerCase()}`,
    source: NARAYANAN,
    model: `GPT ${name}`,
    shape,
    hardware: 'a100-80gb',
    gpus,
    seqLength: 2048,
    globalBatch: batch,
    precision: 'bf16',
    layout: { tp, pp },
    pinned: NARAYANAN_PIN,
    software: { fusedAttention: false },
    tokens: narayanan(tflops, shape, 2048),
    how: `${tflops} ${NARAYANAN_HOW}; Megatron of 2021 had no sequence parallelism or distributed optimizer and recomputed every layer, and attention was not fused (FlashAttention came in 2022)`,
  };
}

const MLM = 'Megatron-LM README, weak scaling on H100 with Megatron-Core r0.8.0 (images/model_table.png, July 2024; sequence 4096, vocabulary 131,072; TP, DP and pipeline overlap on)';
function mlm(name: string, heads: number, hidden: number, layers: number, tp: number, pp: number, gpus: number, batch: number, tflops: number): PublishedRun {
  const shape = gpt(layers, hidden, heads, 131072);
  return {
    id: `megatron-h100-${name.toLowerCase()}`,
    source: MLM,
    model: `GPT ${name}`,
    shape,
    hardware: 'h100-sxm',
    gpus,
    seqLength: 4096,
    globalBatch: batch,
    precision: 'bf16',
    layout: { tp, pp },
    pinned: EVEN_ONLY,
    tokens: megatron2024(tflops, shape, 4096),
    how: `${tflops} TFLOP/s per GPU, divided by Megatron’s FLOPs per token of the time (3 passes, full attention); precision not published, BF16 assumed (the MFU column is against the BF16 peak)`,
  };
}

const NEMO = 'NeMo 24.07 performance summary, DGX-H100, FP8 (NVIDIA/NeMo docs/source/performance/performance_summary.md)';
const NEMO_HOW = 'tokens/s/GPU as published; NeMo’s performance scripts reduce gradients in BF16 for FP8 runs';
function nemo(id: string, model: string, shape: ModelShape, gpus: number, gbs: number, mbs: number, seq: number, tp: number, pp: number, cp: number, vpp: number, tokens: number, source = NEMO): PublishedRun {
  return { id, source, model, shape, hardware: 'h100-sxm', gpus, seqLength: seq, globalBatch: gbs, precision: 'fp8', layout: { tp, pp, cp, vpp, microBatch: mbs }, gradReduce16: true, ...(source === NEMO ? { pinned: EVEN_ONLY } : {}), tokens, how: NEMO_HOW };
}

const LLAMA2_70B: ModelShape = { layers: 80, hidden: 8192, heads: 64, queryGroups: 8, ffn: 28672, swiglu: true, vocab: 32000, untiedEmbeddings: true, norm: 'rmsnorm' };
const LLAMA2_7B: ModelShape = { layers: 32, hidden: 4096, heads: 32, ffn: 11008, swiglu: true, vocab: 32000, untiedEmbeddings: true, norm: 'rmsnorm' };
const LLAMA2_13B: ModelShape = { layers: 40, hidden: 5120, heads: 40, ffn: 13824, swiglu: true, vocab: 32000, untiedEmbeddings: true, norm: 'rmsnorm' };
const NEMOTRON_340B: ModelShape = { layers: 96, hidden: 18432, heads: 96, queryGroups: 8, ffn: 73728, vocab: 256000, untiedEmbeddings: true, norm: 'layernorm' };
const BRIDGE = 'Megatron Bridge performance summary, 25.09 NeMo container, DGX-H100 (FP8 current scaling, as the 25.11 table labels the same rows)';
const META = 'The Llama 3 Herd of Models (2024), Table 4 and §3.3 (H100 80 GB at 700 W, 400 Gb/s per GPU; BF16; FSDP sharding optimizer states and gradients)';
const MIXTRAL = 'NeMo 25.02 performance summary, DGX-B200, FP8';
const MIXTRAL_GB = 'NeMo 25.04 performance summary, DGX-GB200, FP8 (per-tensor current scaling)';

/** Llama 3 405B as Meta ran it (Table 4): TP 8 · PP 16 · CP 1, 8K sequences, 16M tokens per step. */
function meta(gpus: number, tflops: number, mfu: number, perDp: number): PublishedRun {
  const shape = preset('llama-3.1-405b');
  const dp = gpus / (8 * 16);
  return {
    id: `llama3-405b-${gpus / 1024}k-gpus`,
    source: META,
    model: 'Llama 3 405B',
    shape,
    hardware: 'h100-sxm',
    gpus,
    seqLength: 8192,
    globalBatch: perDp * dp,
    precision: 'bf16',
    layout: { tp: 8, pp: 16, cp: 1 },
    pinned: { sharding: 'optim_grads' },
    tokens: palm(tflops, shape, 8192),
    how: `${tflops} TFLOP/s per GPU (${mfu} % BF16 MFU), divided by PaLM’s 6N + 12·L·H·Q·T FLOPs per token; ${perDp} sequences per DP rank × DP ${dp}; FSDP sharding optimizer states and gradients`,
  };
}

/** Mixtral 8x7B as NeMo ran it: 64 GPUs, TP 1 · PP 1 · EP 8 (expert TP 1), 4K sequences, GBS 256, MBS 2, FP8. */
function mixtral(hardware: string, source: string, tokens: number): PublishedRun {
  return {
    id: `nemo-mixtral-8x7b-${hardware.split('-')[0]}`,
    source,
    model: 'Mixtral 8x7B',
    shape: preset('mixtral-8x7b'),
    hardware,
    gpus: 64,
    seqLength: 4096,
    globalBatch: 256,
    precision: 'fp8',
    layout: { tp: 1, pp: 1, ep: 8, etp: 1, microBatch: 2 },
    gradReduce16: true,
    // NeMo 25.02 and 25.04 ship Megatron-Core 0.11 and 0.12, before the expert-parallel all-to-all overlap.
    software: MCORE_BEFORE_014,
    tokens,
    how: NEMO_HOW,
  };
}

export const PUBLISHED_RUNS: readonly PublishedRun[] = [
  nar('1.7B', 24, 2304, 24, 1, 1, 32, 512, 137),
  nar('3.6B', 32, 3072, 30, 2, 1, 64, 512, 138),
  nar('7.5B', 32, 4096, 36, 4, 1, 128, 512, 142),
  nar('18.4B', 48, 6144, 40, 8, 1, 256, 1024, 135),
  nar('39.1B', 64, 8192, 48, 8, 2, 512, 1536, 138),
  nar('76.1B', 80, 10240, 60, 8, 4, 1024, 1792, 140),
  nar('145.6B', 96, 12288, 80, 8, 8, 1536, 2304, 148),
  nar('310.1B', 128, 16384, 96, 8, 16, 1920, 2160, 155),
  nar('529.6B', 128, 20480, 105, 8, 35, 2520, 2520, 163),
  nar('1008B', 160, 25600, 128, 8, 64, 3072, 3072, 163),
  mlm('1.7B', 16, 2048, 24, 1, 1, 48, 192, 408.8),
  mlm('7.1B', 32, 4096, 30, 2, 1, 96, 192, 465.9),
  mlm('16B', 48, 6144, 32, 4, 1, 192, 192, 489.1),
  mlm('32B', 56, 7168, 48, 8, 1, 384, 192, 459.6),
  mlm('70B', 64, 8192, 84, 8, 2, 768, 384, 419.7),
  mlm('119B', 80, 10240, 92, 8, 4, 1536, 768, 420.5),
  mlm('177B', 96, 12288, 96, 8, 6, 2304, 1152, 432.8),
  mlm('314B', 128, 16384, 96, 8, 8, 3072, 1536, 474.4),
  mlm('462B', 144, 18432, 112, 8, 16, 6144, 3072, 459.9),
  meta(8192, 430, 43, 32),
  meta(16384, 400, 41, 16),
  nemo('nemo-gpt3-5b', 'GPT-3 5B', { layers: 24, hidden: 4096, heads: 32, vocab: 51200 }, 64, 2048, 4, 2048, 1, 1, 1, 1, 23406),
  nemo('nemo-gpt3-20b', 'GPT-3 20B', { layers: 44, hidden: 6144, heads: 48, vocab: 51200 }, 64, 256, 2, 2048, 2, 1, 1, 1, 5851),
  nemo('nemo-gpt3-175b-128', 'GPT-3 175B', preset('gpt3-175b'), 128, 256, 1, 2048, 4, 8, 1, 6, 716),
  nemo('nemo-gpt3-175b-512', 'GPT-3 175B', preset('gpt3-175b'), 512, 2048, 2, 2048, 4, 8, 1, 6, 825),
  nemo('nemo-llama2-7b', 'Llama 2 7B', LLAMA2_7B, 8, 128, 1, 4096, 1, 1, 1, 1, 16934),
  nemo('nemo-llama2-13b', 'Llama 2 13B', LLAMA2_13B, 16, 128, 1, 4096, 1, 4, 1, 10, 8715),
  nemo('nemo-llama2-70b', 'Llama 2 70B', LLAMA2_70B, 64, 128, 1, 4096, 4, 4, 1, 20, 1728),
  nemo('nemo-nemotron-340b', 'Nemotron-4 340B', NEMOTRON_340B, 128, 32, 1, 4096, 8, 8, 1, 12, 326),
  nemo('nemo-llama3-8b', 'Llama 3 8B', preset('llama-3-8b'), 8, 128, 1, 8192, 1, 1, 2, 1, 12273),
  nemo('nemo-llama3-70b', 'Llama 3 70B', preset('llama-3-70b'), 64, 128, 1, 8192, 4, 4, 2, 5, 1524),
  { ...nemo('bridge-llama3-8b', 'Llama 3 8B', preset('llama-3-8b'), 8, 128, 1, 8192, 1, 1, 1, 1, 14079, BRIDGE), pinned: { sharding: 'optim_grads_params' }, how: 'tokens/s/GPU as published; FSDP over the 8 GPUs as published (FSDP 8)' },
  nemo('bridge-llama3-70b', 'Llama 3 70B', preset('llama-3-70b'), 64, 128, 1, 8192, 4, 8, 1, 5, 1619, BRIDGE),
  nemo('bridge-llama31-405b', 'Llama 3.1 405B', preset('llama-3.1-405b'), 1024, 512, 1, 8192, 8, 8, 2, 8, 302, BRIDGE),
  mixtral('b200', MIXTRAL, 15457),
  mixtral('gb200-nvl72', MIXTRAL_GB, 19275),
  ...MOE_RUNS,
];

/**
 * The held-back part of the table: runs no constant of the step model is fitted to, whose figures
 * are reported apart. A run is held back when the FNV-1a hash of `${HOLDOUT_SEED}:${id}` is a
 * multiple of three (about a third of the runs, decided by the id alone). The seed is the smallest
 * for which the held-back part has 11 to 13 runs with at least one mixture-of-experts run and three
 * A100 runs; the runs the unit tests name as cases of their own (`TESTED`) stay in the training part,
 * since a test looks at them.
 */
export const HOLDOUT_SEED = 7;
export const TESTED: readonly string[] = ['llama3-405b-16k-gpus'];

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export function isHeldBack(id: string, seed = HOLDOUT_SEED): boolean {
  return !TESTED.includes(id) && fnv1a(`${seed}:${id}`) % 3 === 0;
}

export const HELD_BACK_RUNS: readonly PublishedRun[] = PUBLISHED_RUNS.filter((r) => isHeldBack(r.id));
