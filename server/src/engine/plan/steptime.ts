/**
 * An analytic step-time model of a Megatron-style layout (TP, PP with VPP, CP, EP with expert TP,
 * DP), built from the model's shape and the hardware profile only. Nothing in it is fitted to a
 * benchmark: each constant below says what it stands for and where its value comes from, and
 * `stepAssumptions` prints them with the estimate.
 *
 * One micro-batch on the slowest pipeline stage is the unit:
 * - GEMMs by a roofline: max(FLOPs / (peak × GEMM efficiency), bytes / (HBM bandwidth × efficiency)),
 *   so a narrow GEMM (a small hidden size split over a large TP, a few tokens per expert) is slower
 *   per FLOP than a wide one; backward is two GEMMs of the forward's size;
 * - attention scores by the fused-attention efficiency; element-wise work (norms, residuals,
 *   activations, rotary, FP8 casts, the loss) by the bytes it moves;
 * - TP, CP and EP collectives on the fabric each group crosses (rank order tp-cp-ep-dp-pp), hidden
 *   behind the GEMMs or the attention they overlap with when the overlap switch is on;
 * - recomputation adds the forward it repeats.
 * The step is the micro-batches, the pipeline bubble (PP − 1) / VPP micro-batches, the exposed
 * pipeline sends, the data-parallel gradient and parameter collectives not hidden behind the
 * first forward / last backward, and the optimizer step. Pure arithmetic.
 */
import type { HardwareProfile } from './hardware';
import { stageLoad, type Split } from './split';
import { attentionCoreFlops, countParameters, MOE_IMBALANCE, flopsPerToken, layerTerms, resolve, type ModelShape, type Precision, type Resolved } from './memory';

/** The degrees and switches of one layout. */
export interface Layout {
  tp: number;
  pp: number;
  /** Virtual stages per pipeline rank (1: not interleaved). */
  vpp: number;
  cp: number;
  ep: number;
  etp: number;
  dp: number;
  sp: boolean;
  microBatch: number;
  distributedOptimizer: boolean;
  /**
   * Megatron-FSDP over DP × CP instead of (or beyond) the distributed optimizer: gradients and
   * optimizer states sharded (`optim_grads`, ZeRO-2), or parameters too (`optim_grads_params`, ZeRO-3).
   */
  fsdp?: 'optim_grads' | 'optim_grads_params';
  recompute: 'none' | 'selective' | 'full';
  /**
   * With full recompute, the layers of each model chunk (pipeline stage, or virtual stage) that are
   * recomputed: Megatron's `--recompute-method block --recompute-num-layers N`. Absent: every layer.
   */
  recomputeLayers?: number;
  /**
   * Layers split over the stages with the embedding and the loss counted as layers (Megatron's
   * `--account-for-*-in-pipeline-split`), or unevenly over the chunks (`--pipeline-model-parallel-layout`,
   * `--decoder-first/last-pipeline-num-layers`): `split.ts`. Absent: evenly.
   */
  split?: Split;
  /** With an uneven split a file writes, the decoder layers of each model chunk in Megatron's order (chunk c on rank c mod PP). */
  chunks?: readonly number[];
  overlap: { tpComm: boolean; gradReduce: boolean; paramGather: boolean; p2p: boolean; moeA2A: boolean };
}

/** What is trained, on what, at what batch. */
export interface Workload {
  model: ModelShape;
  gpus: number;
  hardware: HardwareProfile;
  nvlinkDomain: number;
  gpusPerNode: number;
  seqLength: number;
  globalBatch: number;
  precision: Precision;
  /** Gradients reduced in 16 bits (`--grad-reduce-in-bf16`) instead of fp32. */
  gradReduce16?: boolean;
  rankOrder?: 'tp-cp-ep-dp-pp' | 'tp-cp-ep-pp-dp';
  /** What the run's software can do, where it differs from today's Megatron-Core with Transformer Engine. */
  software?: Software;
  /** Scale-out bandwidth per GPU and direction, GB/s, instead of the hardware profile's. */
  networkGBps?: number;
}

/** Features of the training software that change what a layer costs. */
export interface Software {
  /**
   * A fused attention kernel (FlashAttention, cuDNN): default true. False for software before
   * FlashAttention (2022): the scores are GEMMs and a softmax that moves the s×s matrix through HBM.
   */
  fusedAttention?: boolean;
  /**
   * Tokens dispatched to the experts in FP8 when the GEMMs run in FP8 (DeepSeek-V3's dispatch,
   * DeepEP; Megatron-Core's FP8 dispatch): default false, 16-bit tokens as Megatron's all-to-all
   * dispatcher sends them.
   */
  fp8Dispatch?: boolean;
  /**
   * A token routed to several experts in one remote NVLink domain crosses the network once and is
   * forwarded over NVLink there (DeepEP's internode kernels; DeepSeek-V3 report §3.2.2: sent over
   * InfiniBand to the GPU of the same in-node index on each target node, then over NVLink). Default
   * true: Megatron-Core's flex dispatcher with DeepEP or HybridEP, which Megatron Bridge's MoE recipes
   * set (src/megatron/bridge/recipes/{deepseek,qwen,gpt_oss,glm,kimi}/…: `moe_flex_dispatcher_backend`
   * deepep or hybridep). False: one network copy per routed expert, as the all-to-all dispatcher
   * sends them.
   */
  dedupDispatch?: boolean;
  /**
   * The local experts' GEMMs run as one grouped kernel that reads the tokens per expert on the
   * device (CUTLASS grouped GEMM, DeepGEMM, Transformer Engine's native grouped-tensor path): default
   * false, one cuBLAS GEMM launched per local expert from a host loop, as Transformer Engine's
   * grouped linear layer does by default.
   */
  groupedGemmKernel?: boolean;
  /**
   * A benchmark gate that sends token i to the top-k consecutive experts from i·k (NeMo AutoModel's
   * `FakeBalancedGate`, nemo_automodel/components/moe/layers.py: indices = arange(tokens × k) mod E):
   * a token's experts sit on one or two neighbouring EP ranks, so the de-duplicating dispatcher sends
   * it over the network to at most one or two domains. Default false: experts drawn at random
   * (learned routing, or Megatron-Core's `--moe-router-force-load-balancing`, random logits).
   */
  contiguousRouting?: boolean;
  /**
   * The expert-parallel all-to-all can overlap another micro-batch's compute
   * (`--overlap-moe-expert-parallel-comm`, Megatron-Core 0.14.0 on): default true. False for software
   * without it: Megatron-Core before 0.14.0 (the NeMo 25.02 and 25.04 containers ship 0.11 and 0.12)
   * and trainers outside Megatron-Core (NeMo AutoModel).
   */
  moeA2AOverlap?: boolean;
}

