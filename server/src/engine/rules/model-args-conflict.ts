/**
 * model-args-conflict: model-shape arguments of Megatron-LM given twice under two names, two
 * attention kinds that exclude each other, a sequence length that context parallelism cannot
 * split or the position embeddings do not cover, heads that do not divide the hidden size, or an
 * fp16/fp32 option without the precision it needs: its argument checks (and, for the CP split, Megatron Bridge's config validation) stop at startup.
 */
import { argWritten, argAbsent, argGiven, argNum, argReal, argOff, argOn, argValue, argOnByDefault, argOr, MLM_FLAG_FORMATS, type MegatronModel, parallelSize, expertTpSize } from '../formats/megatron/model';
import { envLiteral, named, runChecks, type ArgCheck } from '../formats/megatron/checks';
import { defineRule, type RuleContext } from './rule';
import { YAML_CFG_LAUNCH_CHECKS, YAML_CFG_MODEL_CHECKS } from '../formats/megatron/yaml-cfg-checks';
import { ARCH_CHECKS, ARCH_WHY } from './tables/model-arch-checks';
import { determinismEnv } from './tables/determinism-env';
import { GTP_CHECKS } from '../formats/megatron/gtp';
import { INFERENCE_OPTIMIZED_CHECKS } from './tables/inference-optimized';

/** The sequence length and the CP size, when CP > 1 and the length is not a multiple of 2 × CP. */
function cpSplit(m: MegatronModel): { seq: number; cp: number } | undefined {
  const cp = argNum(m, 'context_parallel_size');
  const seq = argNum(m, 'seq_length');
  return cp !== undefined && cp > 1 && seq !== undefined && seq % (2 * cp) !== 0 ? { seq, cp } : undefined;
}

/** What to do about a length CP cannot split: the nearest multiples of 2 × CP. */
function cpSplitAdvice(seq: number, cp: number): string {
  const unit = 2 * cp;
  const below = Math.floor(seq / unit) * unit;
  const above = below + unit;
  return `Use a sequence length that is a multiple of ${unit} (${below > 0 ? `${below} or ${above}` : above}), or a CP size at which ${seq} is a multiple of 2 × CP.`;
}

const CP_SPLIT_WHY = (seq: number, cp: number) =>
  `\`--seq-length ${seq}\` with \`--context-parallel-size ${cp}\`: context parallelism cuts each sequence into 2 × CP = ${2 * cp} chunks (every rank takes two, one from each end, to balance causal attention), so the length must be a multiple of ${2 * cp}`;


/**
 * megatron/training/arguments.py (megatron/arguments.py before 0.7), validate_args: `--num-layers`
 * and `--encoder-num-layers`, `--seq-length` and `--encoder-seq-length` are two names of one setting
 * and one of each pair must be left out (every release from core_r0.4.0 to HEAD); multi-latent
 * attention excludes grouped-query attention from core_v0.16.0.
 */
