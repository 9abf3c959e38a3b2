/**
 * Model-shape settings that Megatron Core's TransformerConfig.__post_init__ refuses when it builds
 * the model config (for model-args-conflict): normalization, rotary embeddings, multi-latent
 * attention and the fused bias-activation.
 */
import { argAbsent, argNum, argOff, argOn, argValue, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { named, type ArgCheck } from '../formats/megatron/checks';

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

export const MODEL_CONFIG_CHECKS: ArgCheck[] = [
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