/** One assumption of the model: its value and where it comes from. */
export interface Constant {
  value: number;
  what: string;
  source: string;
}

export const STEP_MODEL = {
  attention: {
    value: 0.5,
    what: 'fraction of the BF16 peak fused causal attention (forward and backward) reaches',
    source: 'FlashAttention-2 reports 50–73 % of the A100 peak forward and 40–60 % backward; FlashAttention-3 and cuDNN fused attention 50–75 % on H100 (Dao 2023; Shah et al. 2024)',
  },
  hbm: {
    value: 0.8,
    what: 'fraction of the HBM bandwidth memory-bound kernels reach',
    source: 'STREAM-like copy and element-wise kernels reach 80–90 % of the datasheet bandwidth on A100/H100',
  },
  network: {
    value: 0.8,
    what: 'fraction of the link bandwidth NCCL collectives reach at large messages (bus bandwidth)',
    source: 'nccl-tests bus bandwidth at 1 GB messages: about 80 % of the per-direction NVLink and InfiniBand line rate',
  },
  dispatchNetwork: {
    value: 0.88,
    what: 'fraction of the scale-out line rate the de-duplicating expert-parallel dispatcher (DeepEP’s internode kernels, which the flex dispatcher runs) reaches on the bytes that cross the network',
    source: 'DeepEP V1 README (deepseek-ai/DeepEP docs/legacy.md, “Normal kernels with NVLink and RDMA forwarding”): on H800 with one 400 Gb/s CX7 (~50 GB/s) per GPU, 4096 tokens, hidden 7168, top-8 in 4 node groups, the internode dispatch reaches 58 GB/s at EP 32 and 51 GB/s at EP 64, combine 57 and 50 GB/s; tests/test_internode.py counts those bytes once per node a token reaches, its own node included (num_rdma_token_sent), so the bytes that cross the network are 3/4 of them at EP 32 and 7/8 at EP 64 under random routing: 43.5 and 44.6 GB/s, 0.87–0.89 of the line rate',
  },
  commSms: {
    value: 20,
    what: 'SMs the communication kernels occupy while a collective overlaps compute (the compute slows by that share while they run)',
    source: 'DeepSeek-V3 technical report §3.2.2: 20 of the H800’s 132 SMs suffice to saturate its InfiniBand and NVLink bandwidth',
  },
  tile: {
    value: 128 * 256,
    what: 'output tile of a large GEMM (128 × 256 elements): tiles run in waves of one per SM, and a last partial wave leaves SMs idle',
    source: 'the CUTLASS/cuBLAS tile shape for large BF16/FP8 GEMMs on Hopper and Blackwell',
  },
  attentionLength: {
    value: 220,
    what: 'query/key length per attention kernel at which fused attention reaches half of its long-sequence rate (its rate × L/(L + 220)); context parallelism runs the kernels on 1/CP of the sequence',
    source: 'FlashAttention-3 forward on H100, head dim 128, 16K tokens per batch (pytorch/benchmark commit ff65cb67, “Fix dimension order for FlashAttention-3”): 430, 517, 566, 590, 614, 621 TFLOP/s at 512, 1K, 2K, 4K, 8K, 16K, i.e. L/(L + 200…230) of the 16K rate',
  },
  kernelGap: {
    value: 4e-6,
    what: 'seconds a GPU stream idles between two dependent kernels (launch latency and CPU dispatch not hidden, tail of each kernel), charged per kernel of a layer',
    source: 'NVIDIA Developer Blog, Getting Started with CUDA Graphs (A. Gray, 2019): back-to-back kernels of a few microseconds each leave launch gaps of about 2–4 µs that only CUDA graphs remove',
  },
  kernelsPerLayer: {
    value: 60,
    what: 'kernels one transformer layer launches per micro-batch, forward and backward (norms, GEMMs, attention, activation, residuals, casts, and the TP collectives)',
    source: 'an estimate from the layer’s structure: a Transformer Engine layer runs about 20 kernels forward (two norms, four GEMMs, attention, activation, residuals, casts, the TP collectives) and twice as many backward; under CP each ring step adds its attention call',
  },
  moeImbalance: MOE_IMBALANCE,
  cpMergeBytes: {
    value: 10,
    what: 'bytes moved per element of attention output or gradient per context-parallel ring step to merge the step into fp32 accumulators (read the step’s 16-bit partial, read and write the fp32 sum): the output forward, the query, key and value gradients backward',
    source: 'Transformer Engine, transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py @ d0067d0 (AttnFuncWithCPAndKVP2P): forward rescales each step’s output by its softmax statistics and adds it to an fp32 output (flash_attn_fwd_out_correction), backward casts each step’s dq, dk, dv to fp32 and adds them (dq.add_)',
  },
  cpStepKernels: {
    value: 8,
    what: 'kernels each context-parallel ring step launches per layer, forward and backward (attention, the send and receive of keys and values, the softmax-statistics and output corrections; backward: attention, the sends, the gradient additions)',
    source: 'Transformer Engine context_parallel.py @ d0067d0: the per-step loop of AttnFuncWithCPAndKVP2P forward and backward',
  },
  expertHost: {
    value: 1.75e-4,
    what: 'seconds of host (CPU) time to issue one local expert’s work in a MoE layer, forward and backward, per micro-batch: the dispatcher first waits for the device (it needs the tokens per expert on the host), so the GPU idles while the host issues each expert’s quantization, GEMMs and gradient work one expert at a time; the experts take the longer of this and their GEMMs',
    source: 'Megatron-Core, megatron/core/transformer/moe/token_dispatcher.py @ core_v0.14.0 (MoEAlltoAllTokenDispatcher.preprocess: a device-to-host copy of the tokens per expert and a stream synchronization before the all-to-all, or before returning at EP 1); Transformer Engine, transformer_engine/pytorch/module/grouped_linear.py @ d0067d0 (m_splits.tolist(), then a Python loop over the experts quantizing each input and weight and launching one GEMM each, forward and backward, unless the native grouped-tensor path runs); value fitted on the training part of the published mixture-of-experts runs (docs/planner-validation.md), the held-back part left out: the smallest value on a 2.5e-5 grid from 0 to 6e-4 whose median absolute deviation of ln(priced / published throughput) is within 1 % of the smallest (0.1221 at 1.75e-4; 0.1214 at 4.5e-4–5.25e-4; 0.150 without the term)',
  },
  gemmStreams: {
    value: 4,
    what: 'local experts whose GEMMs run at once when each is its own cuBLAS GEMM (one per compute stream): their tiles share the waves of the SMs',
    source: 'Transformer Engine, transformer_engine/common/util/multi_stream.cpp @ d0067d0: get_num_compute_streams returns 4, the streams multi_stream_cublas_gemm deals the experts’ GEMMs over',
  },
  localPermutation: {
    value: 4,
    what: 'elements moved per routed token copy and hidden unit, forward, to sort the tokens a rank receives by its local expert and to restore their order afterwards (a read and a write each way); only when a rank holds more than one expert',
    source: 'Megatron-Core, megatron/core/transformer/moe/token_dispatcher.py @ core_v0.14.0 (MoEAlltoAllTokenDispatcher.dispatch_postprocess and combine_preprocess, lines 666–730): a second permutation, sort_chunks_by_idxs, runs whenever num_local_experts > 1, with or without expert parallelism; the Megatron-Core MoE guide (megatron/core/transformer/moe/README.md @ d98e8a6, Guideline 4): with EP equal to the number of experts the local permutation is eliminated',
  },
  dpBucket: {
    value: 40e6,
    what: 'parameters per data-parallel communication bucket (at least; 1M × the DP size when larger): gradients are reduced bucket by bucket as the last micro-batch’s backward completes them, and the bucket holding the first layers and the input embedding is completed last, with no backward left to hide its reduction; the next step’s parameter gather starts with that same bucket before the first layer can run',
    source: 'Megatron-Core @ core_v0.14.0: megatron/core/distributed/distributed_data_parallel.py (bucket_size = max(40000000, 1000000 × DP size) with overlap_grad_reduce; bucketing only on the first pipeline stage, whose communication is on the critical path), param_and_grad_buffer.py (buckets filled in reverse parameter order; a bucket’s reduce-scatter starts when all its gradients of the last micro-batch are ready; each all-gather dispatches the next), optimizer/distrib_optimizer.py step_with_ready_grads (the first all-gather is launched at the next zero_grad, the rest by the forward pre-hooks)',
  },
  usableHbm: {
    value: 0.9,
    what: 'fraction of the HBM the estimate may fill',
    source: 'the memory estimate leaves out the CUDA context, NCCL and framework buffers and allocator fragmentation: about 10 % of an 80 GB device in practice',
  },
} satisfies Record<string, Constant>;