const CHECKS: ArgCheck[] = [
  {
    when: (m) => (argGiven(m, 'seq_length') && argGiven(m, 'encoder_seq_length') ? 'encoder_seq_length' : undefined),
    formats: MLM_FLAG_FORMATS,
    message: () => '`--encoder-seq-length` beside `--seq-length`: for a GPT model they are two names of the same length, and Megatron-LM stops at startup when both are given (an assertion in its argument checks). Keep `--seq-length`.',
  },
  {
    when: (m) => (argGiven(m, 'num_layers') && argGiven(m, 'encoder_num_layers') ? 'encoder_num_layers' : undefined),
    formats: MLM_FLAG_FORMATS,
    message: () => '`--encoder-num-layers` beside `--num-layers`: Megatron-LM stops at startup ("cannot have both num-layers and encoder-num-layers specified"). Keep `--num-layers`.',
  },
  {
    when: (m) => (argOn(m, 'multi_latent_attention') && argOn(m, 'group_query_attention') ? 'group_query_attention' : undefined),
    formats: MLM_FLAG_FORMATS,
    message: () => '`--group-query-attention` with `--multi-latent-attention`: multi-latent attention compresses keys and values its own way, and Megatron-LM stops at startup ("Group query attention is mutually exclusive with multi latent attention"). Remove `--group-query-attention` and `--num-query-groups`.',
    since: '0.16.0',
  },
  {
    // training/arguments.py@core_v0.18.2:1528-1533 (a patch of 0.18; not in @core_v0.18.0) and
    // @core_v0.19.0:1642-1647 (not in yaml_arguments.py): Megatron Core's own config only warns about
    // the pair (model_parallel_config.py@core_v0.19.0).
    when: (m) => (argOn(m, 'cross_entropy_loss_fusion') && argValue(m, 'cross_entropy_fusion_impl') === 'te' ? 'cross_entropy_fusion_impl' : undefined),
    message: () => '`--cross-entropy-fusion-impl te` with `--cross-entropy-loss-fusion`: Transformer Engine\'s fused cross-entropy has stability issues, and Megatron-LM stops at startup ("Transformer Engine cross entropy loss fusion is disabled due to stability issues"). Use `--cross-entropy-fusion-impl native`, or drop `--cross-entropy-loss-fusion`.',
    formats: MLM_FLAG_FORMATS,
    since: '0.18.2',
  },
  {
    // training/arguments.py@core_v0.7.0:520-522 to @core_v0.10.0:687-689: the TP-PP-DP rank order of
    // those releases (initialize.py@core_v0.10.0:313, order 'tp-pp-dp') has no CP or EP; from 0.11 the
    // order is tp-cp-ep-pp-dp and the check is gone.
    when: (m) => {
      if (!argOn(m, 'use_tp_pp_dp_mapping')) return undefined;
      const cp = parallelSize(m, 'context_parallel_size');
      const ep = parallelSize(m, 'expert_model_parallel_size');
      return cp !== undefined && ep !== undefined && cp * ep > 1 ? 'use_tp_pp_dp_mapping' : undefined;
    },
    message: (m) => `\`--use-tp-pp-dp-mapping\` with ${[parallelSize(m, 'context_parallel_size')! > 1 && `\`--context-parallel-size ${parallelSize(m, 'context_parallel_size')}\``, parallelSize(m, 'expert_model_parallel_size')! > 1 && `\`--expert-model-parallel-size ${parallelSize(m, 'expert_model_parallel_size')}\``].filter(Boolean).join(' and ')}: before Megatron Core 0.11 the TP-PP-DP rank order has no place for context or expert parallel groups, and Megatron-LM stops at startup ("context_parallel and expert_model_parallel can't be used with tp-pp-dp mapping."). Drop \`--use-tp-pp-dp-mapping\`, or use Megatron Core 0.11 or newer, whose order is TP-CP-EP-PP-DP.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.7.0',
    before: '0.11.0',
  },
  {
    // training/arguments.py@core_v0.10.0:252-257 (the same at d98e8a6:580-585): two-level CP needs its
    // level sizes, and sizes given must multiply to the CP size.
    when: (m) => ((cpCommTypes(m) ?? []).includes('a2a+p2p') && argAbsent(m, 'hierarchical_context_parallel_sizes') ? 'cp_comm_type' : undefined),
    message: () => '`--cp-comm-type a2a+p2p` without `--hierarchical-context-parallel-sizes`: two-level context parallelism (all-to-all inside a group, a ring across groups) needs the size of each level, and Megatron-LM stops at startup ("--hierarchical-context-parallel-sizes must be set when a2a+p2p is used in cp comm"). Add the two sizes (their product is the CP size), or use another `--cp-comm-type`.',
    formats: MLM_FLAG_FORMATS,
    since: '0.10.0',
  },
  {
    when: (m) => {
      const sizes = hierarchicalSizes(m);
      const cp = parallelSize(m, 'context_parallel_size');
      return sizes && cp !== undefined && sizes.reduce((a, b) => a * b, 1) !== cp ? 'hierarchical_context_parallel_sizes' : undefined;
    },
    message: (m) => `\`--hierarchical-context-parallel-sizes ${hierarchicalSizes(m)!.join(' ')}\` multiply to ${hierarchicalSizes(m)!.reduce((a, b) => a * b, 1)}, and the CP size is ${argAbsent(m, 'context_parallel_size') ? '1 (the default)' : argNum(m, 'context_parallel_size')}: each level splits the context-parallel group, so Megatron-LM stops at startup (it asserts that the CP size equals their product). Give sizes whose product is the CP size.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.10.0',
  },
  {
    // Megatron Bridge's ConfigContainer._validate_cp_comm_type, from Bridge 0.4 (training/config.py@v0.4.0, @067f987:1690-1697).
    when: (m) => {
      const sizes = argWritten(m, 'hierarchical_context_parallel_sizes') ? hierarchicalSizes(m) : undefined;
      const cp = argWritten(m, 'context_parallel_size') ? argNum(m, 'context_parallel_size') : undefined;
      return sizes && cp !== undefined && sizes.reduce((a, b) => a * b, 1) !== cp ? 'hierarchical_context_parallel_sizes' : undefined;
    },
    message: (m) => `\`model.hierarchical_context_parallel_sizes: [${hierarchicalSizes(m)!.join(', ')}]\` multiply to ${hierarchicalSizes(m)!.reduce((a, b) => a * b, 1)}, and \`model.context_parallel_size\` is ${argNum(m, 'context_parallel_size')}: each level splits the context-parallel group, so Megatron Bridge stops when it validates the config ("Product of hierarchical_context_parallel_sizes … must equal context_parallel_size"). Give sizes whose product is the CP size.`,
    formats: ['megatron-bridge'],
    since: '0.17.0',
  },
  {
    // Megatron Bridge's ConfigContainer._validate_cp_comm_type, from v0.4.0 (training/config.py@067f987:1671-1675):
    // with CP > 1, a list of communication types gives one per layer.
    when: (m) => {
      const types = argWritten(m, 'cp_comm_type') && Array.isArray(argValue(m, 'cp_comm_type')) ? cpCommTypes(m) : undefined;
      const cp = argWritten(m, 'context_parallel_size') ? argNum(m, 'context_parallel_size') : undefined;
      const layers = types && cp !== undefined && cp > 1 && argWritten(m, 'num_layers') ? argNum(m, 'num_layers') : undefined;
      return types && layers !== undefined && types.length !== layers ? 'cp_comm_type' : undefined;
    },
    message: (m) => `\`model.cp_comm_type\` lists ${cpCommTypes(m)!.length} communication types, and the model has ${argNum(m, 'num_layers')} layers: a list gives one type per layer, so Megatron Bridge stops when it validates the config ("Length of cp_comm_type (…) must equal num_layers (…)"). Give one type per layer, or a single type for all.`,
    formats: ['megatron-bridge'],
    since: '0.17.0',
  },
  {
    // training/arguments.py@core_v0.8.0:393-396 (the same at core_v0.19.0:1295-1298 and d98e8a6:1335-1338;
    // not in yaml_arguments.py). Before 0.8.0 nothing checks it at startup: get_batch_on_this_cp_rank
    // fails on the first batch instead (below).
    when: (m) => (cpSplit(m) ? 'seq_length' : undefined),
    message: (m) => {
      const { seq, cp } = cpSplit(m)!;
      return `${CP_SPLIT_WHY(seq, cp)}, and Megatron-LM stops at startup ("seq-length should be a multiple of 2 * context-parallel-size if context-parallel-size > 1"). ${cpSplitAdvice(seq, cp)}`;
    },
    formats: MLM_FLAG_FORMATS,
    since: '0.8.0',
  },
  {
    // Before 0.8.0 the training step cuts each batch into 2 × CP chunks with a view that fails on a
    // length they do not divide (megatron/utils.py@core_v0.4.0:234-246, training/utils.py@core_v0.7.0:235-250).
    when: (m) => (cpSplit(m) ? 'seq_length' : undefined),
    message: (m) => {
      const { seq, cp } = cpSplit(m)!;
      return `${CP_SPLIT_WHY(seq, cp)}, and before Megatron Core 0.8 Megatron-LM fails on the first training batch (a RuntimeError when it cuts the batch into ${2 * cp} chunks). ${cpSplitAdvice(seq, cp)}`;
    },
    formats: MLM_FLAG_FORMATS,
    before: '0.8.0',
  },
  {
    // training/arguments.py@core_v0.4.0:266-268 (megatron/arguments.py), the same at d98e8a6:1331-1333:
    // without `--kv-channels` the head size is the hidden size over the heads.
    when: (m) => {
      const h = argNum(m, 'hidden_size');
      const heads = argNum(m, 'num_attention_heads');
      return h !== undefined && heads !== undefined && heads > 0 && h % heads !== 0 && argAbsent(m, 'kv_channels') ? 'num_attention_heads' : undefined;
    },
    message: (m) => `\`--hidden-size ${argNum(m, 'hidden_size')}\` is not a multiple of \`--num-attention-heads ${argNum(m, 'num_attention_heads')}\`: without \`--kv-channels\` each head's size is the hidden size over the heads, and Megatron-LM stops at startup (an assertion that the hidden size divides by the heads). Use a head count that divides the hidden size, or give the head size with \`--kv-channels\`.`,
    formats: MLM_FLAG_FORMATS,
  },
  {
    // training/arguments.py@core_v0.4.0:276-280 (megatron/arguments.py), the same at d98e8a6:1353-1358.
    when: (m) => (shortPositions(m, 'seq_length') ? 'max_position_embeddings' : undefined),
    message: (m) => `\`--max-position-embeddings ${argNum(m, 'max_position_embeddings')}\` is below \`--seq-length ${argNum(m, 'seq_length')}\`: the model has no position for the tokens past it, and Megatron-LM stops at startup (its argument checks assert that the position count covers the sequence length). Raise \`--max-position-embeddings\` to at least ${argNum(m, 'seq_length')}, or shorten the sequence.`,
    formats: MLM_FLAG_FORMATS,
  },
  {
    when: (m) => (shortPositions(m, 'decoder_seq_length') ? 'max_position_embeddings' : undefined),
    message: (m) => `\`--max-position-embeddings ${argNum(m, 'max_position_embeddings')}\` is below \`--decoder-seq-length ${argNum(m, 'decoder_seq_length')}\`: Megatron-LM stops at startup (an assertion that the position count covers the decoder length). Raise \`--max-position-embeddings\` to at least ${argNum(m, 'decoder_seq_length')}, or shorten the decoder sequence.`,
    formats: MLM_FLAG_FORMATS,
  },
  {
    // training/arguments.py@core_v0.4.0:286-287 (megatron/arguments.py), the same at d98e8a6:1372-1373.
    when: (m) => (argOn(m, 'fp16_lm_cross_entropy') && argOff(m, 'fp16') ? 'fp16_lm_cross_entropy' : undefined),
    message: () => '`--fp16-lm-cross-entropy` without `--fp16`: the loss is computed in fp16 only when the model runs in fp16, and Megatron-LM stops at startup ("lm cross entropy in fp16 only support in fp16 mode."). Remove `--fp16-lm-cross-entropy`, or train with `--fp16`.',
    formats: MLM_FLAG_FORMATS,
  },
  {
    // training/arguments.py@core_v0.4.0:288-290 (megatron/arguments.py), the same at d98e8a6:1374-1376.
    when: (m) => (argOn(m, 'fp32_residual_connection') && argOff(m, 'fp16') && argOff(m, 'bf16') ? 'fp32_residual_connection' : undefined),
    message: () => '`--fp32-residual-connection` without `--fp16` or `--bf16`: an fp32 residual stream only means something beside a half-precision model, and Megatron-LM stops at startup ("residual connection in fp32 only supported when using fp16 or bf16."). Remove the flag, or train with `--bf16`.',
    formats: MLM_FLAG_FORMATS,
  },
  {
    // Megatron Bridge's ConfigContainer.validate asserts it on the model config
    // (training/config.py@067f987:1574-1577).
    when: (m) => (cpSplit(m) ? 'seq_length' : undefined),
    message: (m) => {
      const { seq, cp } = cpSplit(m)!;
      return `${CP_SPLIT_WHY(seq, cp)}, and Megatron Bridge stops when it validates the config ("Sequence length must be divisible by 2 * context parallel size if context parallel is used."). ${cpSplitAdvice(seq, cp)}`;
    },
    formats: ['megatron-bridge'],
    since: '0.8.0',
  },
  // training/arguments.py@core_v0.12.0:961-967 (the same at d98e8a6:882-886): the multi-token
  // prediction layers take rotary or no position embeddings; the default is learned absolute ones.
  // The legacy `--use-rotary-position-embeddings` sets rotary embeddings before this check up to
  // core_v0.16.0 (@core_v0.16.0:990 before :1232), and only after it from core_v0.17.0 (@core_v0.17.0:729-734
  // before :1276; @d98e8a6:882-886 before :1626).
  {
    when: (m) => (mtpPositionRefused(m) && argOff(m, 'use_rotary_position_embeddings') ? mtpPositionAt(m) : undefined),
    message: (m) => mtpPositionMessage(m),
    formats: MLM_FLAG_FORMATS,
    since: '0.12.0',
    before: '0.17.0',
  },
  {
    when: (m) => (mtpPositionRefused(m) ? mtpPositionAt(m) : undefined),
    message: (m) => mtpPositionMessage(m),
    formats: MLM_FLAG_FORMATS,
    since: '0.17.0',
  },
  {
    // training/arguments.py@core_v0.12.0:963 and core_v0.13.0:1075; gone from core_v0.14.0.
    when: (m) => (mtpOn(m) && (argNum(m, 'context_parallel_size') ?? 1) > 1 ? 'mtp_num_layers' : undefined),
    message: () => '`--mtp-num-layers` with context parallelism: before Megatron Core 0.14 the multi-token prediction layers do not split the sequence, and Megatron-LM stops at startup ("Multi-Token Prediction (MTP) is not supported with Context Parallelism."). Use CP 1, or Megatron Core 0.14 or newer.',
    formats: MLM_FLAG_FORMATS,
    since: '0.12.0',
    before: '0.14.0',
  },
  {
    // training/arguments.py@core_v0.12.0:962 … core_v0.17.0; gone from core_v0.18.0.
    when: (m) => (mtpOn(m) && argOn(m, 'use_legacy_models') ? 'use_legacy_models' : undefined),
    message: () => '`--mtp-num-layers` with `--use-legacy-models`: multi-token prediction exists only in Megatron Core\'s model, and Megatron-LM stops at startup ("The legacy Megatron models does not support Multi-Token Prediction (MTP)."). Drop `--use-legacy-models`.',
    formats: MLM_FLAG_FORMATS,
    since: '0.12.0',
    before: '0.18.0',
  },
  {
    // training/arguments.py@core_v0.11.0 (d98e8a6:436-437): the local attention backend needs the
    // local layer spec; without `--spec` the check itself fails on the missing spec (a TypeError).
    when: (m) => {
      if (argValue(m, 'attention_backend') !== 'local') return undefined;
      if (argAbsent(m, 'spec')) return 'attention_backend';
      const spec = argValue(m, 'spec');
      const first = Array.isArray(spec) ? spec[0] : spec;
      return typeof first === 'string' && first !== 'local' ? 'attention_backend' : undefined;
    },
    message: () => '`--attention-backend local` without `--spec local`: Megatron Core\'s own attention is built only by the local layer spec, and Megatron-LM stops at startup ("--attention-backend local is only supported with --spec local"; without any `--spec`, the check fails on the missing spec). Add `--spec local`, or use another `--attention-backend`.',
    formats: MLM_FLAG_FORMATS,
    since: '0.11.0',
  },
  {
    // @d98e8a6:1416-1417 (after core_v0.19.0).
    when: (m) => {
      if (!argOn(m, 'mtp_hsm')) return undefined;
      const n = argNum(m, 'mtp_num_layers');
      return argAbsent(m, 'mtp_num_layers') || (n !== undefined && n < 2) ? 'mtp_hsm' : undefined;
    },
    since: '0.20.0',
    message: (m) => `${named(m, '--mtp-hsm')} with ${argAbsent(m, 'mtp_num_layers') ? 'no multi-token prediction layers' : `${argNum(m, 'mtp_num_layers')} multi-token prediction layer${argNum(m, 'mtp_num_layers') === 1 ? '' : 's'}`}: Megatron Core stops when it builds the model config ("mtp_hsm=True requires mtp_num_layers >= 2."). Set ${named(m, '--mtp-num-layers')} to 2 or more, or drop ${named(m, '--mtp-hsm')}.`,
  },
  {
    // training/arguments.py@core_v0.8.0:556-557 to @core_v0.18.2:1536-1537 (gone at core_v0.19.0).
    when: (m) => (argOn(m, 'deterministic_mode') && argOn(m, 'use_flash_attn') ? 'use_flash_attn' : undefined),
    message: () => '`--use-flash-attn` with `--deterministic-mode`: flash attention\'s backward pass is not deterministic, and Megatron-LM stops at startup ("Flash attention can not be used in deterministic mode."). Drop `--use-flash-attn`, or the deterministic mode.',
    formats: MLM_FLAG_FORMATS,
    since: '0.8.0',
    before: '0.19.0',
  },];

