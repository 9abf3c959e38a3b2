/**
 * Well-known model shapes, for configs that do not describe the model (an Accelerate or DeepSpeed
 * file names a launcher, not a network). Each shape is taken from the model's published
 * `config.json` (Hugging Face field names in `source`) or paper; `vocab` is the embedding's row
 * count as published (Megatron pads it further to a multiple of 128 × TP).
 */
import type { ModelShape } from './memory';

export interface ModelPreset {
  id: string;
  title: string;
  shape: ModelShape;
  /** Where the numbers come from. */
  source: string;
}

export const MODEL_PRESETS: readonly ModelPreset[] = [
  {
    id: 'llama-3-8b',
    title: 'Llama 3 8B (also 3.1 8B)',
    shape: { hfModelType: 'llama', layers: 32, hidden: 4096, heads: 32, queryGroups: 8, ffn: 14336, swiglu: true, vocab: 128256, untiedEmbeddings: true, norm: 'rmsnorm' },
    source:
      'meta-llama/Meta-Llama-3-8B config.json: num_hidden_layers 32, hidden_size 4096, num_attention_heads 32, num_key_value_heads 8, intermediate_size 14336, vocab_size 128256, tie_word_embeddings false, RMSNorm, SiLU-gated MLP; Llama 3 paper (The Llama 3 Herd of Models, 2024) Table 3',
  },
  {
    id: 'llama-3-70b',
    title: 'Llama 3 70B (also 3.1 / 3.3 70B)',
    shape: { hfModelType: 'llama', layers: 80, hidden: 8192, heads: 64, queryGroups: 8, ffn: 28672, swiglu: true, vocab: 128256, untiedEmbeddings: true, norm: 'rmsnorm' },
    source:
      'meta-llama/Meta-Llama-3-70B config.json: num_hidden_layers 80, hidden_size 8192, num_attention_heads 64, num_key_value_heads 8, intermediate_size 28672, vocab_size 128256, tie_word_embeddings false; same shape in NeMo-Framework-Launcher conf/training/llama/llama3_70b.yaml',
  },
  {
    id: 'llama-3.1-405b',
    title: 'Llama 3.1 405B',
    shape: { hfModelType: 'llama', layers: 126, hidden: 16384, heads: 128, queryGroups: 8, ffn: 53248, swiglu: true, vocab: 128256, untiedEmbeddings: true, norm: 'rmsnorm' },
    source:
      'Llama 3 paper Table 3 (126 layers, model dim 16384, FFN 53248, 128 heads, 8 key/value heads, vocab 128K) and meta-llama/Llama-3.1-405B config.json (vocab_size 128256, untied). NeMo-Framework-Launcher llama3_1_405b.yaml sets num_query_groups 16 (the KV heads duplicated for a 16-way checkpoint layout); with 8 groups the count is 405.8B, matching the published size',
  },
  {
    id: 'llama-3.2-1b',
    title: 'Llama 3.2 1B',
    shape: { hfModelType: 'llama', layers: 16, hidden: 2048, heads: 32, queryGroups: 8, kvChannels: 64, ffn: 8192, swiglu: true, vocab: 128256, untiedEmbeddings: false, norm: 'rmsnorm' },
    source:
      'meta-llama/Llama-3.2-1B config.json: num_hidden_layers 16, hidden_size 2048, num_attention_heads 32, num_key_value_heads 8, head_dim 64, intermediate_size 8192, vocab_size 128256, tie_word_embeddings true',
  },
  {
    id: 'llama-3.2-3b',
    title: 'Llama 3.2 3B',
    shape: { hfModelType: 'llama', layers: 28, hidden: 3072, heads: 24, queryGroups: 8, kvChannels: 128, ffn: 8192, swiglu: true, vocab: 128256, untiedEmbeddings: false, norm: 'rmsnorm' },
    source:
      'meta-llama/Llama-3.2-3B config.json: num_hidden_layers 28, hidden_size 3072, num_attention_heads 24, num_key_value_heads 8, head_dim 128, intermediate_size 8192, vocab_size 128256, tie_word_embeddings true',
  },
  {
    id: 'mixtral-8x7b',
    title: 'Mixtral 8x7B',
    shape: { hfModelType: 'mixtral', layers: 32, hidden: 4096, heads: 32, queryGroups: 8, ffn: 14336, swiglu: true, vocab: 32000, untiedEmbeddings: true, experts: 8, topK: 2, norm: 'rmsnorm' },
    source:
      'mistralai/Mixtral-8x7B-v0.1 config.json: num_hidden_layers 32, hidden_size 4096, num_attention_heads 32, num_key_value_heads 8, intermediate_size 14336 (per expert), num_local_experts 8, num_experts_per_tok 2, vocab_size 32000, tie_word_embeddings false; Mixtral paper (Jiang et al. 2024): 47B total / 13B active',
  },
  {
    id: 'mixtral-8x22b',
    title: 'Mixtral 8x22B',
    shape: { hfModelType: 'mixtral', layers: 56, hidden: 6144, heads: 48, queryGroups: 8, ffn: 16384, swiglu: true, vocab: 32768, untiedEmbeddings: true, experts: 8, topK: 2, norm: 'rmsnorm' },
    source:
      'mistralai/Mixtral-8x22B-Instruct-v0.1 config.json: num_hidden_layers 56, hidden_size 6144, num_attention_heads 48, num_key_value_heads 8, intermediate_size 16384, num_local_experts 8, num_experts_per_tok 2, vocab_size 32768 (the v0.1 base checkpoint has 32000); Mistral announcement: 141B total / 39B active',
  },
  {
    id: 'qwen2.5-7b',
    title: 'Qwen2.5 7B',
    shape: { hfModelType: 'qwen2', layers: 28, hidden: 3584, heads: 28, queryGroups: 4, ffn: 18944, swiglu: true, vocab: 152064, untiedEmbeddings: true, norm: 'rmsnorm' },
    source:
      'Qwen/Qwen2.5-7B config.json: num_hidden_layers 28, hidden_size 3584, num_attention_heads 28, num_key_value_heads 4, intermediate_size 18944, vocab_size 152064, tie_word_embeddings false (QKV biases, ~0.1M parameters, not counted); Qwen2.5 report: 7.61B',
  },
  {
    id: 'qwen2.5-72b',
    title: 'Qwen2.5 72B',
    shape: { hfModelType: 'qwen2', layers: 80, hidden: 8192, heads: 64, queryGroups: 8, ffn: 29568, swiglu: true, vocab: 152064, untiedEmbeddings: true, norm: 'rmsnorm' },
    source:
      'Qwen/Qwen2.5-72B config.json: num_hidden_layers 80, hidden_size 8192, num_attention_heads 64, num_key_value_heads 8, intermediate_size 29568, vocab_size 152064, tie_word_embeddings false; Qwen2.5 report: 72.7B',
  },
  {
    id: 'gpt3-175b',
    title: 'GPT-3 175B',
    shape: { layers: 96, hidden: 12288, heads: 96, ffn: 49152, vocab: 50257, untiedEmbeddings: false, norm: 'layernorm' },
    source:
      'Brown et al. 2020 (Language Models are Few-Shot Learners) Table 2.1: 96 layers, d_model 12288, 96 heads of 128, context 2048, GPT-2 BPE vocabulary of 50257, FFN 4·d_model; same shape in NeMo-Framework-Launcher conf/training/gpt3/175b.yaml (tied embeddings, Megatron pads the vocab to 51200 at TP 8). Learned position embeddings (25M) not counted',
  },
  {
    id: 'deepseek-v3',
    title: 'DeepSeek-V3 (671B, MoE + MLA)',
    shape: {
      hfModelType: 'deepseek_v3',
      layers: 61,
      hidden: 7168,
      heads: 128,
      ffn: 18432,
      swiglu: true,
      vocab: 129280,
      untiedEmbeddings: true,
      experts: 256,
      moeFfn: 2048,
      topK: 8,
      sharedExpertFfn: 2048,
      firstDenseLayers: 3,
      norm: 'rmsnorm',
      mla: { qLoraRank: 1536, kvLoraRank: 512, qkHeadDim: 128, qkPosEmbHeadDim: 64, vHeadDim: 128 },
    },
    source:
      'deepseek-ai/DeepSeek-V3 config.json / inference/configs/config_671B.json: 61 layers, hidden 7168, 128 heads, first_k_dense_replace 3 (dense FFN 18432), 256 routed experts of 2048 + 1 shared expert, 8 routed per token, q_lora_rank 1536, kv_lora_rank 512, qk_nope_head_dim 128, qk_rope_head_dim 64, v_head_dim 128, vocab 129280, untied. Counted with Megatron’s MLA formula: 671B total / 37.5B active; the multi-token-prediction module (≈14B, 685B with it) and the routers’ score-correction biases are not counted',
  },
];