/**
 * The band an estimate is: the step the model prices is a lower bound (every term at its measured
 * best case); what a run can be expected to reach is that step × the calibration of its kind
 * (`CALIBRATION` for dense models, `CALIBRATION_MOE` for mixtures of experts), the median ratio of
 * priced to measured throughput over the training part of the published runs of that kind
 * (test/planner/published.ts). The held-back part is never used to set it: the unit test that
 * recomputes the medians reads the training part only, and docs/planner-validation.md reports both.
 * The kinds are apart because the model's error differs: a mixture of experts adds the routing, the
 * dispatch and the host's part, which vary more between runs and software releases.
 */
export const CALIBRATION: Constant = {
  value: 1.24,
  what: 'measured step time over the priced one, dense models (what the model leaves out: stragglers, allocator and framework time, kernels below their best case)',
  source: 'median of priced / published tokens per second per GPU over the 24 dense runs of the training part of the published runs (docs/planner-validation.md), the held-back part left out: 1.2440',
};

export const CALIBRATION_MOE: Constant = {
  value: 1.36,
  what: 'measured step time over the priced one, mixture-of-experts models',
  source: 'median of priced / published tokens per second per GPU over the 27 mixture-of-experts runs of the training part of the published runs (docs/planner-validation.md), the held-back part left out: 1.3616',
};

/**
 * How far apart two priced steps must be before the model can tell them apart: the median absolute
 * deviation of ln(priced / published throughput) about its median (the calibration) over the
 * training part of the published runs of the same kind (test/planner/published.ts; the held-back
 * part and the held-out tables never set it). The median absolute deviation and not the standard
 * deviation: it is the error the calibrated estimate stays within on half of the runs, and a few
 * runs far off would set a standard deviation much wider. Layouts whose steps are within a factor
 * e^value of the fastest are ranked by the practitioners' rules (`preference.ts`), then by time.
 * The unit test recomputes both from the training part.
 */
export const TIE_BAND: Constant = {
  value: 0.046,
  what: 'relative step-time difference (natural log) below which two layouts of a dense model count as tied and are ordered by the practitioners’ rules',
  source: 'median absolute deviation of ln(priced / published tokens per second per GPU) about its median over the 24 dense runs of the training part of the published runs (docs/planner-validation.md), the held-back part left out: 0.0462',
};

export const TIE_BAND_MOE: Constant = {
  value: 0.122,
  what: 'relative step-time difference (natural log) below which two layouts of a mixture-of-experts model count as tied and are ordered by the practitioners’ rules',
  source: 'median absolute deviation of ln(priced / published tokens per second per GPU) about its median over the 27 mixture-of-experts runs of the training part of the published runs (docs/planner-validation.md), the held-back part left out: 0.1221',
};

const isMoe = (m: ModelShape): boolean => (m.experts ?? 0) > 0;

/** The calibration of a model's kind (dense or mixture of experts). */
export function calibrationOf(m: ModelShape): Constant {
  return isMoe(m) ? CALIBRATION_MOE : CALIBRATION;
}

/** The tie band of a model's kind (dense or mixture of experts). */
export function tieBandOf(m: ModelShape): Constant {
  return isMoe(m) ? TIE_BAND_MOE : TIE_BAND;
}

/** The calibrated expectation: the priced step × the calibration of the model's kind. */
export interface Expected {
  /** The calibration factor applied (`calibrationOf`). */
  factor: number;
  seconds: number;
  tokensPerSecondPerGpu: number;
  tflopsPerGpu: number;
  mfu?: number;
}

