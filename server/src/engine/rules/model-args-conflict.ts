/**
 * model-args-conflict: model-shape arguments of Megatron-LM given twice under two names, two
 * attention kinds that exclude each other, or a sequence length that context parallelism cannot
 * split: its argument checks (and, for the last, Megatron Bridge's config validation) stop at startup.
 */
import { argAbsent, argGiven, argNum, argOff, argOn, argValue, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { envLiteral, named, runChecks, type ArgCheck } from '../formats/megatron/checks';
import { defineRule, type RuleContext } from './rule';

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
    // training/arguments.py@core_v0.19.0:1642-1647 (not in yaml_arguments.py): Megatron Core's own
    // config only warns about the pair (model_parallel_config.py@core_v0.19.0), so Bridge and NeMo run it.
    when: (m) => (argOn(m, 'cross_entropy_loss_fusion') && argValue(m, 'cross_entropy_fusion_impl') === 'te' ? 'cross_entropy_fusion_impl' : undefined),
    message: () => '`--cross-entropy-fusion-impl te` with `--cross-entropy-loss-fusion`: Transformer Engine\'s fused cross-entropy has stability issues, and Megatron-LM stops at startup ("Transformer Engine cross entropy loss fusion is disabled due to stability issues"). Use `--cross-entropy-fusion-impl native`, or drop `--cross-entropy-loss-fusion`.',
    formats: MLM_FLAG_FORMATS,
    since: '0.19.0',
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
      const cp = argAbsent(m, 'context_parallel_size') ? 1 : argNum(m, 'context_parallel_size');
      return sizes && cp !== undefined && sizes.reduce((a, b) => a * b, 1) !== cp ? 'hierarchical_context_parallel_sizes' : undefined;
    },
    message: (m) => `\`--hierarchical-context-parallel-sizes ${hierarchicalSizes(m)!.join(' ')}\` multiply to ${hierarchicalSizes(m)!.reduce((a, b) => a * b, 1)}, and the CP size is ${argAbsent(m, 'context_parallel_size') ? '1 (the default)' : argNum(m, 'context_parallel_size')}: each level splits the context-parallel group, so Megatron-LM stops at startup (it asserts that the CP size equals their product). Give sizes whose product is the CP size.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.10.0',
  },
  {
    // training/arguments.py@core_v0.8.0:393-396 (the same at core_v0.19.0:1295-1298 and d98e8a6:1335-1338;
    // not in yaml_arguments.py). Before 0.8.0 nothing checks it at startup: get_batch_on_this_cp_rank
    // fails on the first batch instead (megatron/utils.py@core_v0.4.0:241-242).
    when: (m) => (cpSplit(m) ? 'seq_length' : undefined),
    message: (m) => {
      const { seq, cp } = cpSplit(m)!;
      return `${CP_SPLIT_WHY(seq, cp)}, and Megatron-LM stops at startup ("seq-length should be a multiple of 2 * context-parallel-size if context-parallel-size > 1"). ${cpSplitAdvice(seq, cp)}`;
    },
    formats: MLM_FLAG_FORMATS,
    since: '0.8.0',
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
];

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
const onByDefault = (m: MegatronModel, dest: string) => argOn(m, dest) || argAbsent(m, dest);

/**
 * Megatron-LM's fused bias-activation as its config builder sets it (core_transformer_config_from_args):
 * `--no-bias-swiglu-fusion` decides for SwiGLU, `--no-bias-gelu-fusion` otherwise, and the argument
 * checks turn the GELU fusion off with `--disable-bias-linear`. Squared ReLU is left out (Megatron Core
 * refuses the fusion for it with another message).
 */
function biasActivationFusion(m: MegatronModel): boolean {
  if (!argOff(m, 'squared_relu')) return false;
  if (argOn(m, 'swiglu')) return onByDefault(m, 'bias_swiglu_fusion');
  return argOff(m, 'swiglu') && onByDefault(m, 'bias_gelu_fusion') && onByDefault(m, 'add_bias_linear');
}

function normalization(m: MegatronModel): unknown {
  const v = argValue(m, 'normalization');
  return v !== undefined && v !== null ? v : argAbsent(m, 'normalization') ? 'LayerNorm' : undefined;
}

const MODEL_CONFIG_CHECKS: ArgCheck[] = [
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
    message: (m) => `${named(m, '--no-rope-freq', String(argNum(m, 'no_rope_freq')))} with ${argNum(m, 'num_layers')} layers: the pattern (RoPE skipped on every ${argNum(m, 'no_rope_freq')}th layer) must repeat a whole number of times, and Megatron Core stops when it builds the model config ("no_rope_freq=${argNum(m, 'no_rope_freq')} should be divisible by num_layers=${argNum(m, 'num_layers')}."). Use a value that divides the layer count, or a list pattern with one entry per layer.`,
  },
  {
    // Megatron-LM's config builder passes `--bias-gelu-fusion` (on unless `--no-bias-gelu-fusion`, and turned
    // off by `--disable-bias-linear`) as the fused bias-activation, then sets squared ReLU as the activation
    // (arguments.py@core_v0.5.0:462-467 … argument_utils.py@d98e8a6:318-322); TransformerConfig accepts
    // the fusion only for GELU and SiLU (and quick GELU from 0.15): transformer_config.py@core_v0.5.0 …
    // @d98e8a6:2420-2425.
    when: (m) => (argOn(m, 'squared_relu') && argOff(m, 'swiglu') && onByDefault(m, 'bias_gelu_fusion') && onByDefault(m, 'add_bias_linear') ? 'squared_relu' : undefined),
    formats: MLM_FLAG_FORMATS,
    message: (m) => `${named(m, '--squared-relu')} with the fused bias-GELU (on by default while the linear layers have biases): the fused kernel is a GELU, and Megatron Core stops when it builds the model config ("When bias_activation_fusion is True, activation function should be either gelu, …"). Add ${named(m, '--no-bias-gelu-fusion')} (or ${named(m, '--disable-bias-linear')}).`,
  },
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
    summary: 'Model arguments that Megatron-LM rejects together: a setting under both of its names (`--seq-length` and `--encoder-seq-length`, `--num-layers` and `--encoder-num-layers`), multi-latent with grouped-query attention, Transformer Engine\'s cross-entropy fusion, two-level context parallelism without matching level sizes, a sequence length that is not a multiple of 2 × the context-parallel size, query-key layer scaling that disagrees with `NVTE_APPLY_QK_LAYER_SCALING` under Transformer Engine attention, or model settings Megatron Core refuses when it builds the model config (a fused residual RMSNorm without RMSNorm, interleaved rotary embeddings or an output gate with multi-latent attention, a `--no-rope-freq` that does not divide the layers, Transformer Engine\'s activation or a GLU offset beside the fused bias-activation).',
    why: 'Megatron-LM keeps the encoder spellings of the sequence length and the layer count as other names of the GPT settings, and its argument checks refuse a script that gives both names, at every release; from Megatron Core 0.16 they also refuse grouped-query attention beside multi-latent attention, from 0.19 `--cross-entropy-fusion-impl te` with `--cross-entropy-loss-fusion`, and from 0.10 `--cp-comm-type a2a+p2p` without `--hierarchical-context-parallel-sizes` or with sizes whose product is not the CP size. Transformer Engine attention reads query-key layer scaling only from `NVTE_APPLY_QK_LAYER_SCALING` and stops when the flag and the variable disagree; a script that does not export the variable may get it from the environment that runs it, so that case is a warning. From Megatron Core 0.8 they also refuse a `--seq-length` that is not a multiple of 2 × `--context-parallel-size` (context parallelism cuts each sequence into two chunks per rank); Megatron Bridge\'s config validation refuses the same in a Bridge override (`model.seq_length`, `model.context_parallel_size`). Each stops the job at startup, before any GPU work. Megatron Core\'s TransformerConfig, which Megatron-LM and Megatron Bridge both build, refuses further settings when it builds the model config: `--fused-residual-rmsnorm` without `--normalization RMSNorm` (from 0.17), `--rotary-interleaved` with multi-latent attention (from 0.10), `--attention-output-gate` with it (from 0.16), and an integer `--no-rope-freq` that does not divide the layer count (from 0.13); in a Megatron-LM script also `--use-te-activation-func` or a non-zero `--glu-linear-offset` (unless `--quick-geglu`) beside the fused bias-activation, which is on by default (from 0.15; `--no-bias-swiglu-fusion`, `--no-bias-gelu-fusion` or `--disable-bias-linear` turn it off), and at every release `--squared-relu` beside the fused bias-GELU (a GELU kernel) or beside `--swiglu`. Otherwise Megatron Bridge and NeMo set the model in their own configs and are not judged.',
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
    ctx.separately(() => qkLayerScaling(ctx));
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
  const mcore = ctx.atLeast('0.8.0') ? !argOn(m, 'use_legacy_models') : argOn(m, 'use_mcore_models');
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
