/**
 * Per-GPU training memory and FLOPs estimates.
 *
 * The reference case is Megatron-LM's own estimator (`megatron/training/theoretical_memory_usage.py`:
 * `compute_weight_and_optimizer_memory`, `compute_activation_memory`) and its FLOPs count
 * (`num_floating_point_operations` in `megatron/training/training.py`): with the distributed
 * optimizer, sequence parallelism and selective recompute (or flash attention without recompute)
 * the numbers here equal Megatron's for the same arguments. Everything else (plain DDP, ZeRO
 * stages, FSDP strategies, CPU offload, fp32, full or no recompute, context parallelism) is an
 * extension of the same accounting; every estimate carries the plain-English assumptions it rests
 * on, so a hover can show them next to the number.
 *
 * Pure arithmetic: no I/O, no clock.
 */

/** Multi-head latent attention (DeepSeek-V2/V3) projection sizes, as Megatron's `--multi-latent-attention` flags. */
export interface MlaShape {
  /** Query down-projection rank; absent = queries projected directly from the hidden state. */
  qLoraRank?: number;
  kvLoraRank: number;
  /** Per-head query/key size without the rotary part (`qk_nope_head_dim`). */
  qkHeadDim: number;
  /** Rotary part of each query/key head (`qk_rope_head_dim`). */
  qkPosEmbHeadDim: number;
  vHeadDim: number;
}

export interface ModelShape {
  layers: number;
  hidden: number;
  heads: number;
  /** GQA groups (default: heads = MHA). */
  queryGroups?: number;
  /** Per-head size (default hidden/heads). */
  kvChannels?: number;
  /** Dense MLP hidden size (default 4·hidden, or Megatron's SwiGLU rule int((4h·2/3)/64)·64). */
  ffn?: number;
  /** Gated MLP (3 matrices). */
  swiglu?: boolean;
  /** Padded vocabulary; required for the embedding, output layer and logits terms. */
  vocab?: number;
  untiedEmbeddings?: boolean;
  /** MoE experts per MoE layer (undefined = dense). */
  experts?: number;
  /** Expert FFN hidden size (default ffn). */
  moeFfn?: number;
  /** Routed experts per token (default 2, Megatron's `--moe-router-topk` default). */
  topK?: number;
  sharedExpertFfn?: number;
  /** Layer i is MoE when i % moeLayerFreq == 0 (Megatron's integer `--moe-layer-freq`; default 1). */
  moeLayerFreq?: number;
  /** The first N layers are dense even in a MoE model (DeepSeek's `first_k_dense_replace`). */
  firstDenseLayers?: number;
  /** Norm layers: LayerNorm has weight+bias (2·h), RMSNorm weight only (h). Default 'layernorm' (Megatron's default). */
  norm?: 'layernorm' | 'rmsnorm';
  /** Multi-head latent attention instead of MHA/GQA. */
  mla?: MlaShape;
  /** The Hugging Face `model_type`, where the shape comes from a `config.json` that gives it. */
  hfModelType?: string;
}

export type Precision = 'bf16' | 'fp16' | 'fp8' | 'fp32';

export interface Sharding {
  // 'none': plain DDP/Adam; 'distributed-optimizer': Megatron ZeRO-1 over DP; 'zero': DeepSpeed stage 1/2/3;
  // 'fsdp': FSDP ('full' = params+grads+optimizer sharded, 'grad-op' = grads+optimizer, 'no-shard')
  kind: 'none' | 'distributed-optimizer' | 'zero' | 'fsdp';
  stage?: 0 | 1 | 2 | 3;
  fsdp?: 'full' | 'grad-op' | 'no-shard';
  /**
   * Which implementation shards, where the file says (Megatron-LM tells them apart: its checks accept
   * Megatron-FSDP where they refuse PyTorch's FSDP2).
   */
  impl?: 'megatron-fsdp' | 'torch-fsdp2';
  /** Ranks that share (shard) the states (DP, or dp_shard for HSDP). */
  group: number;
  offloadOptimizer?: boolean;
  offloadParams?: boolean;
}

export interface MemoryInput {
  model: ModelShape;
  tp: number;
  pp: number;
  vpp?: number;
  cp: number;
  ep: number;
  etp: number;
  dp: number;
  expertDp: number;
  sp: boolean;
  microBatch: number;
  seqLength: number;
  numMicroBatches?: number;
  precision: Precision;
  /** Megatron's main-gradient buffer in 16 bits (`--grad-reduce-in-bf16`) instead of fp32. */
  gradBytes16?: boolean;
  sharding: Sharding;
  recompute: 'none' | 'selective' | 'full';
  /**
   * Layers on the first pipeline stage when they are not layers / PP: with the embedding and the
   * loss counted as layers (Megatron's `--account-for-embedding-in-pipeline-split`) it holds one fewer.
   */
  firstStageLayers?: number;
  /** With full recompute, the share of the layers recomputed (Megatron's block method, N of each chunk's layers); default 1. */
  recomputeFraction?: number;
  /**
   * Attention kernels that never materialise the s×s score matrix (FlashAttention, cuDNN/TE fused
   * attention, PyTorch SDPA). Default true: the default in Megatron with Transformer Engine and in
   * recent Hugging Face models. Only matters without activation recompute.
   */
  flashAttention?: boolean;
  /**
   * Weights, gradients and optimizer state worked out elsewhere (a LoRA run trains adapters over
   * frozen weights: plan/adapters.ts), with the assumptions they rest on; activations are counted here.
   */
  states?: { weights: number; gradients: number; optimizer: number; assumptions: string[] };
  /**
   * The model described is frozen (`--freeze-LM`, `--freeze-all-layers`): its weights get no
   * gradients or optimizer state; `forwardOnly` when nothing trains (no activations kept for a backward).
   */
  frozen?: { note: string; forwardOnly?: boolean };
}