/** The time of one step, split into where it goes (seconds, on the critical path). */
export interface StepEstimate {
  seconds: number;
  microBatches: number;
  parts: { compute: number; bubble: number; tp: number; cp: number; ep: number; p2p: number; dp: number; optimizer: number };
  /** Model FLOPs of the step (every GPU), as `flopsPerToken` counts them. */
  modelFlops: number;
  tokensPerSecondPerGpu: number;
  tflopsPerGpu: number;
  /** Dense peak of the precision the GEMMs run in, TFLOP/s. */
  peakTflops?: number;
  mfu?: number;
  /** The calibrated expectation (`seconds` and the figures above are the priced lower bound of the step time). */
  expected: Expected;
  /** Which fabric each group's collectives cross. */
  fabrics: Partial<Record<'tp' | 'cp' | 'ep' | 'dp' | 'pp', 'scale-up' | 'scale-out'>>;
}

/** The resolved shape, with what the step model reads of its attention and MLP. */
interface Shape extends Resolved {
  /** Width of the attention output (the output projection's input). */
  q: number;
  /** Matrices of the first MLP GEMM: 2 for a gated MLP (gate and up), else 1. */
  glu: number;
  /** Attention projection parameters of one layer (all heads). */
  attnParams: number;
  /** Per-token attention-score FLOPs per unit of sequence, forward and backward (causal). */
  coreFlops: number;
}

/** Shapes and parameter counts per model object: the planner estimates thousands of layouts of one model. */
const SHAPES = new WeakMap<ModelShape, { shape: Shape; dense: number; expert: number }>();

function modelFacts(m: ModelShape): { shape: Shape; dense: number; expert: number } {
  let f = SHAPES.get(m);
  if (!f) {
    const c = countParameters(m);
    const expert = c.perLayerExperts * c.moeLayers;
    f = { shape: shapeOf(m), dense: c.total - expert, expert };
    SHAPES.set(m, f);
  }
  return f;
}

function shapeOf(m: ModelShape): Shape {
  const r = resolve(m);
  return { ...r, q: r.mla ? r.a * r.mla.vHeadDim : r.a * r.kvc, glu: r.swiglu ? 2 : 1, attnParams: layerTerms(r).attn, coreFlops: attentionCoreFlops(r) };
}

/** Peak TFLOP/s of the precision the linear layers run in, and what a large GEMM reaches of it; attention and the logits stay 16-bit. */
function peaks(w: Workload): { linear: number; sixteen: number; linearEff: number; sixteenEff: number; bytes: number } {
  const hw = w.hardware;
  // fp32 training runs its GEMMs in TF32 on tensor cores: half the BF16 rate.
  const sixteen = w.precision === 'fp32' ? hw.bf16Tflops / 2 : hw.bf16Tflops;
  const sixteenEff = hw.mamf.bf16;
  if (w.precision === 'fp8' && hw.fp8Tflops) return { linear: hw.fp8Tflops, sixteen, linearEff: hw.mamf.fp8 ?? hw.mamf.bf16, sixteenEff, bytes: 1 };
  return { linear: sixteen, sixteen, linearEff: sixteenEff, sixteenEff, bytes: w.precision === 'fp32' ? 4 : 2 };
}

/**
 * Forward + backward time of an M×K by K×N GEMM (backward: two GEMMs of the same size). `together`
 * GEMMs of that size run at once (on parallel streams, or as one grouped kernel) and share the waves.
 */
function gemm(M: number, K: number, N: number, peakTflops: number, eff: number, bytes: number, hbm: number, sms: number, together = 1): number {
  if (M <= 0 || K <= 0 || N <= 0) return 0;
  const tiles = Math.ceil(M / 128) * Math.ceil(N / 256) * together;
  const waves = tiles / (Math.ceil(tiles / sms) * sms);
  const compute = (2 * M * N * K) / (peakTflops * 1e12 * eff * waves);
  const memory = (bytes * (M * K + K * N) + 2 * M * N) / (hbm * 1e12 * STEP_MODEL.hbm.value);
  return 3 * Math.max(compute, memory);
}

interface LayerTimes {
  /** GEMM time (forward + backward) the TP collectives can hide behind. */
  gemm: number;
  attention: number;
  elementwise: number;
  /** Forward share repeated by recomputation. */
  recompute: number;
  tp: number;
  cp: number;
  ep: number;
}

