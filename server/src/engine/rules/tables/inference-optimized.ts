/**
 * The inference-optimized layers (`--transformer-impl inference_optimized`, Megatron Core 0.16 on) as
 * TransformerConfig.__post_init__ checks them: bare assertions that the model uses RMSNorm, no
 * zero-centred gamma, no linear or QKV biases and no Kitchen quantization
 * (transformer_config.py@core_v0.16.0:1980-1985, @d98e8a6:3155-3160), and the inference switches
 * that only those layers read (@core_v0.16.0:1993-1997, @core_v0.17.0 on for the NVLS kernels;
 * @d98e8a6:3180-3193). Part of model-args-conflict.
 *
 * Megatron-LM's command line passes `--transformer-impl` to the config; a `--yaml-cfg` file sets it at
 * the top level, which the config built from its `language_model` keys does not read, so such a file
 * is left alone.
 */
import { argAbsent, argGiven, argOn, argOnByDefault, argOr, argValue, type MegatronModel } from '../../formats/megatron/model';
import { named, type ArgCheck } from '../../formats/megatron/checks';

const inferenceOptimized = (m: MegatronModel): boolean => !m.args.yamlCfg && argValue(m, 'transformer_impl') === 'inference_optimized';

/** The normalization, when known (LayerNorm by default). */
const normalization = (m: MegatronModel): unknown => argOr(m, 'normalization', 'LayerNorm');

/** Linear biases: on unless `--disable-bias-linear` (the default, True, in Megatron-LM and TransformerConfig). */
const linearBias = (m: MegatronModel): boolean => argOnByDefault(m, 'add_bias_linear');
/**
 * QKV biases: `--add-qkv-bias`, or, on Megatron-LM's command line, the linear biases, which its
 * argument checks copy into it (training/arguments.py@core_v0.16.0:968-970).
 */
const qkvBias = (m: MegatronModel): boolean => argOn(m, 'add_qkv_bias');
/** Kitchen quantization: the Kitchen flags turn `use_kitchen` on in the config Megatron-LM builds (@core_v0.16.0:1371-1376), a Bridge override writes it. */
const kitchen = (m: MegatronModel): string | undefined =>
  argOn(m, 'use_kitchen') ? 'use_kitchen' : argGiven(m, 'kitchen_config_file') ? 'kitchen_config_file' : argGiven(m, 'kitchen_recipe_number') ? 'kitchen_recipe_number' : undefined;

const STOPS = 'Megatron Core stops when it builds the model config (a bare assertion in its transformer config)';
const IMPL = (m: MegatronModel) => named(m, '--transformer-impl', 'inference_optimized');

export const INFERENCE_OPTIMIZED_CHECKS: ArgCheck[] = [
  {
    when: (m) => {
      const n = normalization(m);
      return inferenceOptimized(m) && n !== undefined && n !== 'RMSNorm' ? (argAbsent(m, 'normalization') ? 'transformer_impl' : 'normalization') : undefined;
    },
    since: '0.16.0',
    message: (m) => `${IMPL(m)} with ${argAbsent(m, 'normalization') ? 'the default LayerNorm' : named(m, '--normalization', String(normalization(m)))}: the inference-optimized layers have only an RMSNorm, and ${STOPS}. Set ${named(m, '--normalization', 'RMSNorm')}, or use \`transformer_engine\` layers.`,
  },
  {
    when: (m) => (inferenceOptimized(m) && argOn(m, 'layernorm_zero_centered_gamma') ? 'layernorm_zero_centered_gamma' : undefined),
    since: '0.16.0',
    message: (m) => `${named(m, '--apply-layernorm-1p')} with ${IMPL(m)}: the inference-optimized norm has no zero-centred gamma, and ${STOPS}. Drop ${named(m, '--apply-layernorm-1p')}, or use \`transformer_engine\` layers.`,
  },
  {
    when: (m) => (inferenceOptimized(m) && linearBias(m) ? (argAbsent(m, 'add_bias_linear') ? 'transformer_impl' : 'add_bias_linear') : undefined),
    since: '0.16.0',
    message: (m) => `${IMPL(m)} with linear biases${argAbsent(m, 'add_bias_linear') ? ' (on by default)' : ''}: the inference-optimized layers have none, and ${STOPS}. ${m.args.configFields ? `Set ${named(m, '--add-bias-linear', 'false')}` : 'Add `--disable-bias-linear`'}, or use \`transformer_engine\` layers.`,
  },
  {
    // Reported alone: with linear biases on, the check above fails first.
    when: (m) => (inferenceOptimized(m) && qkvBias(m) && !linearBias(m) ? 'add_qkv_bias' : undefined),
    since: '0.16.0',
    message: (m) => `${named(m, '--add-qkv-bias')} with ${IMPL(m)}: the inference-optimized attention has no QKV bias, and ${STOPS}. Drop ${named(m, '--add-qkv-bias')}, or use \`transformer_engine\` layers.`,
  },
  {
    when: (m) => (inferenceOptimized(m) ? kitchen(m) : undefined),
    since: '0.16.0',
    message: (m) => `Kitchen quantization (${named(m, `--${(kitchen(m) ?? 'use_kitchen').replace(/_/g, '-')}`)}) with ${IMPL(m)}: the inference-optimized layers are not Kitchen's, and ${STOPS}. Drop the Kitchen quantization, or use \`transformer_engine\` layers.`,
  },
  // (`--inference-disable-triton-nvls-kernels` outside these layers is inference-config-invalid's.)
  ...([['inference_fuse_tp_communication', '0.16.0']] as const).map(([dest, since]): ArgCheck => ({
    when: (m) => {
      if (m.args.yamlCfg || !argOn(m, dest)) return undefined;
      const impl = argOr(m, 'transformer_impl', 'transformer_engine');
      return impl !== undefined && impl !== 'inference_optimized' ? dest : undefined;
    },
    since,
    message: (m) => `${named(m, `--${dest.replace(/_/g, '-')}`)} with ${argAbsent(m, 'transformer_impl') ? 'the default Transformer Engine layers' : named(m, '--transformer-impl', String(argValue(m, 'transformer_impl')))}: only the inference-optimized layers read it, and Megatron Core stops when it builds the model config ("${dest} is only supported for inference_optimized transformer implementation."). Use ${named(m, '--transformer-impl', 'inference_optimized')}, or drop ${named(m, `--${dest.replace(/_/g, '-')}`)}.`,
  })),
];