export interface MemoryEstimate {
  bytes: { weights: number; gradients: number; optimizer: number; activations: number; total: number };
  /** Per-GPU parameter counts on the most loaded shard (first pipeline stage), dense and expert, before ZeRO/FSDP sharding. */
  paramsOnGpu: number;
  totalParams: number;
  /** Plain-English facts the numbers rest on. */
  assumptions: string[];
  /** Intermediate values, for hovers that want to show where a number comes from. */
  detail: {
    denseParamsOnGpu: number;
    expertParamsOnGpu: number;
    /** Bytes per parameter on this GPU for dense / expert parameters, split weights+gradients+optimizer. */
    bytesPerParam: { dense: PerParamBytes; expert: PerParamBytes };
    /** 16-bit copy of gathered layers (ZeRO-3 / FSDP full shard / parameter offload), included in weights. */
    gatheredParamBytes: number;
    /** Activation bytes one transformer layer keeps for one micro-batch on this GPU (before CP). */
    activationPerLayer: number;
    /** Multiplier for the pipeline schedule (interleaving penalty or micro-batch discount). */
    pipelineFactor: number;
  };
}

export interface PerParamBytes {
  weights: number;
  gradients: number;
  optimizer: number;
}

export interface ParameterCount {
  total: number;
  /** Input embedding plus (untied) output layer. */
  embedding: number;
  /** Parameters of one layer that are not routed experts (a MoE layer's when the model has MoE layers). */
  perLayerDense: number;
  /** Routed-expert parameters of one MoE layer (0 for dense models). */
  perLayerExperts: number;
  /** Parameters one token passes through (top-k experts instead of all). */
  active: number;
  denseLayers: number;
  moeLayers: number;
}

const NO_VOCAB = 'vocab missing: input embedding, output layer and logits are not counted';

/** Megatron's default FFN size: 4·h, or int((4h·2/3)/64)·64 with SwiGLU (arguments.py, validate_args). */
export function defaultFfn(hidden: number, swiglu = false): number {
  return swiglu ? Math.floor((4 * hidden * 2) / 3 / 64) * 64 : 4 * hidden;
}

/** Megatron's vocab padding: up to a multiple of make_vocab_size_divisible_by × TP. */
export function padVocab(vocab: number, tp = 1, divisibleBy = 128): number {
  const multiple = divisibleBy * Math.max(1, tp);
  return Math.ceil(vocab / multiple) * multiple;
}

export function gib(bytes: number): number {
  return bytes / 2 ** 30;
}

// ---------------------------------------------------------------------------------------------
// Shape resolution and per-layer parameter terms (Megatron's accounting).

/** A model shape with every default Megatron applies filled in (the dense/MoE layer split counted). */
export interface Resolved {
  L: number;
  h: number;
  a: number;
  g: number;
  kvc: number;
  f: number;
  swiglu: boolean;
  V: number | undefined;
  untied: boolean;
  normSize: number;
  E: number;
  moeF: number;
  topK: number;
  sharedF: number;
  nMoe: number;
  nDense: number;
  mla?: MlaShape;
}

export function resolve(m: ModelShape): Resolved {
  const h = m.hidden;
  const a = m.heads;
  const swiglu = m.swiglu ?? false;
  const f = m.ffn ?? defaultFfn(h, swiglu);
  const E = m.experts ?? 0;
  let nMoe = 0;
  if (E > 0) {
    nMoe = moeLayerCount(m.layers, m.moeLayerFreq ?? 1, m.firstDenseLayers ?? 0);
  }
  return {
    L: m.layers,
    h,
    a,
    g: m.queryGroups ?? a,
    kvc: m.kvChannels ?? Math.floor(h / a),
    f,
    swiglu,
    V: m.vocab && m.vocab > 0 ? m.vocab : undefined,
    untied: m.untiedEmbeddings ?? false,
    normSize: m.norm === 'rmsnorm' ? 1 : 2,
    E,
    moeF: m.moeFfn ?? f,
    topK: m.topK ?? 2,
    sharedF: m.sharedExpertFfn ?? 0,
    nMoe,
    nDense: m.layers - nMoe,
    mla: m.mla,
  };
}

export interface LayerTerms {
  attn: number;
  denseMlp: number;
  shared: number;
  routed: number;
  activeRouted: number;
  norms: number;
  router: number;
  finalNorm: number;
  /** h·V: one embedding-sized matrix (0 without vocab). */
  embed: number;
  /** Input embedding plus the output layer when untied. */
  embeddingLayers: number;
}