/** One transformer layer, one micro-batch, on one GPU. */
function layerTimes(s: Shape, w: Workload, l: Layout, moe: boolean): LayerTimes {
  const pk = peaks(w);
  const hbm = w.hardware.hbmTBps;
  const t = l.tp;
  const n = (l.microBatch * w.seqLength) / l.cp;
  const lin = (M: number, K: number, N: number) => gemm(M, K, N, pk.linear, pk.linearEff, pk.bytes, hbm, w.hardware.sms);
  let g = lin(n, s.h, (s.attnParams - s.q * s.h) / s.h / t) + lin(n, s.q / t, s.h);
  let ffnWidth: number;
  let router = 0;
  if (moe) {
    if (s.sharedF) g += lin(n, s.h, (s.sharedF * s.glu) / t) + lin(n, s.sharedF / t, s.h);
    // Tokens reaching each local expert: this rank's tokens (split over TP unless experts share TP's),
    // routed to top-k experts, gathered from the EP group; the most loaded rank gets more than the mean.
    const tokensPerExpert = (((n / (t / l.etp)) * s.topK * l.ep) / s.E) * STEP_MODEL.moeImbalance.value;
    const local = s.E / l.ep;
    // Each expert's rows fill whole tiles. Transformer Engine's grouped linear layer runs one cuBLAS
    // GEMM per local expert (spread over a few streams) unless a single grouped kernel is available:
    // after the dispatcher's host synchronization the experts take at least the host time to issue
    // their work one expert at a time.
    // The GEMMs that run at once share the SMs' waves: every local expert in one grouped kernel, else
    // as many as the streams.
    const padded = Math.ceil(tokensPerExpert / 128) * 128;
    const grouped = w.software?.groupedGemmKernel === true;
    const together = grouped ? local : Math.min(local, STEP_MODEL.gemmStreams.value);
    const expertGemm = (M: number, K: number, N: number) => gemm(M, K, N, pk.linear, pk.linearEff, pk.bytes, hbm, w.hardware.sms, together);
    const experts = local * (expertGemm(padded, s.h, (s.moeF * s.glu) / l.etp) + expertGemm(padded, s.moeF / l.etp, s.h)) * (tokensPerExpert / padded || 0);
    const host = grouped ? 0 : local * STEP_MODEL.expertHost.value;
    g += Math.max(experts, host);
    // The router: a 16-bit GEMM to the expert logits, softmax and top-k over them (fp32).
    router = gemm(n, s.h, s.E, pk.sixteen, pk.sixteenEff, 2, hbm, w.hardware.sms) + (3 * 3 * 4 * n * s.E) / (hbm * 1e12 * STEP_MODEL.hbm.value);
    ffnWidth = (s.topK * s.moeF + s.sharedF) / t;
  } else {
    g += lin(n, s.h, (s.f * s.glu) / t) + lin(n, s.f / t, s.h);
    ffnWidth = s.f / t;
  }
  const attention = attentionTime(s, w, l, n, pk.sixteen, pk.sixteenEff);
  // Element-wise bytes per token, forward: two norms (read and write h), two residual adds (two
  // reads, one write), rotary on queries and keys, the gated activation (reads 2f, writes f), MoE
  // permutations (a copy of top-k tokens each way); backward moves about twice as much.
  const hSized = (10 * s.h) / (l.sp && t > 1 ? t : 1);
  // A rank holding several experts sorts the tokens it receives by expert and back (a second copy).
  const sortLocal = moe && s.E / l.ep > 1 ? (STEP_MODEL.localPermutation.value * s.topK * s.h) / t : 0;
  const split = (2 * (s.q + 2 * s.g * s.kvc)) / t + (s.glu + 1) * ffnWidth + (moe ? (4 * s.topK * s.h) / t : 0) + sortLocal;
  const casts = pk.bytes === 1 ? (2 * s.h + s.q / t + ffnWidth) * 1.5 : 0;
  // Context parallelism merges each ring step's partial attention into fp32 accumulators: the output
  // (q wide) forward, the query, key and value gradients backward, on about 3/4 of the rows per step
  // (causal: half the steps see half the rows). Bytes per token of this rank, forward and backward.
  const cpMerge = l.cp > 1 ? (0.75 * l.cp * STEP_MODEL.cpMergeBytes.value * (2 * s.q + 2 * s.g * s.kvc)) / t : 0;
  // Kernel gaps: every kernel of the layer, and the kernels of each CP ring step (forward and backward).
  const kernels = STEP_MODEL.kernelsPerLayer.value + (l.cp > 1 ? STEP_MODEL.cpStepKernels.value * l.cp : 0) + (moe ? 20 : 0);
  const elementwise = ((3 * 2 * (hSized + split + casts) + cpMerge) * n) / (hbm * 1e12 * STEP_MODEL.hbm.value) + router + kernels * STEP_MODEL.kernelGap.value;
  const share = recomputeShare(w, l);
  const recompute = share * ((g + attention + elementwise) / 3) + (l.recompute === 'selective' ? attention / 3 : 0);
  const comms = layerComms(s, w, l, moe, g, attention);
  // Full recompute runs the forward again, with its collectives: half the TP and EP ones, a third of CP's.
  comms.tp *= 1 + 0.5 * share;
  comms.ep *= 1 + 0.5 * share;
  comms.cp *= 1 + share / 3;
  return { gemm: g, attention, elementwise, recompute, ...comms };
}

/** The share of the layers full recompute repeats: all, or N of each model chunk's. */
export function recomputeShare(w: Pick<Workload, 'model'>, l: Pick<Layout, 'recompute' | 'recomputeLayers' | 'pp' | 'vpp' | 'split'> & Pick<Partial<Layout>, 'chunks'>): number {
  if (l.recompute !== 'full') return 0;
  if (l.recomputeLayers === undefined) return 1;
  const chunk = stageLoad(w.model.layers, l).chunk;
  return Math.min(1, Math.max(0, l.recomputeLayers / chunk));
}

/**
 * Attention scores, forward and backward, of one layer and micro-batch. Fused: at the fused
 * attention's rate, lower for the short kernels context parallelism runs. Unfused (before
 * FlashAttention): QKᵀ and the weighted sum of V as batched GEMMs of depth head-dim, and the s×s
 * scores moved through HBM by the masked softmax and dropout (about 11 bytes per score forward,
 * twice that backward, 16-bit scores and a 1-byte mask).
 */
function attentionTime(s: Shape, w: Workload, l: Layout, n: number, peak: number, eff: number): number {
  const flops = (s.coreFlops * w.seqLength * n) / l.tp;
  if (w.software?.fusedAttention === false) {
    // The whole s×s square is computed and then masked: the heads of this rank as one batched GEMM each way.
    const heads = s.a / l.tp;
    const hbm = w.hardware.hbmTBps;
    const scores = heads * n * w.seqLength;
    const gemms = gemm(heads * n, s.kvc, w.seqLength, peak, eff, 2, hbm, w.hardware.sms) + gemm(heads * n, w.seqLength, s.kvc, peak, eff, 2, hbm, w.hardware.sms);
    return gemms + (3 * 11 * scores) / (hbm * 1e12 * STEP_MODEL.hbm.value);
  }
  const length = w.seqLength / l.cp;
  const rate = STEP_MODEL.attention.value * (length / (length + STEP_MODEL.attentionLength.value));
  return flops / (peak * 1e12 * rate);
}

/**
 * The consecutive ranks a job keeps inside one NVLink domain: the whole domain when its size is a
 * power of two (8 GPUs of a DGX), else the largest power of two it holds. A job larger than one
 * GB200/GB300 NVL72 rack is allocated in blocks of 16 four-GPU trays per rack (Slurm `--segment`),
 * so each 64 consecutive ranks share a rack and no power-of-two group straddles two racks.
 */
export function domainBlock(w: Pick<Workload, 'nvlinkDomain' | 'gpus'>): number {
  if (w.gpus <= w.nvlinkDomain) return w.nvlinkDomain;
  return 2 ** Math.floor(Math.log2(Math.max(1, w.nvlinkDomain)));
}

/** Bandwidth of a group spanning `span` consecutive ranks: NVLink when inside one domain. */
function fabric(w: Workload, span: number): { gbps: number; kind: 'scale-up' | 'scale-out' } {
  // Groups tile the domain blocks when their span divides the block; a job no larger than one domain is inside it.
  const block = domainBlock(w);
  const inside = span <= w.nvlinkDomain && (block % span === 0 || w.gpus <= w.nvlinkDomain);
  return inside ? { gbps: w.hardware.scaleUpGBps, kind: 'scale-up' } : { gbps: scaleOut(w), kind: 'scale-out' };
}

