/**
 * The inference-optimized layers (`--transformer-impl inference_optimized`, Megatron Core 0.16 on) as
 * TransformerConfig.__post_init__ checks them: bare assertions that the model uses RMSNorm, no
 * zero-centred gamma, no linear or QKV biases and no Kitchen quantization
 * (transformer_config.py@core_v0.16.0:1980-1985, @d98e8a6:3155-3160), and the inference switches
 * that only those layers read (@core_v0.16.0:1993-1997, @core_v0.17.0 on for the NVLS kernels;
 * @d98e8a6:3180-3193), among them the fused TP communication, which MoE models refuse from 0.17 and the
 * Megatron-LM Mamba (hybrid) builder from 0.16. Part of model-args-conflict.
 *
 * Megatron-LM's command line passes `--transformer-impl` to the config; a `--yaml-cfg` file sets it at
 * the top level, which the config built from its `language_model` keys does not read, so such a file
 * is left alone.
 */
import { argAbsent, argGiven, argNum, argOn, argOnByDefault, argOr, argValue, MLM_FLAG_FORMATS, type MegatronModel } from '../../formats/megatron/model';
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

/** The fused TP communication of the inference-optimized layers, on with those layers. */
const fusedTpCommunication = (m: MegatronModel): boolean => !m.args.yamlCfg && argOn(m, 'inference_fuse_tp_communication') && inferenceOptimized(m);

/** A hybrid (Mamba) layer pattern or switch as written. */
const hybridPattern = (m: MegatronModel): boolean =>
  argGiven(m, 'hybrid_override_pattern') || argGiven(m, 'hybrid_layer_pattern') || argOn(m, 'is_hybrid_model');

/**
 * The Mamba builder's assert, per release: mamba_builders.py@core_v0.16.0:17-19 and @core_v0.17.0:18-22
 * ("… for Mamba"); hybrid_builders.py@core_v0.18.0:17-21 (mamba_builders.py re-exports it) and, through
 * hybrid_config_from_args, argument_utils.py@core_v0.19.0:502-505 ("… for HybridModel").
 */
const HYBRID_BUILDER: ReadonlyArray<{ since: string; before?: string; model: string }> = [
  { since: '0.16.0', before: '0.18.0', model: 'Mamba' },
  { since: '0.18.0', model: 'HybridModel' },
];

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
  {
    // The same block from core_v0.17.0 (transformer_config.py@core_v0.17.0:2227-2229, @core_v0.19.0:2859-2861,
    // @d98e8a6:3184-3186; not at core_v0.16.0:1993-1997): the fused TP communication has no MoE path. With
    // other layers the check above fails first.
    when: (m) => (fusedTpCommunication(m) && (argNum(m, 'num_moe_experts') ?? 0) > 0 ? 'inference_fuse_tp_communication' : undefined),
    since: '0.17.0',
    message: (m) => `${named(m, '--inference-fuse-tp-communication')} with ${named(m, '--num-experts', String(argNum(m, 'num_moe_experts')))}: the fused tensor-parallel communication of the inference-optimized layers is for dense models, and Megatron Core stops when it builds the model config ("--inference-fuse-tp-communication is not supported for MoE models."). Drop ${named(m, '--inference-fuse-tp-communication')} for a MoE model.`,
  },
  ...HYBRID_BUILDER.map(({ since, before, model }): ArgCheck => ({
    // The Mamba (hybrid) builder takes the inference-optimized stack and refuses the fused TP
    // communication before the model is built. pretrain_mamba.py runs it from core_v0.16.0 (a wrapper
    // of pretrain_hybrid.py from core_v0.18.0), pretrain_hybrid.py from core_v0.18.0. Where the file
    // names no entry script, only one that writes a hybrid layer pattern is judged (a warning).
    when: (m) => (fusedTpCommunication(m) && (m.args.entry !== undefined || hybridPattern(m)) ? 'inference_fuse_tp_communication' : undefined),
    entry: /^pretrain_(mamba|hybrid)\.py$/,
    entryAssumed: ' This assumes Megatron-LM\'s `pretrain_mamba.py` or `pretrain_hybrid.py` builds the model from these arguments; the file does not name its entry script.',
    formats: MLM_FLAG_FORMATS,
    since,
    ...(before ? { before } : {}),
    message: (m) => `${named(m, '--inference-fuse-tp-communication')} with a Mamba (hybrid) model: the inference-optimized hybrid stack has no fused tensor-parallel communication, and Megatron-LM stops when it builds the model ("inference_fuse_tp_communication is not supported for ${model}"). Drop ${named(m, '--inference-fuse-tp-communication')} for this model.`,
  })),
];