/** The position count and a sequence length, when both are known and the count is the smaller. */
function shortPositions(m: MegatronModel, dest: 'seq_length' | 'decoder_seq_length'): boolean {
  const pos = argNum(m, 'max_position_embeddings');
  const len = argNum(m, dest);
  return pos !== undefined && len !== undefined && pos < len;
}

/** Multi-token prediction with a position embedding type (written, or the default) other than rotary or none. */
function mtpPositionRefused(m: MegatronModel): boolean {
  const type = positionEmbedding(m);
  return mtpOn(m) && type !== undefined && !['rope', 'none'].includes(String(type));
}

function mtpPositionAt(m: MegatronModel): string {
  return argAbsent(m, 'position_embedding_type') ? 'mtp_num_layers' : 'position_embedding_type';
}

function mtpPositionMessage(m: MegatronModel): string {
  const what = argAbsent(m, 'position_embedding_type') ? 'the default position embeddings (`learned_absolute`)' : `\`--position-embedding-type ${positionEmbedding(m)}\``;
  const legacy = argOn(m, 'use_rotary_position_embeddings') ? ' (`--use-rotary-position-embeddings` turns rotary embeddings on only after this check, from Megatron Core 0.17)' : '';
  return `\`--mtp-num-layers\` with ${what}${legacy}: the multi-token prediction layers support only rotary or no position embeddings, and Megatron-LM stops at startup ("Multi-Token Prediction (MTP) is not supported with ${positionEmbedding(m)} position embedding type."). Use \`--position-embedding-type rope\` (or \`none\`), or drop \`--mtp-num-layers\`.`;
}

/** Multi-token prediction is on: `--mtp-num-layers` above 0. */
function mtpOn(m: MegatronModel): boolean {
  return (argNum(m, 'mtp_num_layers') ?? 0) > 0;
}

/** The position embedding type: as written, or the default `learned_absolute` where left out. */
function positionEmbedding(m: MegatronModel): unknown {
  return argAbsent(m, 'position_embedding_type') ? 'learned_absolute' : argValue(m, 'position_embedding_type');
}

/** The `--cp-comm-type` words as written (one, or one per layer), when known. */
function cpCommTypes(m: MegatronModel): string[] | undefined {
  const v = argValue(m, 'cp_comm_type');
  if (typeof v === 'string') return [v];
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined;
}

/** The written level sizes of two-level CP, when every one is a known number. */
function hierarchicalSizes(m: MegatronModel): number[] | undefined {
  const v = argValue(m, 'hierarchical_context_parallel_sizes');
  const items = Array.isArray(v) ? v : v === undefined || v === null ? undefined : [v];
  const nums = items?.map((x) => (typeof x === 'number' ? x : typeof x === 'string' && /^\d+$/.test(x) ? Number(x) : NaN));
  return nums && nums.length > 0 && nums.every((n) => Number.isInteger(n) && n > 0) ? nums : undefined;
}

/** A switch known to be on: written on, or left out where its default (on) applies. */

/**
 * Megatron-LM's fused bias-activation as its config builder sets it (core_transformer_config_from_args):
 * `--no-bias-swiglu-fusion` decides for SwiGLU, `--no-bias-gelu-fusion` otherwise, and the argument
 * checks turn the GELU fusion off with `--disable-bias-linear`. Squared ReLU is left out (Megatron Core
 * refuses the fusion for it with another message).
 */
function biasActivationFusion(m: MegatronModel): boolean {
  if (!argOff(m, 'squared_relu')) return false;
  if (argOn(m, 'swiglu')) return argOnByDefault(m, 'bias_swiglu_fusion');
  return argOff(m, 'swiglu') && argOnByDefault(m, 'bias_gelu_fusion') && argOnByDefault(m, 'add_bias_linear');
}

function normalization(m: MegatronModel): unknown {
  const v = argValue(m, 'normalization');
  return v !== undefined && v !== null ? v : argAbsent(m, 'normalization') ? 'LayerNorm' : undefined;
}

/**
 * Gated delta net (`--experimental-attention-variant gated_delta_net`; from 0.20 also `gdn`, of which
 * it is an alias, and `gdn2`) and its head counts (defaults 16 key, 32 value heads).
 */
const gdn = (m: MegatronModel) => ['gated_delta_net', 'gdn', 'gdn2'].includes(String(argValue(m, 'experimental_attention_variant')));
const gdnHeads = (m: MegatronModel, dest: string, dflt: number): number | undefined => {
  const v = argOr(m, dest, dflt);
  return typeof v === 'number' ? v : undefined;
};
const mpSize = (m: MegatronModel, dest: string): number | undefined => {
  const v = argOr(m, dest, 1);
  return typeof v === 'number' ? v : undefined;
};