function scaleOut(w: Workload): number {
  return w.networkGBps ?? w.hardware.scaleOutGBps;
}

/**
 * An all-to-all over `members` ranks spaced `stride` apart: the share of each rank's bytes that
 * stays inside its NVLink domain travels on NVLink, the rest on the network, both at once. Tokens
 * are routed uniformly; a rank's copies for itself cost nothing. `dedup`: each token's `copies`
 * cross the network once per remote domain they reach (the flex dispatcher), at random experts or,
 * with a gate that gives each token consecutive experts, on the `experts` laid out in EP order.
 */
function allToAll(w: Workload, bytes: number, members: number, stride: number, dedup?: { copies: number; experts?: number }): number {
  if (members <= 1) return 0;
  const span = members * stride;
  const f = fabric(w, span);
  // Of `groups` equal groups of consecutive experts (ranks, domains), those one token's copies reach:
  // groups (1 − (1 − 1/groups)^copies) at random, fewer with consecutive experts.
  const reached = (d: { copies: number; experts?: number }, groups: number) => (d.experts ? contiguousReach(d.experts, d.copies, d.experts / groups) : groups * (1 - (1 - 1 / groups) ** d.copies));
  // The flex dispatcher sends a token once to each rank it reaches (the rank's experts share it):
  // DeepEP's layout counts it once per rank (tests/test_intranode.py: is_token_in_rank, recv_x).
  const ranks = dedup ? reached(dedup, members) / dedup.copies : 1;
  if (f.kind === 'scale-up') return seconds(bytes * ranks * ((members - 1) / members), f.gbps);
  const block = domainBlock(w);
  const local = block % stride === 0 && span % block === 0 ? block / stride : 1;
  const intra = seconds((bytes * ranks * (local - 1)) / members, w.hardware.scaleUpGBps);
  // De-duplicated per domain: a token reaches R of the D domains, and each remote one gets it once
  // (then NVLink fans it out): R (1 − 1/D) sends per token, the sender's own domain being any of the D.
  const domains = members / local;
  if (!dedup || domains <= 1) return Math.max(intra, seconds((bytes * (members - local)) / members, scaleOut(w)));
  const remote = (bytes / dedup.copies) * reached(dedup, domains) * (1 - 1 / domains);
  // The de-duplicating dispatcher's kernels reach a measured share of the network's line rate, not NCCL's.
  return Math.max(intra, seconds(remote, scaleOut(w), STEP_MODEL.dispatchNetwork.value));
}

const REACH = new Map<string, number>();

/**
 * Domains a token reaches when token i goes to the `k` consecutive experts from i·k (mod E), each
 * domain holding `perDomain` consecutive experts: the mean over the starting experts.
 */
function contiguousReach(experts: number, k: number, perDomain: number): number {
  const key = `${experts}:${k}:${perDomain}`;
  let r = REACH.get(key);
  if (r === undefined) {
    let sum = 0;
    let n = 0;
    const seen = new Set<number>();
    for (let start = 0; n === 0 || start !== 0; start = (start + k) % experts) {
      seen.clear();
      for (let j = 0; j < k; j++) seen.add(Math.floor(((start + j) % experts) / Math.max(1, perDomain)));
      sum += seen.size;
      n++;
    }
    r = sum / n;
    REACH.set(key, r);
  }
  return r;
}

/**
 * A ring reduce-scatter or all-gather that sends `bytes` per GPU over a group of `members` ranks
 * spaced `stride` apart. Inside one NVLink domain, at its bandwidth. Across domains, each ring enters
 * and leaves a domain once, and NCCL runs a ring per network adapter, so of the k members inside a
 * domain each sends 1/k of its bytes over the network (while the whole of them moves on NVLink).
 */
function ringCollective(w: Workload, bytes: number, members: number, stride: number): number {
  if (bytes <= 0) return 0;
  const f = fabric(w, members * stride);
  if (f.kind === 'scale-up') return seconds(bytes, f.gbps);
  const k = Math.max(1, Math.min(members, Math.floor(domainBlock(w) / stride)));
  return Math.max(k > 1 ? seconds(bytes, w.hardware.scaleUpGBps) : 0, seconds(bytes / k, scaleOut(w)));
}

/**
 * The time a collective adds when it overlaps `window` seconds of compute: what does not fit in the
 * window, and, for what does, the compute slowed by the SMs the communication kernels occupy.
 */
function overlapped(time: number, window: number, w: Workload): number {
  const hiddenPart = Math.min(time, Math.max(0, window));
  return time - hiddenPart + hiddenPart * Math.min(1, STEP_MODEL.commSms.value / w.hardware.sms);
}

/** Seconds to send `bytes` at `gbps` line rate, of which the transfer reaches `efficiency` (NCCL's by default). */
function seconds(bytes: number, gbps: number, efficiency = STEP_MODEL.network.value): number {
  return bytes / (gbps * 1e9 * efficiency);
}