export function layerTerms(r: Resolved): LayerTerms {
  const { h, a } = r;
  let attn: number;
  if (r.mla) {
    const x = r.mla;
    const q =
      x.qLoraRank === undefined
        ? h * a * (x.qkHeadDim + x.qkPosEmbHeadDim)
        : x.qLoraRank * (h + a * (x.qkHeadDim + x.qkPosEmbHeadDim) + r.normSize);
    attn = q + x.kvLoraRank * (h + a * (x.qkHeadDim + x.vHeadDim) + r.normSize) + h * x.qkPosEmbHeadDim + a * x.vHeadDim * h;
  } else {
    const q = r.kvc * a; // query projection size
    attn = h * (q + 2 * r.g * r.kvc) + q * h; // QKV + output projection
  }
  const glu = r.swiglu ? 1.5 : 1;
  const embed = r.V ? h * r.V : 0;
  return {
    attn,
    denseMlp: 2 * h * r.f * glu,
    shared: 2 * h * r.sharedF * glu,
    routed: r.E > 0 ? 2 * h * r.moeF * r.E * glu : 0,
    activeRouted: r.E > 0 ? 2 * h * r.moeF * r.topK * glu : 0,
    norms: 2 * h * r.normSize,
    router: r.E > 0 ? h * r.E : 0,
    finalNorm: r.normSize * h,
    embed,
    embeddingLayers: r.untied ? 2 * embed : embed,
  };
}

export function countParameters(model: ModelShape): ParameterCount {
  const r = resolve(model);
  const t = layerTerms(r);
  const denseLayer = t.attn + t.denseMlp + t.norms;
  const moeNonExpert = t.attn + t.shared + t.norms + t.router;
  const total = denseLayer * r.nDense + (moeNonExpert + t.routed) * r.nMoe + t.finalNorm + t.embeddingLayers;
  const active = denseLayer * r.nDense + (moeNonExpert + t.activeRouted) * r.nMoe + t.finalNorm + t.embeddingLayers;
  return {
    total,
    embedding: t.embeddingLayers,
    perLayerDense: r.nMoe > 0 ? moeNonExpert : denseLayer,
    perLayerExperts: r.nMoe > 0 ? t.routed : 0,
    active,
    denseLayers: r.nDense,
    moeLayers: r.nMoe,
  };
}

// ---------------------------------------------------------------------------------------------
// Parameters on the most loaded GPU (Megatron: first pipeline stage, 1/PP of the layers + embedding).

interface ShardParams {
  tpSharded: number;
  replicated: number;
  expert: number;
  /** Largest single layer on this GPU (dense or MoE), for gathered-parameter working sets. */
  maxLayer: number;
}

function paramsOnMostLoadedShard(r: Resolved, t: LayerTerms, tp: number, pp: number, etp: number, ep: number, stage = 1): ShardParams {
  // `stage`: the first stage's layers over layers / PP (below 1 when it holds fewer).
  const tpBlock = ((t.attn + t.denseMlp) * r.nDense + (t.attn + t.shared) * r.nMoe) * stage;
  const replBlock = (t.norms * r.nDense + (t.norms + t.router) * r.nMoe) * stage + t.finalNorm;
  const expertBlock = t.routed * r.nMoe * stage;
  let tpSharded = (tpBlock / pp + t.embed) / tp;
  if (r.untied && pp === 1) tpSharded += t.embed / tp;
  const denseLayer = r.nDense > 0 ? (t.attn + t.denseMlp) / tp + t.norms : 0;
  const moeLayer = r.nMoe > 0 ? (t.attn + t.shared) / tp + t.routed / (etp * ep) + t.norms + t.router : 0;
  return {
    tpSharded,
    replicated: replBlock / pp,
    expert: expertBlock / pp / (etp * ep),
    maxLayer: Math.max(denseLayer, moeLayer),
  };
}

// ---------------------------------------------------------------------------------------------
// Bytes per parameter for each sharding scheme.