/**
 * Gated delta net's head counts when Megatron Core builds the model config
 * (transformer_config.py@core_v0.16.0:968-985, @core_v0.18.0:1236-1252): value heads a multiple of
 * key heads, both a multiple of TP (0.16, 0.17) or of TP × CP (from 0.18), and no CP before 0.18.
 */
function gdnChecks(): ArgCheck[] {
  const heads = (m: MegatronModel) => ({ k: gdnHeads(m, 'linear_num_key_heads', 16), v: gdnHeads(m, 'linear_num_value_heads', 32) });
  const split = (m: MegatronModel, withCp: boolean): number | undefined => {
    const tp = mpSize(m, 'tensor_model_parallel_size');
    const cp = withCp ? mpSize(m, 'context_parallel_size') : 1;
    return tp !== undefined && cp !== undefined ? tp * cp : undefined;
  };
  const notMultiple = (m: MegatronModel, withCp: boolean): string | undefined => {
    const { k, v } = heads(m);
    const n = split(m, withCp);
    if (!gdn(m) || n === undefined || n <= 1) return undefined;
    if (k !== undefined && k % n !== 0) return 'linear_num_key_heads';
    return v !== undefined && v % n !== 0 ? 'linear_num_value_heads' : undefined;
  };
  const say = (withCp: boolean) => (m: MegatronModel) => {
    const { k, v } = heads(m);
    const which = k !== undefined && k % (split(m, withCp) ?? 1) !== 0 ? `${k} key heads` : `${v} value heads`;
    return `Gated delta net with ${which}, not a multiple of ${withCp ? 'TP × CP' : 'the TP size'} (${split(m, withCp)}): Megatron Core splits those heads over ${withCp ? 'the tensor- and context-parallel ranks' : 'the tensor-parallel ranks'} and stops when it builds the model config ("linear_num_key_heads … must be a multiple of …"). Change ${named(m, '--linear-num-key-heads')} / ${named(m, '--linear-num-value-heads')} or the parallel sizes.`;
  };
  return [
    {
      when: (m) => {
        const { k, v } = heads(m);
        return gdn(m) && k !== undefined && v !== undefined && k > 0 && v % k !== 0 ? 'linear_num_value_heads' : undefined;
      },
      since: '0.16.0',
      message: (m) => `Gated delta net with ${String(heads(m).v)} value heads, not a multiple of the ${String(heads(m).k)} key heads: Megatron Core stops when it builds the model config ("linear_num_value_heads … must be a multiple of linear_num_key_heads"). Make the value heads a multiple of the key heads.`,
    },
    { when: (m) => notMultiple(m, false), since: '0.16.0', before: '0.18.0', message: say(false) },
    { when: (m) => notMultiple(m, true), since: '0.18.0', message: say(true) },
    {
      when: (m) => (gdn(m) && (mpSize(m, 'context_parallel_size') ?? 1) > 1 ? 'context_parallel_size' : undefined),
      since: '0.16.0',
      before: '0.18.0',
      message: () => 'Gated delta net with context parallelism: Megatron Core 0.16 and 0.17 stop when they build the model config ("Gated delta net does not support context parallel for now"). Set the context-parallel size to 1, or use Megatron Core 0.18 or later.',
    },
  ];
}