/** Exposed TP, CP and EP communication of one layer and micro-batch. */
function layerComms(s: Shape, w: Workload, l: Layout, moe: boolean, gemmTime: number, attention: number): Pick<LayerTimes, 'tp' | 'cp' | 'ep'> {
  const n = (l.microBatch * w.seqLength) / l.cp;
  const t = l.tp;
  let tp = 0;
  if (t > 1) {
    // Four all-gathers / reduce-scatters (or two all-reduces) forward and as many backward, of the
    // whole activation, each GPU sending (t−1)/t of it per gather or scatter.
    const bytes = 8 * ((t - 1) / t) * n * s.h * 2;
    const time = seconds(bytes, fabric(w, t).gbps);
    tp = l.overlap.tpComm ? overlapped(time, gemmTime, w) : time;
  }
  let cp = 0;
  if (l.cp > 1) {
    // Ring attention: each rank passes its keys and values on CP − 1 times forward, and keys,
    // values and their gradients backward, overlapped with the attention it computes meanwhile.
    const kvHeads = Math.max(1, s.g / t);
    // Each of the CP steps hides only behind its own attention block, and the first exchange of each
    // pass waits for nothing to overlap (Transformer Engine's P2P ring: send/receive of step i+1
    // while step i computes).
    const chunk = 2 * n * kvHeads * s.kvc * 2;
    const perStep = seconds(chunk, fabric(w, t * l.cp).gbps);
    const time = 3 * (l.cp - 1) * perStep;
    cp = overlapped(time, attention * ((l.cp - 1) / l.cp), w) + 2 * perStep;
  }
  let ep = 0;
  if (moe && l.ep > 1) {
    // Token dispatch and combine, forward and backward: four all-to-alls of the routed copies (the
    // most loaded rank's), the dispatch in FP8 (with a scale per 128 values) where the software does.
    // A rank sends its own tokens (1/TP of them under sequence parallelism); with expert TP the
    // tokens an expert-TP group received are then gathered over it, and the outputs reduce-scattered.
    const tokens = (n / t) * s.topK * STEP_MODEL.moeImbalance.value;
    const fp8 = w.precision === 'fp8' && w.software?.fp8Dispatch === true;
    const perHidden = 2 * 2 + 2 * (fp8 ? 1 + 4 / 128 : 2);
    const bytes = tokens * s.h * perHidden;
    const dedup = w.software?.dedupDispatch !== false ? { copies: s.topK, ...(w.software?.contiguousRouting ? { experts: s.E } : {}) } : undefined;
    const a2a = allToAll(w, bytes, l.ep, l.etp, dedup);
    const etp = l.etp > 1 ? seconds((l.etp - 1) * bytes, fabric(w, l.etp).gbps) : 0;
    const time = a2a + etp;
    ep = l.overlap.moeA2A ? overlapped(time, gemmTime / 2, w) : time;
  }
  return { tp, cp, ep };
}

/** Parameters each GPU holds (dense and expert), for the gradient collectives and the optimizer. */
function paramsOnGpu(model: ModelShape, l: Layout): { dense: number; expert: number } {
  const f = modelFacts(model);
  return { dense: f.dense / (l.tp * l.pp), expert: f.expert / (l.pp * l.ep * l.etp) };
}

/** The estimated time of one optimizer step of this layout, with where it goes. */
export function estimateStep(w: Workload, l: Layout): StepEstimate {
  const s = modelFacts(w.model).shape;
  const m = w.globalBatch / (l.microBatch * l.dp);
  // A model of MoE layers only (Mixtral) has no dense layer to price.
  const moe = s.nMoe > 0 ? layerTimes(s, w, l, true) : undefined;
  const dense = s.nDense > 0 || !moe ? layerTimes(s, w, l, false) : moe;
  const pk = peaks(w);
  const n = (l.microBatch * w.seqLength) / l.cp;
  const logits = s.V ? gemm(n, s.h, s.V / l.tp, pk.sixteen, pk.sixteenEff, 2, w.hardware.hbmTBps, w.hardware.sms) + (16 * n * s.V) / l.tp / (w.hardware.hbmTBps * 1e12 * STEP_MODEL.hbm.value) : 0;
  // The most loaded stage: its share of each kind of layer, and the output layer with the loss on
  // the last. Counting the embedding and the loss as layers gives the first and last stage one
  // layer fewer than the others; an uneven split paces each rank as VPP chunks of its heaviest.
  const load = stageLoad(s.L, l);
  const units = load.rank;
  const stage = (layers: number, k: keyof LayerTimes) => (layers / s.L) * (dense[k] * s.nDense + (moe ?? dense)[k] * s.nMoe);
  const stageTime = (layers: number) => stage(layers, 'gemm') + stage(layers, 'attention') + stage(layers, 'elementwise') + stage(layers, 'recompute') + stage(layers, 'tp') + stage(layers, 'cp') + stage(layers, 'ep');
  const lastLayers = load.last;
  const lastIsSlowest = l.pp === 1 || stageTime(lastLayers) + logits >= stageTime(units);
  const layers = lastIsSlowest ? lastLayers : units;
  const comms = { tp: stage(layers, 'tp'), cp: stage(layers, 'cp'), ep: stage(layers, 'ep') };
  const compute = stage(layers, 'gemm') + stage(layers, 'attention') + stage(layers, 'elementwise') + stage(layers, 'recompute') + (lastIsSlowest ? logits : 0);
  const perMicroBatch = compute + comms.tp + comms.cp + comms.ep;
  const bubble = l.pp > 1 ? ((l.pp - 1) / l.vpp) * perMicroBatch : 0;

  // Pipeline sends: the activation (split over TP with sequence parallelism) forward and its
  // gradient backward, at every virtual-stage boundary.
  const ppSpan = w.rankOrder === 'tp-cp-ep-pp-dp' ? l.tp * l.cp * l.pp : w.gpus;
  const ppFabric = fabric(w, ppSpan);
  const sendBytes = (n * s.h * 2) / (l.sp && l.tp > 1 ? l.tp : 1);
  const send = l.pp > 1 ? seconds(sendBytes, ppFabric.gbps) : 0;
  const p2p = l.pp > 1 ? (l.overlap.p2p && l.vpp > 1 ? 2 * (l.pp - 1) * send : 2 * l.vpp * m * send) : 0;

  const { dp, optimizer, dpKind } = dataParallel(w, l, perMicroBatch, bubble, m);
  const parts = { compute: m * compute, bubble, tp: m * comms.tp, cp: m * comms.cp, ep: m * comms.ep, p2p, dp, optimizer };
  const total = parts.compute + parts.bubble + parts.tp + parts.cp + parts.ep + parts.p2p + parts.dp + parts.optimizer;
  const modelFlops = flopsPerToken(w.model, w.seqLength) * w.globalBatch * w.seqLength;
  const tflops = modelFlops / (total * w.gpus) / 1e12;
  const peak = w.precision === 'fp8' ? w.hardware.fp8Tflops : w.precision === 'fp32' ? undefined : w.hardware.bf16Tflops;
  const fabrics: StepEstimate['fabrics'] = {};
  if (l.tp > 1) fabrics.tp = fabric(w, l.tp).kind;
  if (l.cp > 1) fabrics.cp = fabric(w, l.tp * l.cp).kind;
  if (l.ep > 1 && s.nMoe) fabrics.ep = fabric(w, l.etp * l.ep).kind;
  if (dpKind) fabrics.dp = dpKind;
  if (l.pp > 1) fabrics.pp = ppFabric.kind;
  return {
    seconds: total,
    microBatches: m,
    parts,
    modelFlops,
    tokensPerSecondPerGpu: (w.globalBatch * w.seqLength) / (total * w.gpus),
    tflopsPerGpu: tflops,
    peakTflops: peak,
    mfu: peak ? tflops / peak : undefined,
    expected: calibrated(calibrationOf(w.model).value, total, tflops, peak, (w.globalBatch * w.seqLength) / w.gpus),
    fabrics,
  };
}