function perParam(s: Sharding, precision: Precision, n: number, grad16 = false): PerParamBytes {
  const fp32 = precision === 'fp32';
  const N = Math.max(1, n);
  // Megatron's main gradients are fp32 unless reduced in bf16 (`--grad-reduce-in-bf16`).
  const g = grad16 && !fp32 ? 2 : 4;
  switch (s.kind) {
    case 'none':
      // Megatron: bf16 params, fp32 main grads, fp32 master + 2 Adam moments = 18 B; fp32: 4 + 4 + 8.
      return fp32 ? { weights: 4, gradients: 4, optimizer: 8 } : { weights: 2, gradients: g, optimizer: 12 };
    case 'distributed-optimizer':
      return fp32 ? { weights: 4, gradients: 4, optimizer: 8 / N } : { weights: 2, gradients: g, optimizer: 12 / N };
    case 'zero': {
      // ZeRO paper accounting: 16-bit params and grads (DeepSpeed keeps grads in the model dtype), K = 12 optimizer bytes.
      const stage = s.stage ?? 0;
      const b = fp32 ? { weights: 4, gradients: 4, optimizer: 8 } : { weights: 2, gradients: 2, optimizer: 12 };
      return {
        weights: stage >= 3 ? b.weights / N : b.weights,
        gradients: stage >= 2 ? b.gradients / N : b.gradients,
        optimizer: stage >= 1 ? b.optimizer / N : b.optimizer,
      };
    }
    case 'fsdp': {
      // FSDP keeps the sharded (flat) parameters in fp32 — they double as the optimizer's master copy —
      // and casts to 16-bit for compute; fp32 grads, Adam m+v = 4 + 4 + 8.
      const mode = s.fsdp ?? 'full';
      const compute = fp32 ? 4 : 2;
      if (mode === 'no-shard') return { weights: 4, gradients: 4, optimizer: 8 };
      if (mode === 'grad-op') return { weights: 4 / N + compute, gradients: 4 / N, optimizer: 8 / N };
      return { weights: 4 / N, gradients: 4 / N, optimizer: 8 / N };
    }
  }
}

interface OffloadResult {
  bytes: PerParamBytes;
  paramsOffloaded: boolean;
}

function applyOffload(s: Sharding, b: PerParamBytes): OffloadResult {
  const out = { ...b };
  let paramsOffloaded = false;
  switch (s.kind) {
    case 'none':
      break;
    case 'distributed-optimizer':
      if (s.offloadOptimizer) out.optimizer = 0;
      break;
    case 'zero':
      if (s.offloadOptimizer) {
        out.optimizer = 0;
        if ((s.stage ?? 0) >= 2) out.gradients = 0;
      }
      if (s.offloadParams && s.stage === 3) {
        out.weights = 0;
        paramsOffloaded = true;
      }
      break;
    case 'fsdp':
      if (s.offloadParams) {
        out.weights = 0;
        out.gradients = 0;
        out.optimizer = 0;
        paramsOffloaded = true;
      } else if (s.offloadOptimizer) out.optimizer = 0;
      break;
  }
  return { bytes: out, paramsOffloaded };
}