const MODEL_CONFIG_CHECKS: ArgCheck[] = [
  ...gdnChecks(),
  {
    // transformer_config.py@core_v0.17.0:1735-1739, @d98e8a6:2530-2534.
    when: (m) => (argOn(m, 'use_mup') && typeof argValue(m, 'mup_base_hidden_size') === 'number' && (argNum(m, 'mup_base_hidden_size') ?? 1) <= 0 ? 'mup_base_hidden_size' : undefined),
    since: '0.17.0',
    message: (m) => `${named(m, '--mup-base-hidden-size', String(argNum(m, 'mup_base_hidden_size')))} with ${named(m, '--use-mup')}: the width multiplier divides by the base hidden size, and Megatron Core stops when it builds the model config ("--mup-base-hidden-size must be positive."). Give the hidden size of the base model, or leave it out (the model's own).`,
  },
  {
    // With fp16 and no fixed --loss-scale the optimizer builds a DynamicGradScaler, which asserts
    // hysteresis > 0 (optimizer/grad_scaler.py@core_v0.4.0:78, core/optimizer/grad_scaler.py@d98e8a6:124).
    when: (m) => (argOn(m, 'fp16') && !(argNum(m, 'loss_scale') ?? 0) && (argNum(m, 'hysteresis') ?? 2) <= 0 ? 'hysteresis' : undefined),
    formats: MLM_FLAG_FORMATS,
    message: (m) => `\`--hysteresis ${String(argNum(m, 'hysteresis'))}\` with fp16 and a dynamic loss scale: the loss scaler halves the scale once that many overflowing steps have come since it last raised it, and Megatron stops when it builds the optimizer (an assertion that it is above 0). Use 1 or more (the default is 2).`,
  },
  {
    // The same DynamicGradScaler asserts initial_scale > 0, min_scale > 0, min_scale <= initial_scale
    // and growth_interval (--loss-scale-window) > 0 (optimizer/grad_scaler.py@core_v0.4.0:15,63-64,74;
    // core/optimizer/grad_scaler.py@d98e8a6:19,109-110,120).
    when: (m) => {
      if (!argOn(m, 'fp16') || (argNum(m, 'loss_scale') ?? 0)) return undefined;
      const initial = argNum(m, 'initial_loss_scale') ?? 2 ** 32;
      const min = argNum(m, 'min_loss_scale') ?? 1;
      if (initial <= 0) return 'initial_loss_scale';
      if (min <= 0) return 'min_loss_scale';
      if (min > initial) return argAbsent(m, 'min_loss_scale') ? 'initial_loss_scale' : 'min_loss_scale';
      return (argNum(m, 'loss_scale_window') ?? 1000) <= 0 ? 'loss_scale_window' : undefined;
    },
    formats: MLM_FLAG_FORMATS,
    message: (m) => {
      const initial = argNum(m, 'initial_loss_scale') ?? 2 ** 32;
      const min = argNum(m, 'min_loss_scale') ?? 1;
      const what = initial <= 0 ? `\`--initial-loss-scale ${initial}\` is not above 0`
        : min <= 0 ? `\`--min-loss-scale ${min}\` is not above 0`
        : min > initial ? `the minimum loss scale (${min}) is above the initial one (${initial})`
        : `\`--loss-scale-window ${String(argNum(m, 'loss_scale_window'))}\` is not above 0`;
      return `With fp16 and a dynamic loss scale (no \`--loss-scale\`), ${what}: Megatron stops when it builds the optimizer's loss scaler (an assertion). Give a positive initial scale (default 2^32), a positive minimum no larger than it (default 1) and a positive window (default 1000), or a fixed \`--loss-scale\`.`;
    },
  },
  {
    // transformer_config.py@core_v0.17.0 on (@d98e8a6:2452-2456).
    when: (m) => {
      const n = normalization(m);
      return argOn(m, 'fused_residual_rmsnorm') && n !== undefined && n !== 'RMSNorm' ? 'fused_residual_rmsnorm' : undefined;
    },
    since: '0.17.0',
    message: (m) => `${named(m, '--fused-residual-rmsnorm')} with ${String(normalization(m))}${argAbsent(m, 'normalization') ? ' (the default normalization)' : ''}: the fused kernel is an RMSNorm, and Megatron Core stops when it builds the model config ("fused_residual_rmsnorm is only supported when normalization is RMSNorm."). Set ${named(m, '--normalization', 'RMSNorm')}, or drop the fusion.`,
  },
  {
    // transformer_config.py@core_v0.10.0 on (@d98e8a6:2526-2527).
    when: (m) => (argOn(m, 'multi_latent_attention') && argOn(m, 'rotary_interleaved') ? 'rotary_interleaved' : undefined),
    since: '0.10.0',
    message: (m) => `${named(m, '--rotary-interleaved')} with multi-latent attention: Megatron Core stops when it builds the model config ("rotary_interleaved does not work with multi_latent_attention."). Remove ${named(m, '--rotary-interleaved')}.`,
  },
  {
    // MLATransformerConfig.__post_init__, core_v0.16.0 on (@d98e8a6:3348-3349): NotImplementedError.
    when: (m) => (argOn(m, 'multi_latent_attention') && argOn(m, 'attention_output_gate') ? 'attention_output_gate' : undefined),
    since: '0.16.0',
    message: (m) => `${named(m, '--attention-output-gate')} with multi-latent attention: Megatron Core stops when it builds the model config ("Output gate is not supported for MLA yet."). Remove one of them.`,
  },
  {
    // transformer_config.py@core_v0.13.0:1238-1242 (@d98e8a6:3140-3144); a string holding a number is
    // turned into that number by Megatron-LM's argument type.
    when: (m) => {
      const f = argNum(m, 'no_rope_freq');
      const l = argNum(m, 'num_layers');
      return f !== undefined && f > 0 && l !== undefined && l % f !== 0 ? 'no_rope_freq' : undefined;
    },
    since: '0.13.0',
    message: (m) => `${named(m, '--no-rope-freq', String(argNum(m, 'no_rope_freq')))} with ${argNum(m, 'num_layers')} layers: the pattern (RoPE skipped on one layer in every ${argNum(m, 'no_rope_freq')}) must repeat a whole number of times, and Megatron Core stops when it builds the model config ("no_rope_freq=${argNum(m, 'no_rope_freq')} should be divisible by num_layers=${argNum(m, 'num_layers')}."). Use a value that divides the layer count, or a list pattern with one entry per layer.`,
  },
  {
    // Megatron-LM hands two or more `--cp-comm-type` words on as a per-layer list (training/arguments.py@core_v0.10.0:807-808),
    // which TransformerConfig checks against the layer count: always at core_v0.10.0:577-582 and 0.11,
    // only with CP > 1 from core_v0.12.0:1033-1038 (@d98e8a6:3103-3108).
    when: (m, _p, ctx) => {
      const types = cpCommTypes(m);
      // A hybrid pattern sets the layer count itself.
      const layers = types && types.length > 1 && argAbsent(m, 'hybrid_layer_pattern') && argAbsent(m, 'hybrid_override_pattern') ? argNum(m, 'num_layers') : undefined;
      if (!types || layers === undefined || types.length === layers) return undefined;
      if (!ctx.atLeast('0.12.0')) return 'cp_comm_type';
      const cp = parallelSize(m, 'context_parallel_size');
      return cp !== undefined && cp > 1 ? 'cp_comm_type' : undefined;
    },
    formats: MLM_FLAG_FORMATS,
    since: '0.10.0',
    message: (m) => `\`--cp-comm-type\` gives ${cpCommTypes(m)!.length} communication types, and the model has ${argNum(m, 'num_layers')} layers: more than one type is a list with one per layer, and Megatron Core stops when it builds the model config ("Length of cp_comm_type (…) should equal to the total number of transformer layers (…)!"). Give one type per layer, or a single type for all.`,
  },
  // Megatron-LM's config builder passes `--bias-gelu-fusion` (on unless `--no-bias-gelu-fusion`, and turned
  // off by `--disable-bias-linear`) as the fused bias-activation, then sets squared ReLU as the activation
  // (arguments.py@core_v0.5.0:462-467 … argument_utils.py@d98e8a6:318-322); TransformerConfig accepts
  // the fusion only for GELU and SiLU (and quick GELU from 0.15): transformer_config.py@core_v0.5.0 …
  // @d98e8a6:2420-2425; at 0.4 the field is `bias_gelu_fusion`, for GELU alone
  // (megatron/arguments.py@core_v0.4.0:450-454, transformer_config.py@core_v0.4.0:273-280).
  ...(
    [
      [undefined, '0.5.0', 'When bias_gelu_fusion is True, activation_func must be F.gelu.'],
      ['0.5.0', undefined, 'When bias_activation_fusion is True, activation function should be either gelu, …'],
    ] as const
  ).map(
    ([since, before, quote]): ArgCheck => ({
      when: (m) => (argOn(m, 'squared_relu') && argOff(m, 'swiglu') && argOnByDefault(m, 'bias_gelu_fusion') && argOnByDefault(m, 'add_bias_linear') ? 'squared_relu' : undefined),
      formats: MLM_FLAG_FORMATS,
      since,
      before,
      message: (m) => `${named(m, '--squared-relu')} with the fused bias-GELU (on by default while the linear layers have biases): the fused kernel is a GELU, and Megatron Core stops when it builds the model config ("${quote}"). Add ${named(m, '--no-bias-gelu-fusion')} (or ${named(m, '--disable-bias-linear')}).`,
    }),
  ),
  {
    // The config builder asserts it (arguments.py@core_v0.5.0:465 … argument_utils.py@d98e8a6:320-321).
    when: (m) => (argOn(m, 'squared_relu') && argOn(m, 'swiglu') ? 'squared_relu' : undefined),
    formats: MLM_FLAG_FORMATS,
    message: (m) => `${named(m, '--squared-relu')} with ${named(m, '--swiglu')}: both choose the MLP activation, and Megatron-LM stops when it builds the model config (an assertion in its config builder). Keep one.`,
  },
  {
    // transformer_config.py@core_v0.15.0 on (@d98e8a6:2446-2451).
    when: (m) => (argOn(m, 'use_te_activation_func') && biasActivationFusion(m) ? 'use_te_activation_func' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.15.0',
    message: (m) => `${named(m, '--use-te-activation-func')} with the fused bias-activation (on by default${argOn(m, 'swiglu') ? ' for SwiGLU' : ' while the linear layers have biases'}): Megatron Core stops when it builds the model config ("bias_activation_fusion and use_te_activation_func cannot be both true."). Add ${argOn(m, 'swiglu') ? named(m, '--no-bias-swiglu-fusion') : `${named(m, '--no-bias-gelu-fusion')} (or ${named(m, '--disable-bias-linear')})`}, or drop ${named(m, '--use-te-activation-func')}.`,
  },
  {
    // transformer_config.py@core_v0.15.0 on (@d98e8a6:2440-2444): only the quick-GELU fusion takes an offset.
    when: (m) => {
      const off = argValue(m, 'glu_linear_offset');
      const n = typeof off === 'number' ? off : typeof off === 'string' && /^-?[\d.]+(e-?\d+)?$/i.test(off) ? Number(off) : undefined;
      return n !== undefined && n !== 0 && argOff(m, 'quick_geglu') && biasActivationFusion(m) ? 'glu_linear_offset' : undefined;
    },
    formats: MLM_FLAG_FORMATS,
    since: '0.15.0',
    message: (m) => `${named(m, '--glu-linear-offset')} with the fused ${argOn(m, 'swiglu') ? 'SwiGLU' : 'GELU'} bias-activation (on by default): only the quick-GELU fusion applies the offset, and Megatron Core stops when it builds the model config ("When bias_activation_fusion is True and glu_linear_offset is non-zero, activation function must be quick_gelu."). Use ${named(m, '--quick-geglu')}, add ${argOn(m, 'swiglu') ? named(m, '--no-bias-swiglu-fusion') : named(m, '--no-bias-gelu-fusion')}, or drop the offset.`,
  },
];

export default defineRule<MegatronModel>({
  id: 'model-args-conflict',
  severity: 'error',
  formats: [...MLM_FLAG_FORMATS, 'megatron-bridge'],
  docs: {
    summary: 'Model arguments that Megatron-LM rejects together: a setting under both of its names (`--seq-length` and `--encoder-seq-length`, `--num-layers` and `--encoder-num-layers`), multi-latent with grouped-query attention, Transformer Engine\'s cross-entropy fusion, two-level context parallelism without matching level sizes, weight shards (`--tensor-parallel-num-weight-shards`, `--expert-tensor-parallel-num-weight-shards`) that are not a multiple of the (expert) TP size, the TP-PP-DP rank order with context or expert parallelism (0.7 to 0.10), a sequence length that is not a multiple of 2 × the context-parallel size, a hidden size the attention heads do not divide (without `--kv-channels`), fewer position embeddings than the sequence length, fp16 cross-entropy without `--fp16` or an fp32 residual without `--fp16`/`--bf16`, position embeddings or attention options without what they need (relative with the local implementation, mrope without sections, QK-clip bounds, the MLA down-projection fusion without MLA), hybrid context parallelism outside its limits or without `--max-seqlen-per-dp-cp-rank`, inference-optimized layers with LayerNorm, biases or Kitchen (or their switches without them), `--init-method-xavier-uniform` (a TypeError at every release), the distributed optimizer with expert parallelism (0.4), generalized tensor parallelism with settings it refuses (0.19 on), query-key layer scaling that disagrees with `NVTE_APPLY_QK_LAYER_SCALING` under Transformer Engine attention, multi-token prediction with position embeddings other than rotary or none (or, in older releases, with CP or the legacy model), the local attention backend without the local spec, multi-token prediction HSM with fewer than two MTP layers, flash attention in deterministic mode (0.8 to 0.18) or deterministic mode with a non-deterministic environment value the script exports (or, from 0.8 to 0.18, without the `NCCL_ALGO` and `NVTE_ALLOW_NONDETERMINISTIC_ALGO` those releases need), `--squared-relu` with the bias-GELU fusion or with `--swiglu`, or model settings Megatron Core refuses when it builds the model config (a fused residual RMSNorm without RMSNorm, interleaved rotary embeddings or an output gate with multi-latent attention, a `--no-rope-freq` that does not divide the layers, Transformer Engine\'s activation or a GLU offset beside the fused bias-activation), and attention, position-embedding and residual-stream settings that Megatron-LM or Megatron Core refuses (interleaved rotary embeddings beside the RoPE fusion before 0.14, a RoPE type other than `rope` without multi-latent attention, DeepSeek sparse attention without MLA, with linear biases or with bad indexer settings, gated delta net without its layer pattern, manifold hyper-connections beside MTP, pipeline parallelism, full recompute or an fp32 residual, a no-RoPE pattern with flash decoding or of the wrong length, the MLA latent cache in a training run, which MLA refuses at the first step).',
    why: 'Megatron-LM keeps the encoder spellings of the sequence length and the layer count as other names of the GPT settings, and its argument checks refuse a script that gives both names, at every release; from Megatron Core 0.16 they also refuse grouped-query attention beside multi-latent attention, from 0.18.2 `--cross-entropy-fusion-impl te` with `--cross-entropy-loss-fusion`, and from 0.10 `--cp-comm-type a2a+p2p` without `--hierarchical-context-parallel-sizes` or with sizes whose product is not the CP size; from 0.7 to 0.10 they refuse `--use-tp-pp-dp-mapping` with a context or expert parallel size above 1 (that rank order, TP-PP-DP, has no place for them before 0.11). From 0.19 Megatron-LM\'s argument checks and Megatron Core\'s parallel config (Bridge builds it too) refuse weight shards (`--tensor-parallel-num-weight-shards`, `--expert-tensor-parallel-num-weight-shards`) fewer than the TP or expert TP size or not a multiple of it. Transformer Engine attention reads query-key layer scaling only from `NVTE_APPLY_QK_LAYER_SCALING` and stops when the flag and the variable disagree; a script that does not export the variable may get it from the environment that runs it, so that case is a warning. From Megatron Core 0.8 they also refuse a `--seq-length` that is not a multiple of 2 × `--context-parallel-size` (context parallelism cuts each sequence into two chunks per rank; before 0.8 the first training batch fails on it); Megatron Bridge\'s config validation refuses the same in a Bridge override (`model.seq_length`, `model.context_parallel_size`), and from Bridge 0.4 (Megatron Core 0.17) also `model.hierarchical_context_parallel_sizes` whose product is not the CP size, or with CP > 1 a per-layer `model.cp_comm_type` list whose length is not the layer count; in a Megatron-LM script, more than one `--cp-comm-type` (a per-layer list) without one per layer stops Megatron Core when it builds the model config (from 0.10; from 0.12 only with CP above 1). Each stops the job at startup, before any GPU work. Megatron Core\'s TransformerConfig, which Megatron-LM and Megatron Bridge both build, refuses further settings when it builds the model config: a `--mup-base-hidden-size` not above zero with `--use-mup` (from 0.17); gated delta net (`--experimental-attention-variant gated_delta_net`, from 0.16) with value heads that are not a multiple of its key heads, with key or value heads that TP (from 0.18 TP × CP) does not divide, or with context parallelism before 0.18; `--fused-residual-rmsnorm` without `--normalization RMSNorm` (from 0.17), `--rotary-interleaved` with multi-latent attention (from 0.10), `--attention-output-gate` with it (from 0.16), and an integer `--no-rope-freq` that does not divide the layer count (from 0.13); in a Megatron-LM script also `--use-te-activation-func` or a non-zero `--glu-linear-offset` (unless `--quick-geglu`) beside the fused bias-activation, which is on by default (from 0.15; `--no-bias-swiglu-fusion`, `--no-bias-gelu-fusion` or `--disable-bias-linear` turn it off), and at every release `--squared-relu` beside the fused bias-GELU (a GELU kernel) or beside `--swiglu`. Megatron-LM\'s argument checks also, at every release, refuse a `--hidden-size` that is not a multiple of `--num-attention-heads` when `--kv-channels` does not give the head size, a `--max-position-embeddings` below `--seq-length` (or `--decoder-seq-length`), `--fp16-lm-cross-entropy` without `--fp16`, and `--fp32-residual-connection` without `--fp16` or `--bf16`. Later releases add more: from 0.11 relative position embeddings with `--transformer-impl local`, from 0.12 `--position-embedding-type mrope` without `--mrope-section`, from 0.16 a `--qk-clip-alpha` outside (0, 1) or a `--qk-clip-threshold` not above 0 with `--qk-clip`, and `--hybrid-context-parallel` with pipeline parallelism, CUDA graphs, Megatron FSDP, a dataloader other than `single` or without `--calculate-per-token-loss`, and Megatron-LM crashes on its first training step when `--max-seqlen-per-dp-cp-rank` is left out, from 0.17 `--mla-down-proj-fusion` without `--multi-latent-attention`; in 0.4 `--use-distributed-optimizer` with expert parallelism; from 0.19, with generalized tensor parallelism (`--tensor-parallel-num-weight-shards` or its expert counterpart above the TP size), `--fp4-format` without `--fp4-param-gather`, `--ddp-average-in-collective`, a checkpoint format other than `torch` or `torch_dist`, the memory-efficient fully reshardable save, and `--fp8-recipe mxfp8` without `--fp8-param-gather` and `--reuse-grad-buf-for-mxfp8-param-ag` (and from 0.20 `--disable-symmetric-registration` beside `--gtp-remat-nccl-ub` or `--gtp-expert-remat-nccl-ub`). From 0.12 they refuse `--mtp-num-layers` unless `--position-embedding-type` is `rope` or `none` (the default is `learned_absolute`; the old `--use-rotary-position-embeddings` counts before 0.17, where it is applied only after the check), and, before 0.14, with CP above 1 and, before 0.18, with `--use-legacy-models`; from 0.11 `--attention-backend local` needs `--spec local`. From Megatron Core 0.20 its transformer config also refuses `--mtp-hsm` without at least two `--mtp-num-layers` (in a Bridge override too). From 0.8 to 0.18 `--use-flash-attn` is refused with `--deterministic-mode`, and so are an `NCCL_ALGO` the script exports that is not, as a whole, Tree, Ring, CollnetDirect, CollnetChain or ^NVLS (a list is refused) and, under Transformer Engine attention, a non-zero `NVTE_ALLOW_NONDETERMINISTIC_ALGO` it exports; in those releases nothing fills the variables in, so a script that sets neither `NCCL_ALGO` nor (under Transformer Engine attention) `NVTE_ALLOW_NONDETERMINISTIC_ALGO=0` stops too unless the environment that runs it sets them: a warning that names that assumption. From 0.19 the deterministic mode checks the variables a script exports: each `NCCL_ALGO` token must be Ring, CollnetDirect, CollnetChain or ^NVLS, `NVTE_ALLOW_NONDETERMINISTIC_ALGO` must be 0, `CUBLAS_WORKSPACE_CONFIG` `:4096:8` or `:16:8`, and `MAMBA_DETERMINISTIC` (after 0.19 also `CAUSAL_CONV1D_DETERMINISTIC`) must start with 1 (a variable left out is filled in, so none is asked for). Otherwise Megatron Bridge and NeMo set the model in their own configs and are not judged. A `--yaml-cfg` file meets the reader\'s own checks (from 0.6): the heads must divide the hidden size without `kv_channels`, `max_position_embeddings` must cover the sequence lengths, `num_layers` excludes `encoder_num_layers` and `seq_length` `encoder_seq_length`, an fp32 residual needs `model_parallel.fp16` or `bf16`, and before 0.14 an interleaved rotary embedding refuses the RoPE fusion, before 0.16 Retro is refused. A launch script that passes `--yaml-cfg` needs `--use-mcore-models` before 0.8, and from 0.8 to 0.17 must not pass `--use-legacy-models`. With `--fp16` and a dynamic loss scale (no `--loss-scale`), a `--hysteresis`, `--initial-loss-scale`, `--min-loss-scale` or `--loss-scale-window` not above zero, or a minimum scale above the initial one, stops the optimizer\'s loss scaler, at every release. From 0.16 the inference-optimized layers (`--transformer-impl inference_optimized`) are refused with a norm other than RMSNorm (LayerNorm is the default), linear or QKV biases (linear biases are on by default), `--apply-layernorm-1p` or Kitchen quantization, and `--inference-fuse-tp-communication` is refused with any other layers, with MoE (from 0.17) and by the Mamba (hybrid) builder of `pretrain_mamba.py` and `pretrain_hybrid.py`; a Bridge override is judged on what it writes. `--init-method-xavier-uniform` (in a `--yaml-cfg` file `init_method: xavier_uniform`, from 0.6) never runs: the config builder passes a `scaled_init_method` beside the initializer, which the transformer config does not have, and the run stops with a TypeError.' + ' ' + ARCH_WHY,
    bad: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --num-layers: 32\n  --seq-length: 4096\n  --encoder-seq-length: 4096\n',
    good: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --num-layers: 32\n  --seq-length: 4096\n',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --encoder-seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.19.0, `TransformerConfig.__post_init__`: the fused bias-activation, Transformer Engine activations and the fused residual RMSNorm', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.19.0/megatron/core/transformer/transformer_config.py#L2114-L2152' },
      { label: 'Megatron-LM core_v0.19.0, `validate_args`: with CP > 1 the sequence length must be a multiple of 2 × CP (from core_v0.8.0)', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.19.0/megatron/training/arguments.py#L1295-L1298' },
      { label: 'Megatron-LM core_v0.16.0, `validate_args`: `--num-layers` excludes `--encoder-num-layers`, `--seq-length` excludes `--encoder-seq-length`', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.16.0/megatron/training/arguments.py#L786-L827' },
    ],
  },
  check(ctx) {
    runChecks(ctx, CHECKS);
    runChecks(ctx, MODEL_CONFIG_CHECKS);
    runChecks(ctx, INFERENCE_OPTIMIZED_CHECKS);
    runChecks(ctx, FEATURE_CHECKS);
    runChecks(ctx, ARCH_CHECKS);
    runChecks(ctx, GTP_CHECKS);
    runChecks(ctx, YAML_CFG_MODEL_CHECKS);
    runChecks(ctx, YAML_CFG_LAUNCH_CHECKS);
    ctx.separately(() => qkLayerScaling(ctx));
    ctx.separately(() => determinismEnv(ctx));
  },
});

const QK_VAR = 'NVTE_APPLY_QK_LAYER_SCALING';

/**
 * Query-key layer scaling under Transformer Engine attention: TEDotProductAttention takes it only
 * from the environment and raises when the config and `NVTE_APPLY_QK_LAYER_SCALING` disagree
 * (custom_layers/transformer_engine.py@core_v0.4.0:360-367, extensions/transformer_engine.py@core_v0.15.0:865-873,
 * the same at d98e8a6). Transformer Engine is the default implementation from 0.6.0 and Megatron
 * Core's model the default from 0.8.0; the legacy model and `--transformer-impl local` scale in
 * their own attention. Only a launch script shows the environment; a variable it leaves out may
 * come from the one that runs it, which makes that case a warning.
 */
function qkLayerScaling(ctx: RuleContext<MegatronModel>): void {
  const m = ctx.model;
  const env = m.args.env;
  if (ctx.format !== 'megatron-args' || !env) return;
  const scaling = argOn(m, 'apply_query_key_layer_scaling');
  const v = env.get(QK_VAR);
  if (v?.unknown) return;
  const literal = envLiteral(ctx.doc.text, v);
  const on = v?.exported && literal ? v.value !== undefined && /^[1-9]\d*$/.test(v.value) : undefined;
  // Only a value the script exports as written is what the processes see; otherwise it may differ.
  if (!scaling && on !== true) return;
  if (scaling && on === true) return;
  const impl = argValue(m, 'transformer_impl');
  const te = impl === 'transformer_engine' || (argAbsent(m, 'transformer_impl') && ctx.atLeast('0.6.0'));
  const mcore = ctx.atLeast('0.8.0') ? !argOn(m, 'use_legacy_models') : argOn(m, 'deprecated_use_mcore_models');
  if (!te || !mcore) return;
  const quote = 'Transformer Engine does not support setting query key layer scaling via argument, so these two must match';
  if (scaling) {
    const at = m.args.get('apply_query_key_layer_scaling')?.path ?? [];
    ctx.report({
      at,
      severity: on === false ? undefined : 'warning',
      message: `\`--apply-query-key-layer-scaling\` with Transformer Engine attention${on === false ? `, and the script exports \`${QK_VAR}=${v?.value}\`` : `, and the script does not export \`${QK_VAR}=1\` (the environment that runs it may)`}: Transformer Engine reads the scaling only from that variable, and Megatron stops when it builds the attention layers ("${quote}"). Export \`${QK_VAR}=1\` before the launch, or drop the flag.`,
    });
    return;
  }
  ctx.report({
    at: v!.span ?? v!.path,
    on: 'value',
    message: `\`${QK_VAR}=${v!.value}\` without \`--apply-query-key-layer-scaling\`: Transformer Engine attention checks that the variable and the flag agree, and Megatron stops when it builds the attention layers ("${quote}"). Add the flag, or remove the variable.`,
  });
}

/**
 * Later features of validate_args (training/arguments.py), each at its first release and at d98e8a6:
 * position embeddings that need an implementation or a setting, QK-clip's bounds, the MLA down-projection
 * fusion, and hybrid context parallelism's requirements.
 */
const FEATURE_CHECKS: ArgCheck[] = [
  {
    // megatron/arguments.py@core_v0.4.0:393-398 (gone in core_v0.5.0).
    when: (m) => ((argNum(m, 'expert_model_parallel_size') ?? 1) > 1 && argOn(m, 'use_distributed_optimizer') ? 'use_distributed_optimizer' : undefined),
    message: () => '`--use-distributed-optimizer` with `--expert-model-parallel-size` above 1: Megatron-LM 0.4 does not shard the optimizer state of expert-parallel models, and stops at startup ("Expert parallelism is not suppored with distributed optimizer."). Drop `--use-distributed-optimizer`, or use Megatron Core 0.5 or newer.',
    formats: MLM_FLAG_FORMATS,
    before: '0.5.0',
  },
  {
    // Megatron-LM's config builder sets `scaled_init_method` beside `init_method` for the flag
    // (megatron/arguments.py@core_v0.4.0:455-457 … training/argument_utils.py@d98e8a6:327-329), and
    // TransformerConfig has no such field, so building it fails at every release.
    when: (m) => (!m.args.yamlCfg && argOn(m, 'init_method_xavier_uniform') ? 'init_method_xavier_uniform' : undefined),
    message: () => '`--init-method-xavier-uniform`: Megatron-LM passes it to the transformer config as `init_method` and also as `scaled_init_method`, a field the config does not have, so the run stops with a TypeError when it builds the model config ("unexpected keyword argument \'scaled_init_method\'"). Drop the flag (the weights then start from a normal distribution of `--init-method-std`).',
    formats: MLM_FLAG_FORMATS,
  },
  {
    // The `--yaml-cfg` reader does the same for `init_method: xavier_uniform` (yaml_arguments.py@core_v0.6.0:441-442, @d98e8a6:425-426).
    when: (m) => (m.args.yamlCfg && argValue(m, 'init_method') === 'xavier_uniform' ? 'init_method' : undefined),
    message: (m) => `${named(m, '--init-method', 'xavier_uniform')}: the \`--yaml-cfg\` reader passes it to the transformer config as \`init_method\` and also as \`scaled_init_method\`, a field the config does not have, so the run stops with a TypeError when it builds the model config ("unexpected keyword argument 'scaled_init_method'"). Leave \`init_method\` out (the weights then start from a normal distribution of \`init_method_std\`).`,
    formats: MLM_FLAG_FORMATS,
    yamlCfg: true,
    since: '0.6.0',
  },
  {
    // @core_v0.11.0:709-712, @d98e8a6:1637-1640.
    when: (m) => (argValue(m, 'position_embedding_type') === 'relative' && argValue(m, 'transformer_impl') === 'local' ? 'position_embedding_type' : undefined),
    message: () => '`--position-embedding-type relative` with `--transformer-impl local`: relative position embeddings are an attention bias that only Transformer Engine attention applies, and Megatron-LM stops at startup ("Local transformer implementation currently does not support attention bias-based position embeddings."). Use `--transformer-impl transformer_engine`, or another position embedding type.',
    formats: MLM_FLAG_FORMATS,
    since: '0.11.0',
  },
  {
    // @core_v0.12.0:832-834, @d98e8a6:1643-1645.
    when: (m) => (argValue(m, 'position_embedding_type') === 'mrope' && argAbsent(m, 'mrope_section') ? 'position_embedding_type' : undefined),
    message: () => '`--position-embedding-type mrope` without `--mrope-section`: multimodal RoPE splits the rotary channels into sections (time, height, width), and Megatron-LM stops at startup ("--mrope-section should be set when using --position-embedding-type mrope."). Add `--mrope-section` with the channel count of each section.',
    formats: MLM_FLAG_FORMATS,
    since: '0.12.0',
  },
  {
    // @core_v0.16.0:972-978, @d98e8a6:1612-1618.
    when: (m) => {
      const a = argReal(m, 'qk_clip_alpha');
      return argOn(m, 'qk_clip') && a !== undefined && !(a > 0 && a < 1) ? 'qk_clip_alpha' : undefined;
    },
    message: (m) => `\`--qk-clip-alpha ${String(argValue(m, 'qk_clip_alpha'))}\` with \`--qk-clip\`: the share of the clipping applied to the queries must lie strictly between 0 and 1, and Megatron-LM stops at startup ("--qk-clip-alpha must be between 0.0 and 1.0 when using --qk-clip."). Use a value such as 0.5 (the default).`,
    formats: MLM_FLAG_FORMATS,
    since: '0.16.0',
  },
  {
    when: (m) => {
      const t = argReal(m, 'qk_clip_threshold');
      return argOn(m, 'qk_clip') && t !== undefined && t <= 0 ? 'qk_clip_threshold' : undefined;
    },
    message: (m) => `\`--qk-clip-threshold ${String(argValue(m, 'qk_clip_threshold'))}\` with \`--qk-clip\`: the attention-logit threshold must be above zero, and Megatron-LM stops at startup ("--qk-clip-threshold must be greater than 0 when using --qk-clip."). Use a positive threshold (100 by default).`,
    formats: MLM_FLAG_FORMATS,
    since: '0.16.0',
  },
  {
    // @core_v0.17.0:1587-1588, @d98e8a6:1976-1977.
    when: (m) => (argOn(m, 'mla_down_proj_fusion') && argOff(m, 'multi_latent_attention') ? 'mla_down_proj_fusion' : undefined),
    message: () => '`--mla-down-proj-fusion` without `--multi-latent-attention`: the fused down-projection belongs to multi-latent attention, and Megatron-LM stops at startup ("--mla-down-proj-fusion requires --multi-latent-attention"). Remove the flag, or use multi-latent attention.',
    formats: MLM_FLAG_FORMATS,
    since: '0.17.0',
  },
  {
    // @core_v0.16.0:918-923, @d98e8a6:1444-1449: hybrid CP refuses pipeline parallelism, CUDA graphs,
    // Megatron FSDP and other dataloaders (the type left out is `single`), and needs per-token loss.
    when: (m) => (argOn(m, 'hybrid_context_parallel') && hybridCpBlocker(m) ? 'hybrid_context_parallel' : undefined),
    message: (m) => {
      const b = hybridCpBlocker(m)!;
      return `\`--hybrid-context-parallel\` ${b.what}: Megatron-LM stops at startup ("${b.quote}"). ${b.todo}`;
    },
    formats: MLM_FLAG_FORMATS,
    since: '0.16.0',
  },
  ...(['tensor', 'expert'] as const).map(
    (kind): ArgCheck => ({
      // resolve_tensor_parallel_weight_shards: model_parallel_config.py@core_v0.19.0:27-41 (@d98e8a6:27-41), called by
      // ModelParallelConfig.__post_init__ (@core_v0.19.0:512-525) and Megatron-LM's validate_args (training/arguments.py@core_v0.19.0:414-420, 1456-1474).
      when: (m, _p, ctx) => (badShards(m, kind, ctx.format) ? SHARDS[kind].dest : undefined),
      since: '0.19.0',
      message: (m, _p) => {
        const { flag, tpName } = SHARDS[kind];
        const [shards, tp] = [argNum(m, SHARDS[kind].dest)!, shardTp(m, kind)!];
        const tpText = `${tpName} ${tp}${argAbsent(m, SHARDS[kind].tpDest) ? (kind === 'expert' ? ' (the TP size, as it is unset)' : ' (the default)') : ''}`;
        const quote = shards < tp ? `must be >= ${SHARDS[kind].tpDest} (${tp})` : `must be divisible by ${SHARDS[kind].tpDest} (${tp})`;
        return `${named(m, flag, String(shards))} with ${tpText}: the weight shards are the ${tpName} ranks times the extra shard groups, so they must be a multiple of ${tpName} and at least it, and Megatron stops at startup ("${SHARDS[kind].dest} (${shards}) ${quote}."). Use ${tp} or a multiple of it (${tp * 2}, …), or leave ${named(m, flag)} out.`;
      },
    }),
  ),
  {
    // The hybrid-CP data wrapper Megatron-LM puts around the training data (training/training.py@core_v0.16.0:2496-2497,
    // @d98e8a6:4292-4293) sizes sub-samples by it: pipeline_parallel/hybrid_cp_schedule.py@core_v0.16.0:53 divides by None.
    when: (m) => (argOn(m, 'hybrid_context_parallel') && !hybridCpBlocker(m) && argAbsent(m, 'max_seqlen_per_dp_cp_rank') ? 'hybrid_context_parallel' : undefined),
    message: () => '`--hybrid-context-parallel` without `--max-seqlen-per-dp-cp-rank`: hybrid context parallelism cuts packed samples into sub-samples of at most that many tokens per rank, which has no default, and Megatron-LM crashes on the first training step when it schedules them (a TypeError dividing by None). Set `--max-seqlen-per-dp-cp-rank` (the sequence length divided by the CP size is a reasonable start).',
    formats: MLM_FLAG_FORMATS,
    since: '0.16.0',
  },
];

const SHARDS = {
  tensor: { dest: 'tensor_parallel_num_weight_shards', flag: '--tensor-parallel-num-weight-shards', tpDest: 'tensor_model_parallel_size', tpName: 'TP' },
  expert: { dest: 'expert_tensor_parallel_num_weight_shards', flag: '--expert-tensor-parallel-num-weight-shards', tpDest: 'expert_tensor_parallel_size', tpName: 'expert TP' },
} as const;

/**
 * The (expert) TP size the weight shards are divided by: as written, or where the file leaves it out
 * Megatron-LM's default (TP 1; expert TP = TP). A Bridge override's recipe may set it (then unknown).
 */
function shardTp(m: MegatronModel, kind: 'tensor' | 'expert'): number | undefined {
  return kind === 'tensor' ? parallelSize(m, 'tensor_model_parallel_size') : expertTpSize(m);
}

/** Weight shards written that are fewer than (expert) TP or not a multiple of it (Megatron-LM's expert TP default: the launch formats only). */
function badShards(m: MegatronModel, kind: 'tensor' | 'expert', format: string): boolean {
  const shards = argNum(m, SHARDS[kind].dest);
  if (shards === undefined || !Number.isInteger(shards)) return false;
  if (kind === 'expert' && argAbsent(m, 'expert_tensor_parallel_size') && !(MLM_FLAG_FORMATS as readonly string[]).includes(format)) return false;
  const tp = shardTp(m, kind);
  return tp !== undefined && tp >= 1 && (shards < tp || shards % tp !== 0);
}

/** The first requirement of hybrid context parallelism the file is known to break, in upstream's order. */
function hybridCpBlocker(m: MegatronModel): { what: string; quote: string; todo: string } | undefined {
  const pp = argNum(m, 'pipeline_model_parallel_size');
  if (pp !== undefined && pp > 1) return { what: `with PP ${pp}`, quote: 'Hybrid context parallelism not supported with pipeline parallelism', todo: 'Use PP 1, or plain context parallelism.' };
  if (argOn(m, 'enable_cuda_graph')) return { what: 'with `--enable-cuda-graph`', quote: 'Hybrid context parallelism not supported with CUDA Graph', todo: 'Drop the CUDA graphs, or use plain context parallelism.' };
  if (argOn(m, 'use_megatron_fsdp')) return { what: 'with `--use-megatron-fsdp`', quote: 'Hybrid context parallelism not supported with Megatron FSDP', todo: 'Drop Megatron FSDP, or use plain context parallelism.' };
  const loader = argValue(m, 'dataloader_type');
  if (typeof loader === 'string' && loader !== 'single') return { what: `with \`--dataloader-type ${loader}\``, quote: 'Hybrid context parallelism only supported with single dataloader type', todo: 'Use `--dataloader-type single` (the default).' };
  if (argOff(m, 'calculate_per_token_loss')) return { what: 'without `--calculate-per-token-loss`', quote: 'Hybrid context parallelism must be used with --calculate-per-token-loss', todo: 'Add `--calculate-per-token-loss`.' };
  return undefined;
}