function calibrated(k: number, seconds: number, tflops: number, peak: number | undefined, tokensPerGpu: number): Expected {
  return { factor: k, seconds: seconds * k, tokensPerSecondPerGpu: tokensPerGpu / (seconds * k), tflopsPerGpu: tflops / k, mfu: peak ? tflops / k / peak : undefined };
}

/**
 * The data-parallel collectives (gradients reduced over DP × CP, the experts' over expert DP) and
 * the optimizer step. With the overlap switches, the reduction hides behind the last micro-batch's
 * backward and the pipeline drain, the parameter gather behind the first forward and the fill.
 * Megatron-FSDP reduces the gradients of every micro-batch (and, sharding parameters, gathers them
 * for its forward and backward), each hidden behind that micro-batch's own compute.
 */
function dataParallel(w: Workload, l: Layout, perMicroBatch: number, bubble: number, m: number): { dp: number; optimizer: number; dpKind?: 'scale-up' | 'scale-out' } {
  const params = paramsOnGpu(w.model, l);
  const d = l.dp * l.cp;
  const ed = w.gpus / (l.pp * l.ep * l.etp);
  const gradBytes = w.precision === 'fp32' ? 4 : w.gradReduce16 ? 2 : 4;
  const paramBytes = w.precision === 'fp32' ? 4 : 2;
  const f = fabric(w, l.tp * l.cp * l.dp);
  const fe = fabric(w, l.etp * l.ep * ed);
  const ring = (k: number) => (k > 1 ? (k - 1) / k : 0);
  const denseStride = w.rankOrder === 'tp-cp-ep-pp-dp' ? l.tp * l.cp * l.pp : l.tp;
  const collective = (dense: number, expert: number, bytes: number) => ringCollective(w, ring(d) * dense * bytes, d, denseStride) + ringCollective(w, ring(ed) * expert * bytes, ed, l.etp * l.ep);
  const scatter = (bytes: number) => collective(params.dense, params.expert, bytes);
  const hidden = (time: number, window: number, on: boolean) => (on ? overlapped(time, window, w) : time);
  // Overlapped, the bucket completed last (the first layers and the input embedding) has nothing
  // left to hide behind, nor the next step's first gather: on average half a bucket of layers, and
  // the embedding on the first stage; experts' buckets likewise.
  const half = Math.max(STEP_MODEL.dpBucket.value, 1e6 * l.dp) / 2;
  const s = modelFacts(w.model).shape;
  const embedding = s.V ? (s.V * s.h) / l.tp : 0;
  const edge = (bytes: number) => collective(Math.min(params.dense, half + embedding), Math.min(params.expert, params.expert > 0 ? half : 0), bytes);
  const exposedEdge = (time: number, edgeTime: number, window: number, on: boolean) => (on ? edgeTime + overlapped(Math.max(0, time - edgeTime), window, w) : time);
  const overlap = (bytes: number, window: number, on: boolean) => exposedEdge(scatter(bytes), edge(bytes), window, on);
  const fwd = perMicroBatch / 3;
  let dp: number;
  if (l.fsdp) {
    const rs = scatter(gradBytes);
    const ag = scatter(paramBytes);
    // A micro-batch's gradient reduce-scatter runs on while the next micro-batch computes (nothing
    // waits for it until the optimizer step): the last one has only its own backward and the drain,
    // and its edge bucket (Megatron-FSDP's units assumed the size of the DDP's buckets) none.
    const reduce = (time: number, edgeTime: number) => (m - 1) * hidden(time, 3 * fwd, l.overlap.gradReduce) + exposedEdge(time, edgeTime, 2 * fwd + bubble / 2, l.overlap.gradReduce);
    dp =
      l.fsdp === 'optim_grads_params'
        ? (m - 1) * hidden(ag, fwd, l.overlap.paramGather) + exposedEdge(ag, edge(paramBytes), fwd, l.overlap.paramGather) + reduce(ag + rs, edge(gradBytes) + edge(paramBytes))
        : reduce(rs, edge(gradBytes)) + exposedEdge(ag, edge(paramBytes), fwd + bubble / 2, l.overlap.paramGather);
  } else if (l.distributedOptimizer) {
    dp = overlap(gradBytes, 2 * fwd + bubble / 2, l.overlap.gradReduce) + overlap(paramBytes, fwd + bubble / 2, l.overlap.paramGather);
  } else dp = overlap(2 * gradBytes, 2 * fwd + bubble / 2, l.overlap.gradReduce);
  // Adam: read and write the fp32 master copy and both moments, read the gradient, write the weights.
  const shardOf = (k: number) => (l.distributedOptimizer || l.fsdp ? Math.max(1, k) : 1);
  const optBytes = (params.dense / shardOf(d) + params.expert / shardOf(ed)) * (3 * 4 * 2 + gradBytes + paramBytes);
  const optimizer = optBytes / (w.hardware.hbmTBps * 1e12 * STEP_MODEL.hbm.value);
  return { dp, optimizer, dpKind: d > 1 || ed > 1 ? (d > 1 ? f.kind : fe.kind) : undefined };
}

/** The model's constants and the hardware's, one line each, for reports. */
export function stepAssumptions(hw?: HardwareProfile): string[] {
  const own = [...Object.values(STEP_MODEL), CALIBRATION, CALIBRATION_MOE, TIE_BAND, TIE_BAND_MOE].map((c) => `${c.what}: ${c.value} (${c.source})`);
  if (!hw) return own;
  return [
    `a large GEMM reaches ${hw.mamf.bf16} of the dense BF16 peak${hw.mamf.fp8 ? ` and ${hw.mamf.fp8} of the FP8 peak` : ''} on ${hw.id} (${hw.mamf.source}); ${hw.sms} SMs run its tiles in waves`,
    `${hw.id}: HBM ${hw.hbmTBps} TB/s, ${hw.scaleUp} at ${hw.scaleUpGBps} GB/s per direction, ${hw.scaleOut} at ${hw.scaleOutGBps} GB/s per GPU and direction`,
    ...own,
  ];
}