function shardingAssumptions(s: Sharding, precision: Precision, n: number, nExpert: number, hasExperts: boolean, cp: number, dp: number): string[] {
  const fp32 = precision === 'fp32';
  const out: string[] = [];
  const nTxt = hasExperts && nExpert !== n ? `N = ${n} ranks (expert parameters: ${nExpert})` : `N = ${n} ranks`;
  switch (s.kind) {
    case 'none':
      out.push(
        fp32
          ? 'fp32 training, plain data parallelism: fp32 weights and gradients, Adam moments (4 + 4 + 8 = 16 bytes per parameter), nothing sharded'
          : "Mixed precision as Megatron counts it: 16-bit weights, fp32 gradient buffer, fp32 master copy and two fp32 Adam moments (2 + 4 + 12 = 18 bytes per parameter), nothing sharded; an autocast DDP run keeping fp32 weights (4 + 4 + 8) holds 2 bytes less",
      );
      break;
    case 'distributed-optimizer':
      out.push(
        fp32
          ? `fp32 training with Megatron's distributed optimizer: 4-byte weights and gradients, 8 bytes of Adam moments divided over ${nTxt}`
          : `Megatron's distributed optimizer: 16-bit weights (2 B) and fp32 gradient buffer (4 B) kept whole, fp32 master copy and two Adam moments (12 B) divided over ${nTxt}: 6 + 12/N bytes per parameter`,
      );
      if (cp > 1 && n === dp) out.push("Optimizer sharded over the DP group as in Megatron's estimator; Megatron actually shards over DP×CP ranks, so the optimizer share is smaller by CP");
      break;
    case 'zero': {
      const stage = s.stage ?? 0;
      const what = ['nothing', 'optimizer states', 'optimizer states and gradients', 'optimizer states, gradients and parameters'][stage];
      out.push(
        fp32
          ? `DeepSpeed ZeRO-${stage} in fp32: 4-byte weights and gradients, 8 bytes of Adam moments; ${what} divided over ${nTxt}`
          : `DeepSpeed ZeRO-${stage} (ZeRO paper accounting): 16-bit weights (2 B) and 16-bit gradients (2 B, DeepSpeed's default grad dtype), fp32 master copy + two Adam moments (12 B); ${what} divided over ${nTxt}`,
      );
      if (stage >= 1 && !fp32) out.push('fp32 gradient accumulation (data_types.grad_accum_dtype: fp32) would add 2 bytes per gradient element; reduce/all-gather bucket buffers are not counted');
      break;
    }
    case 'fsdp': {
      const mode = s.fsdp ?? 'full';
      const base = fp32 ? 'fp32 weights, gradients and Adam moments (4 + 4 + 8 = 16 B per parameter)' : 'fp32 sharded parameters (also the master copy), fp32 gradients and two Adam moments (4 + 4 + 8 = 16 B per parameter), cast to 16-bit for compute';
      if (mode === 'no-shard') out.push(`FSDP NO_SHARD: ${base}, nothing sharded`);
      else if (mode === 'grad-op') out.push(`FSDP SHARD_GRAD_OP (ZeRO-2): ${base}, all divided over ${nTxt}; plus the unsharded ${fp32 ? 'fp32' : '16-bit'} parameters, kept from forward to backward`);
      else out.push(`FSDP FULL_SHARD (ZeRO-3): ${base}, all divided over ${nTxt}`);
      break;
    }
  }
  // Offload notes.
  if (s.offloadOptimizer || s.offloadParams) {
    switch (s.kind) {
      case 'none':
        out.push('Offload ignored: plain data parallelism has no CPU offload');
        break;
      case 'distributed-optimizer':
        if (s.offloadOptimizer) out.push('Optimizer CPU offload (--optimizer-cpu-offload, whole fraction): master weights and Adam moments live in host memory');
        if (s.offloadParams) out.push("Parameter offload ignored: Megatron's optimizer offload moves optimizer state only");
        break;
      case 'zero':
        if (s.offloadOptimizer) out.push(`offload_optimizer: master weights and Adam moments in host memory${(s.stage ?? 0) >= 2 ? ', gradient partitions copied to host after reduction' : '; ZeRO-1 keeps its 16-bit gradients on the GPU'}`);
        if (s.offloadParams) out.push(s.stage === 3 ? 'offload_param: parameter partitions in host memory, only gathered layers on the GPU' : 'offload_param ignored: DeepSpeed applies it under ZeRO-3 only');
        break;
      case 'fsdp':
        if (s.offloadParams) out.push('FSDP CPU offload: sharded parameters, gradients and the optimizer step live in host memory; only gathered layers on the GPU');
        else if (s.offloadOptimizer) out.push('Optimizer states counted in host memory (FSDP itself offloads parameters, gradients and optimizer together)');
        break;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Activations (Korthikanti et al. 2022, Table 2 — the formula Megatron's estimator uses).

/**
 * Tokens the most loaded expert rank receives relative to the mean, with auxiliary-loss or
 * bias-based balancing (the step model's pace of the expert GEMMs and the all-to-all, and the
 * activations the most loaded rank stores: dropless routing has no capacity to cap it).
 */
export const MOE_IMBALANCE = {
  value: 1.1,
  what: 'tokens the most loaded expert rank receives, relative to the mean, with auxiliary-loss or bias-based balancing: the slowest EP rank sets the pace of the expert GEMMs and the all-to-all, and stores the most activations',
  source: 'Switch Transformer (Fedus et al. 2021) trains at capacity factors 1.0–1.25; DeepSeek-V3 §2.1.2 keeps balance with a bias term but reports residual imbalance per batch; 1.1 assumed. The Megatron-Core MoE guide (megatron/core/transformer/moe/README.md @ d98e8a6, Step 1) lists EP’s peak activation memory as about 1, varying with EP balancing',
};

/**
 * MLP activations of one layer and micro-batch, as multiples of s·b (16-bit elements counted twice,
 * as in Korthikanti's formula): a dense MLP keeps its two f-wide intermediates (4·f); a MoE layer's
 * experts keep, for every routed copy of a token, its permuted input (2·h) and the two intermediates
 * of the expert's width (Megatron-Core's grouped expert MLP runs fc1, the activation and fc2 on the
 * permuted tokens, each keeping its input for the backward pass), on the most loaded rank when the
 * experts are split over EP; a shared expert keeps a dense MLP's.
 */
function mlpActivations(r: Resolved, ep: number, etp: number, t: number): number {
  const dense = 4 * r.f;
  if (r.nMoe === 0 || r.E === 0) return dense;
  const copies = r.topK * (ep > 1 ? MOE_IMBALANCE.value : 1);
  // Relative to the layer's tokens over TP: an expert-TP group gathers its members' tokens (× ETP),
  // each with the whole hidden size, and splits the expert's width over ETP.
  const moe = copies * (2 * r.h * Math.min(t, etp) + 4 * r.moeF) + 4 * r.sharedF;
  return (dense * r.nDense + moe * r.nMoe) / r.L;
}

interface ActivationResult {
  bytes: number;
  perLayer: number;
  factor: number;
}

function activationBytes(inp: MemoryInput, r: Resolved, notes: string[] | undefined): ActivationResult {
  const s = inp.seqLength;
  const b = inp.microBatch;
  const { h, a, L } = r;
  const t = Math.max(1, inp.tp);
  const p = Math.max(1, inp.pp);
  const cp = Math.max(1, inp.cp);
  const flash = inp.flashAttention ?? true;
  const spOn = inp.sp && t > 1;
  const sbh = s * b * h;

  // One layer, one micro-batch, 16-bit activations with 1-byte dropout masks:
  // 18·sbh + 4·sbf = LayerNorm inputs, QKV input, Q/K/V, attention output, projection and MLP inputs,
  // MLP intermediates and dropout masks. With SP all of it is split over TP; without SP only the
  // tensors inside the TP region (8·sbh + 4·sbf) are.
  const mlp = mlpActivations(r, Math.max(1, inp.ep), Math.max(1, inp.etp), t);
  const layerSelective = spOn ? (sbh * (18 + mlp / h)) / t : sbh * (10 + (8 + mlp / h) / t);
  const scores = flash ? 0 : (5 * a * s * s * b) / t; // softmax output, its dropout mask and dropout output
  let perLayerStored: number;
  const share = inp.recompute === 'full' ? Math.min(1, Math.max(0, inp.recomputeFraction ?? 1)) : 0;
  if (inp.recompute === 'full') perLayerStored = share * (spOn ? (2 * sbh) / t : 2 * sbh) + (1 - share) * (layerSelective + scores);
  else if (inp.recompute === 'none') perLayerStored = layerSelective + scores;
  else perLayerStored = layerSelective;

  // Embedding: token ids (8 B) and embedding dropout output, PP micro-batches in flight.
  const embed = spOn ? (8 * s * b * p + sbh * p) / t : 8 * s * b * p + sbh * p;
  // Megatron: per-layer × all L layers = (L/PP layers on the first stage) × (PP micro-batches in
  // flight); a first stage with fewer layers keeps fewer.
  const stageLayers = inp.firstStageLayers !== undefined && p > 1 ? inp.firstStageLayers * p : L;
  let stack = perLayerStored * stageLayers + embed;

  let factor = 1;
  const vpp = inp.vpp && inp.vpp > 1 ? inp.vpp : undefined;
  if (vpp && p > 1) {
    factor = 1 + (p - 1) / (p * vpp);
    notes?.push(`Interleaved pipeline (VPP ${vpp}): activations × ${factor.toFixed(3)} (1 + (PP−1)/(PP·VPP)), as Megatron counts the extra in-flight chunks`);
  } else if (p > 1) {
    if (inp.numMicroBatches !== undefined) {
      factor = Math.min(1, inp.numMicroBatches / p);
      notes?.push(
        factor < 1
          ? `Only ${inp.numMicroBatches} micro-batches for ${p} pipeline stages: activations scaled by ${inp.numMicroBatches}/${p}`
          : `Activations of the first pipeline stage: 1F1B keeps PP = ${p} micro-batches in flight`,
      );
    } else notes?.push(`Activations of the first pipeline stage with PP = ${p} micro-batches in flight (number of micro-batches unknown, assumed ≥ PP)`);
  }
  stack *= factor;

  let output = 0;
  if (p === 1) {
    // Final norm output / output-layer input and fp32 logits for the loss (vocab-parallel over TP).
    const V = r.V ?? 0;
    output = spOn ? (4 * sbh * (1 + V / h)) / t : 4 * sbh + (4 * s * b * V) / t;
  }
  const workspace = inp.recompute === 'full' ? layerSelective + scores : 0;

  // Notes on what was assumed.
  if (inp.recompute === 'full' && share < 1) notes?.push(`Full recompute of ${Math.round(share * 100)} % of the layers (block method): those keep only their input, the others all their activations`);
  else if (inp.recompute === 'full') notes?.push('Full recompute of every layer (uniform, one layer per checkpoint): each layer keeps only its input (2·s·b·h bytes per micro-batch), plus one layer’s full activations while it is recomputed; recomputing fewer layers keeps more');
  else if (inp.recompute === 'none' && flash) notes?.push('No recompute, flash/fused attention assumed: no s×s attention scores stored, so the same activations as selective recompute');
  else if (inp.recompute === 'none') notes?.push('No recompute and no flash attention: the attention scores, their dropout mask and output (5·a·s²·b bytes per layer) are stored');
  else notes?.push("Selective recompute: attention scores recomputed in backward (Megatron's core_attn)");
  notes?.push(
    spOn
      ? `Sequence parallelism: all activations divided by TP = ${t}`
      : t > 1
        ? `No sequence parallelism: norm, dropout and block-input activations (10·s·b·h per layer) replicated on all ${t} TP ranks, the rest divided by TP`
        : 'TP = 1: activations not split',
  );
  notes?.push('Activation formula of Korthikanti et al. (Megatron’s estimator): GQA’s smaller K/V and SwiGLU’s extra gate tensor are not modelled');
  if (r.E > 0) notes?.push(`MoE: each token's ${r.topK} routed copies keep their expert's input and intermediates${inp.ep > 1 ? ` (× ${MOE_IMBALANCE.value} on the most loaded EP rank)` : ''}; the dispatcher's communication buffers are not counted`);
  if (cp > 1) notes?.push(`Context parallelism: activations divided by CP = ${cp} (each rank holds 1/CP of the sequence); Megatron’s own estimator does not divide by CP`);
  if (inp.precision === 'fp32') notes?.push('fp32 training: activations counted at 4 bytes (twice the 16-bit figures)');
  if (inp.precision === 'fp8') notes?.push('fp8: activations counted as 16-bit (Transformer Engine may keep some GEMM inputs in fp8, so this is an upper bound)');

  const precisionFactor = inp.precision === 'fp32' ? 2 : 1;
  const bytes = ((stack + output + workspace) * precisionFactor) / cp;
  return { bytes, perLayer: perLayerStored * precisionFactor, factor };
}

// ---------------------------------------------------------------------------------------------

/**
 * The per-GPU memory of a training layout. With `explain` false the assumptions are left empty: the
 * planner weighs tens of thousands of layouts and words only the ones it shows.
 */
export function estimateMemory(input: MemoryInput, explain = true): MemoryEstimate {
  const model = input.model;
  const r = resolve(model);
  const t = layerTerms(r);
  const tp = Math.max(1, input.tp);
  const pp = Math.max(1, input.pp);
  const ep = Math.max(1, input.ep);
  const etp = Math.max(1, input.etp);
  const assumptions: string[] = [];

  const stage = input.firstStageLayers !== undefined && pp > 1 ? (input.firstStageLayers * pp) / r.L : 1;
  const shard = paramsOnMostLoadedShard(r, t, tp, pp, etp, ep, stage);
  const dense = shard.tpSharded + shard.replicated;
  const expert = shard.expert;
  const hasExperts = r.nMoe > 0;

  // Sharding groups: dense states over `group`; expert states over expert-DP (Megatron), or over the
  // smaller of the two when ZeRO/FSDP shards expert replicas.
  const s = input.sharding;
  const n = Math.max(1, s.group);
  let nExpert = n;
  if (hasExperts) {
    if (s.kind === 'distributed-optimizer') nExpert = Math.max(1, input.expertDp);
    else if (ep > 1) nExpert = Math.max(1, Math.min(n, input.expertDp));
  }
  const denseBytes = applyOffload(s, perParam(s, input.precision, n, input.gradBytes16));
  const expertBytes = applyOffload(s, perParam(s, input.precision, nExpert, input.gradBytes16));

  // Gathered 16-bit parameters: ZeRO-3 / FSDP full shard / any parameter offload.
  const gathers = (s.kind === 'zero' && s.stage === 3) || (s.kind === 'fsdp' && (s.fsdp ?? 'full') === 'full') || denseBytes.paramsOffloaded;
  const computeBytes = input.precision === 'fp32' ? 4 : 2;
  const gathered = gathers ? 2 * shard.maxLayer * computeBytes : 0;

  const own = input.states;
  const weights = own ? own.weights + gathered : dense * denseBytes.bytes.weights + expert * expertBytes.bytes.weights + gathered;
  const frozen = own ? undefined : input.frozen;
  const gradients = own ? own.gradients : frozen ? 0 : dense * denseBytes.bytes.gradients + expert * expertBytes.bytes.gradients;
  const optimizer = own ? own.optimizer : frozen ? 0 : dense * denseBytes.bytes.optimizer + expert * expertBytes.bytes.optimizer;

  if (explain) {
    // Assumptions: parameters.
    if (!r.V) assumptions.push(NO_VOCAB);
    assumptions.push(
      `Most loaded GPU: first pipeline stage with ${pp > 1 ? `1/${pp} of the ${r.L} layers` : `all ${r.L} layers`} and the input embedding${r.untied && pp === 1 ? ' and output layer' : ''}${tp > 1 ? `, dense weights split over TP = ${tp}` : ''}${hasExperts ? `, experts over EP×ETP = ${ep * etp}` : ''} (norms and router replicated; uneven pipeline splits not modelled)`,
    );
    assumptions.push('Parameters as Megatron counts them: attention, MLP, norm and router weights; linear-layer biases and learned position embeddings are not counted');
    assumptions.push(...(own ? own.assumptions : frozen ? [frozen.note] : shardingAssumptions(s, input.precision, n, nExpert, hasExperts, input.cp, input.dp)));
    if (input.precision === 'fp8') assumptions.push('fp8: weights held in 16-bit as Transformer Engine does by default (fp8 copies and transposes for GEMMs not counted)');
    if (input.precision === 'fp16') assumptions.push('fp16 counted like bf16 (loss-scaler state negligible)');
    if (gathers) assumptions.push(`Gathered parameters: a ${computeBytes * 8}-bit copy of two layers (the one computing and the prefetched one) counted in weights; larger prefetch/live-parameter limits keep more`);
    assumptions.push(own ? 'AdamW on the adapters; framework buffers, CUDA context, NCCL and allocator fragmentation are not counted' : 'Adam(W) optimizer; framework buffers, CUDA context, NCCL and allocator fragmentation are not counted');
  }
  const act = frozen?.forwardOnly ? { bytes: 0, perLayer: 0, factor: 0 } : activationBytes(input, r, explain ? assumptions : undefined);

  const total = weights + gradients + optimizer + act.bytes;
  return {
    bytes: { weights, gradients, optimizer, activations: act.bytes, total },
    paramsOnGpu: dense + expert,
    totalParams: countParameters(model).total,
    assumptions,
    detail: {
      denseParamsOnGpu: dense,
      expertParamsOnGpu: expert,
      bytesPerParam: { dense: denseBytes.bytes, expert: expertBytes.bytes },
      gatheredParamBytes: gathered,
      activationPerLayer: act.perLayer,
      pipelineFactor: act.factor,
    },
  };
}

/**
 * What Megatron-LM itself logs as "Theoretical memory footprints" (`report_theoretical_memory`):
 * its weight+optimizer formula (bf16, 18 or 6 + 12/DP bytes per parameter), and its activation
 * formula, which is the SP one only with sequence parallelism and `--recompute-granularity
 * selective`; every other run (including TP = 1, where Megatron turns SP off) gets the
 * without-SP formula: s·b·h·(10 + 24/TP) per layer (FFN = 4h assumed), 16-bit logits, × 1.05.
 * Use it to explain the number in a Megatron log; `estimateMemory` is the coherent estimate.
 */
export function megatronReportedMemory(input: MemoryInput): { weightAndOptimizer: number; activations: number; total: number; activationFormula: 'sp-selective' | 'without-sp' } {
  const r = resolve(input.model);
  const t = layerTerms(r);
  const tp = Math.max(1, input.tp);
  const pp = Math.max(1, input.pp);
  const shard = paramsOnMostLoadedShard(r, t, tp, pp, Math.max(1, input.etp), Math.max(1, input.ep));
  const distOpt = input.sharding.kind === 'distributed-optimizer';
  const bpp = (n: number) => (distOpt ? 6 + 12 / Math.max(1, n) : 18);
  const weightAndOptimizer = (shard.tpSharded + shard.replicated) * bpp(input.dp) + shard.expert * bpp(input.expertDp);

  const s = input.seqLength;
  const b = input.microBatch;
  const sbh = s * b * r.h;
  const V = r.V ?? 0;
  const vpp = input.vpp && input.vpp > 1 ? input.vpp : undefined;
  const schedule = (x: number) => {
    if (vpp && pp > 1) return x * (1 + (pp - 1) / (pp * vpp));
    if (pp > 1 && input.numMicroBatches !== undefined) return x * Math.min(1, input.numMicroBatches / pp);
    return x;
  };
  const spSelective = input.sp && tp > 1 && input.recompute === 'selective';
  let activations: number;
  if (spSelective) {
    let x = sbh * (18 + (4 * r.f) / r.h) * r.L + 8 * s * b * pp + sbh * pp;
    x = schedule(x);
    if (pp === 1) x += sbh * 4 * (1 + V / r.h);
    activations = x / tp;
  } else {
    let x = sbh * (10 + 24 / tp) * r.L + 8 * s * b * pp + sbh * pp;
    x = schedule(x);
    if (pp === 1) x += ((s * b * V) / tp + sbh) * 2;
    activations = x * 1.05;
  }
  return { weightAndOptimizer, activations, total: weightAndOptimizer + activations, activationFormula: spSelective ? 'sp-selective' : 'without-sp' };
}

/**
 * Training (forward + backward) model FLOPs per token, as Megatron's `num_floating_point_operations`
 * divided by the tokens in the batch (full causal sequences of `seqLength`, no packing): 3 passes × 2
 * FLOPs per multiply-add over every GEMM, attention scores at half the s×s matrix (causal), and the
 * logits. Router GEMMs are not counted (as in Megatron). Without `vocab` the logits term is missing.
 */
export function flopsPerToken(model: ModelShape, seqLength: number): number {
  const r = resolve(model);
  const { h, a, L } = r;
  const fexp = r.swiglu ? 3 : 2;
  const mlp = 6 * h * (r.f * fexp * r.nDense + (r.moeF * r.topK * fexp + r.sharedF * fexp) * r.nMoe);
  let attnLinear: number;
  if (r.mla) {
    const x = r.mla;
    const q = x.qLoraRank === undefined ? h * a * (x.qkHeadDim + x.qkPosEmbHeadDim) : x.qLoraRank * (h + a * (x.qkHeadDim + x.qkPosEmbHeadDim) + 1);
    attnLinear = 6 * (q + x.kvLoraRank * (h + a * (x.qkHeadDim + x.vHeadDim) + 1) + h * x.qkPosEmbHeadDim + a * x.vHeadDim * h);
  } else {
    const q = r.kvc * a;
    const kv = r.kvc * r.g;
    attnLinear = 6 * (h * (q + 2 * kv) + q * h);
  }
  const logits = 6 * h * (r.V ?? 0);
  return mlp + L * attnLinear + L * seqLength * attentionCoreFlops(r) + logits;
}

/**
 * The attention-score FLOPs of one token of one layer per unit of sequence length, forward and
 * backward: QKᵀ and (softmax)·V over the causal half, 2 GEMMs × 2 FLOPs × 3 passes / 2.
 */
export function attentionCoreFlops(r: Resolved): number {
  if (r.mla) return 3 * r.a * (r.mla.qkHeadDim + r.mla.qkPosEmbHeadDim + r.mla.vHeadDim);
  return 6 * r.kvc * r.a;
}

/**
 * The MoE layers among `layers`: layer i is MoE when i ≥ firstDense and i % freq == 0. Counted
 * without a loop, so a hostile layer count costs nothing.
 */
export function moeLayerCount(layers: number, freq: number, firstDense: number): number {
  const f = Math.max(1, Math.round(freq));
  const from = Math.ceil(Math.max(0, firstDense) / f) * f;
  return layers > from ? Math.floor((layers - 1 - from) / f) + 1 : 0;
}