export function modelPreset(id: string): ModelPreset | undefined {
  const key = id.trim().toLowerCase();
  return MODEL_PRESETS.find((p) => p.id === key);
}

/** The model shape a Hugging Face `config.json` describes, with what was assumed; or what it lacks. */
export function modelFromHfConfig(config: unknown): { shape: ModelShape; notes: string[] } | { problem: string } {
  if (!config || typeof config !== 'object' || Array.isArray(config)) return { problem: 'not a JSON object' };
  const c = config as Record<string, unknown>;
  const int = (...keys: string[]): number | undefined => {
    for (const k of keys) {
      const v = c[k];
      if (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) return v;
    }
    return undefined;
  };
  const layers = int('num_hidden_layers', 'n_layer', 'num_layers');
  const hidden = int('hidden_size', 'n_embd', 'd_model');
  const heads = int('num_attention_heads', 'n_head');
  if (!layers || !hidden || !heads) return { problem: 'it does not give the layers, hidden size and attention heads (num_hidden_layers, hidden_size, num_attention_heads) of a Hugging Face config.json' };
  const notes: string[] = [];
  const type = typeof c.model_type === 'string' ? c.model_type : '';
  const act = typeof c.hidden_act === 'string' ? c.hidden_act : typeof c.hidden_activation === 'string' ? c.hidden_activation : '';
  // Llama-style MLPs gate with SiLU; Gemma gates with GELU; GPT-2-style MLPs are not gated.
  const swiglu = /^(silu|swish|swiglu)$/.test(act) || /^gemma/.test(type);
  let untied: boolean;
  if (typeof c.tie_word_embeddings === 'boolean') untied = !c.tie_word_embeddings;
  else {
    untied = false;
    notes.push('tie_word_embeddings not given: tied, the transformers default');
  }
  const shape: ModelShape = {
    layers,
    hidden,
    heads,
    swiglu,
    untiedEmbeddings: untied,
    norm: 'rms_norm_eps' in c ? 'rmsnorm' : 'layernorm',
  };
  if (type) shape.hfModelType = type;
  const kv = int('num_key_value_heads');
  if (kv && kv !== heads) shape.queryGroups = kv;
  const headDim = int('head_dim');
  if (headDim && headDim !== Math.floor(hidden / heads)) shape.kvChannels = headDim;
  const ffn = int('intermediate_size', 'n_inner', 'ffn_dim');
  if (ffn) shape.ffn = ffn;
  else notes.push(`intermediate_size not given: ${swiglu ? 'Megatron’s SwiGLU default' : '4 × hidden'}`);
  const vocab = int('vocab_size');
  if (vocab) shape.vocab = vocab;
  else notes.push('vocab_size not given: the embedding, the output layer and the logits are not counted');
  const experts = int('num_local_experts', 'n_routed_experts', 'num_experts');
  if (experts && experts > 1) {
    shape.experts = experts;
    shape.topK = int('num_experts_per_tok', 'moe_topk') ?? 2;
    const moeFfn = int('moe_intermediate_size');
    if (moeFfn) shape.moeFfn = moeFfn;
    const shared = int('shared_expert_intermediate_size') ?? (int('n_shared_experts') && moeFfn ? int('n_shared_experts')! * moeFfn : undefined);
    if (shared) shape.sharedExpertFfn = shared;
    const dense = int('first_k_dense_replace');
    if (dense) shape.firstDenseLayers = dense;
    const freq = int('moe_layer_freq', 'decoder_sparse_step');
    if (freq && freq > 1) shape.moeLayerFreq = freq;
  }
  const kvRank = int('kv_lora_rank');
  const nope = int('qk_nope_head_dim');
  const rope = int('qk_rope_head_dim');
  const vHead = int('v_head_dim');
  if (kvRank && nope && rope && vHead) shape.mla = { qLoraRank: int('q_lora_rank'), kvLoraRank: kvRank, qkHeadDim: nope, qkPosEmbHeadDim: rope, vHeadDim: vHead };
  return { shape, notes };
}
