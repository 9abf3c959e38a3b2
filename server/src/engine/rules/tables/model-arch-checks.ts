/**
 * Attention, position-embedding, activation and residual-stream refusals: Megatron-LM's argument
 * checks and config builder (rotary embeddings, RoPE type, activations, heterogeneous layers) and
 * Megatron Core's model config and layer specs (DeepSeek sparse attention, gated delta net, gated
 * delta product, manifold hyper-connections, the no-RoPE pattern, MLA's RoPE fusion). Part of
 * model-args-conflict. Lines at the first release with the check and at d98e8a6.
 */
import { argAbsent, argGiven, argNum, argOff, argOn, argOnByDefault, argOr, argReal, argValue, argWords, argWritten, MLM_FLAG_FORMATS, recomputeGranularity, type MegatronModel } from '../../formats/megatron/model';
import { named, type ArgCheck } from '../../formats/megatron/checks';
import { untracked } from '../certain';

const variant = (m: MegatronModel): unknown => argValue(m, 'experimental_attention_variant');
const dsa = (m: MegatronModel): boolean => variant(m) === 'dsa';
const dsaWithoutMla = (m: MegatronModel): boolean => dsa(m) && argOff(m, 'multi_latent_attention');
const DSA_WITHOUT_MLA = (m: MegatronModel): string =>
  `${named(m, '--experimental-attention-variant', 'dsa')} without ${named(m, '--multi-latent-attention')}: DeepSeek sparse attention is built on multi-latent attention, and Megatron Core stops when it builds the layer specs ("Currently only MLA supports sparse attention."). Add ${named(m, '--multi-latent-attention')} and its settings.`;
const mla = (m: MegatronModel): boolean => argOn(m, 'multi_latent_attention');
/** The DSA indexer's size arguments the file leaves out (no default: the indexer cannot be built). */
const indexerSizeMissing = (m: MegatronModel): string[] =>
  ['--dsa-indexer-n-heads', '--dsa-indexer-head-dim'].filter((f) => argAbsent(m, f.slice(2).replace(/-/g, '_')));

/**
 * The RoPE fusion as a Megatron-LM script leaves it: on unless `--no-rope-fusion`, and turned off by
 * the argument checks unless the position embeddings are rotary (training/arguments.py@core_v0.10.0:648-649,
 * @d98e8a6:1626-1629; `--use-rotary-position-embeddings` sets rotary ones just before).
 */
function mlmRopeFusion(m: MegatronModel): boolean {
  const rope = argValue(m, 'position_embedding_type') === 'rope' || argOn(m, 'use_rotary_position_embeddings');
  return rope && argOnByDefault(m, 'apply_rope_fusion');
}

/** The formats that build Megatron Core's config from a file's keys (not Megatron-LM's command line). */
const CONFIG_FORMATS = ['megatron-bridge', 'nemo', 'megatron-yaml'] as const;

/**
 * The RoPE fusion as a config file (a `--yaml-cfg` file, a NeMo model config, a Bridge override)
 * leaves it: written on, or left out where the format's default is on (argOnByDefault reads the
 * format's own default, TransformerConfig's off; unknown for a Bridge provider). A script's flags are
 * judged by mlmRopeFusion instead (a `MODEL_ARGS` map included).
 */
function configRopeFusion(m: MegatronModel): boolean {
  return untracked(m.args).configFields === true && argOnByDefault(m, 'apply_rope_fusion');
}

/** A positive whole number as written (an argparse `type=int`, or a config value), else undefined. */
const whole = (m: MegatronModel, dest: string): number | undefined => {
  const n = argReal(m, dest);
  return n !== undefined && Number.isInteger(n) ? n : undefined;
};

/** A per-layer pattern when written as a plain list (a YAML list, or the command line's `[0,1,...]` text). */
function patternList(m: MegatronModel, dest: string): number[] | undefined {
  const v = argValue(m, dest);
  const items = Array.isArray(v) ? v : typeof v === 'string' && /^\s*\[[\d\s,]*\]\s*$/.test(v) ? v.replace(/[[\]\s]/g, '').split(',').filter(Boolean) : undefined;
  const nums = items?.map((x) => (typeof x === 'number' ? x : typeof x === 'string' && /^\d+$/.test(x) ? Number(x) : NaN));
  return nums && nums.every((n) => Number.isInteger(n)) ? nums : undefined;
}
const noRopeList = (m: MegatronModel): number[] | undefined => patternList(m, 'no_rope_freq');

/** `--no-rope-freq` is set to something Python takes as true: a number above 0, or a non-empty pattern. */
function noRopeOn(m: MegatronModel): boolean {
  const n = argNum(m, 'no_rope_freq');
  if (n !== undefined) return n > 0;
  const list = noRopeList(m);
  return list !== undefined && list.length > 0;
}

/** The context-parallel communication types (default `p2p` in Megatron-LM), when known. */
function cpCommTypes(m: MegatronModel): string[] | undefined {
  const v = argOr(m, 'cp_comm_type', ['p2p']);
  const words = typeof v === 'string' ? [v] : Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined;
  return words;
}

const mhc = (m: MegatronModel): boolean => argOn(m, 'enable_mhc_connections');
const mhcRecompute = (m: MegatronModel): boolean => recomputeGranularity(m) === 'selective' && (argWords(m, 'recompute_modules') ?? []).includes('mhc');

/** Megatron-LM's argument checks and config builder (training/arguments.py, argument_utils.py from 0.18). */
const MLM_CHECKS: ArgCheck[] = [
  {
    // megatron/arguments.py@core_v0.5.0:391-392 … training/arguments.py@core_v0.13.0:915-916; from
    // core_v0.14.0 only Megatron Core's config checks it, and only for Transformer Engine before 2.3.
    when: (m) => (argOn(m, 'rotary_interleaved') && argOnByDefault(m, 'apply_rope_fusion') ? 'rotary_interleaved' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.5.0',
    before: '0.14.0',
    message: (m) => `${named(m, '--rotary-interleaved')} with the RoPE fusion (on unless \`--no-rope-fusion\`): before Megatron Core 0.14 the fused RoPE kernel rotates the two halves only, and Megatron-LM stops at startup ("--rotary-interleaved does not work with rope_fusion."), whatever the position embedding type. Add \`--no-rope-fusion\`.`,
  },
  {
    // megatron/arguments.py@core_v0.5.0:393-394 to @core_v0.7.0: Megatron Core's model only.
    when: (m) => (argOn(m, 'rotary_interleaved') && argOff(m, 'deprecated_use_mcore_models') ? 'rotary_interleaved' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.5.0',
    before: '0.8.0',
    message: (m) => `${named(m, '--rotary-interleaved')} without \`--use-mcore-models\`: before Megatron Core 0.8 the legacy model is the default and has no interleaved rotary embeddings, and Megatron-LM stops at startup ("--rotary-interleaved only support Megatron Core, please add --use-mcore-models."). Add \`--use-mcore-models\`.`,
  },
  {
    // training/arguments.py@core_v0.8.0:515-516 to @core_v0.17.0 (gone at core_v0.18.0).
    when: (m) => (argOn(m, 'rotary_interleaved') && argOn(m, 'use_legacy_models') ? 'rotary_interleaved' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.8.0',
    before: '0.18.0',
    message: (m) => `${named(m, '--rotary-interleaved')} with \`--use-legacy-models\`: the legacy model has no interleaved rotary embeddings, and Megatron-LM stops at startup ("--rotary-interleaved is not supported in legacy models."). Drop \`--use-legacy-models\`.`,
  },
  {
    // training/arguments.py@core_v0.9.0:587-589 to @core_v0.18.2:1536-1538; from core_v0.19.0 in determinism.py (below).
    when: (m) => (argOn(m, 'deterministic_mode') && argOn(m, 'cross_entropy_loss_fusion') ? 'cross_entropy_loss_fusion' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.9.0',
    before: '0.19.0',
    message: (m) => `${named(m, '--cross-entropy-loss-fusion')} with ${named(m, '--deterministic-mode')}: the fused cross-entropy is not deterministic, and Megatron-LM stops at startup ("Cross Entropy Fusion is currently not deterministic."). Drop ${named(m, '--cross-entropy-loss-fusion')}, or the deterministic mode.`,
  },
  {
    // Megatron Bridge's ConfigContainer._validate_and_apply_deterministic_mode, from Bridge 0.2
    // (training/config.py@v0.2.0, @067f987:1052-1055), on the values the override writes.
    when: (m) => (argWritten(m, 'deterministic_mode') && argWritten(m, 'cross_entropy_loss_fusion') && argOn(m, 'deterministic_mode') && argOn(m, 'cross_entropy_loss_fusion') ? 'cross_entropy_loss_fusion' : undefined),
    formats: ['megatron-bridge'],
    since: '0.15.0',
    message: () => '`model.cross_entropy_loss_fusion` with `model.deterministic_mode`: the fused cross-entropy is not deterministic, and Megatron Bridge stops when it validates the config ("Cross Entropy Fusion is currently not deterministic."). Set `cross_entropy_loss_fusion: false`, or turn the deterministic mode off.',
  },
  {
    // From core_v0.19.0 validate_args hands the deterministic mode to apply_determinism_to_args
    // (training/arguments.py@core_v0.19.0:1653-1656, @d98e8a6:1708-1711), which asserts the options of
    // ARG_VALUES_REQUIRED_FOR_DETERMINISM (determinism.py@core_v0.19.0:24,138-145). Transformer Engine's
    // fusion is refused before it (:1642-1647, the check beside).
    when: (m) => (argOn(m, 'deterministic_mode') && argOn(m, 'cross_entropy_loss_fusion') && argValue(m, 'cross_entropy_fusion_impl') !== 'te' ? 'cross_entropy_loss_fusion' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.19.0',
    message: (m) => `${named(m, '--cross-entropy-loss-fusion')} with ${named(m, '--deterministic-mode')}: the fused cross-entropy is not deterministic, and Megatron-LM stops at startup ("--deterministic-mode requires: cross_entropy_loss_fusion=False (got True)"). Drop ${named(m, '--cross-entropy-loss-fusion')}, or the deterministic mode.`,
  },
  {
    // determinism.py@core_v0.19.0:24,138-145 (@d98e8a6 the same): the TP communication overlap is
    // refused too. Without sequence parallelism (or at TP 1, which turns it off) the overlap is refused earlier
    // (training/arguments.py@core_v0.19.0:1391-1402, tp-comm-overlap-requires-sequence-parallel).
    when: (m) => (argOn(m, 'deterministic_mode') && argOn(m, 'tp_comm_overlap') && argOn(m, 'sequence_parallel') && (argNum(m, 'tensor_model_parallel_size') ?? 1) > 1 ? 'tp_comm_overlap' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.19.0',
    message: (m) => `${named(m, '--tp-comm-overlap')} with ${named(m, '--deterministic-mode')}: from Megatron Core 0.19 the deterministic mode takes no TP communication overlap, and Megatron-LM stops at startup ("--deterministic-mode requires: tp_comm_overlap=False (got True)"). Drop ${named(m, '--tp-comm-overlap')}, or the deterministic mode.`,
  },
  {
    // training/arguments.py@core_v0.14.0:1190-1194 to @core_v0.17.0; argument_utils.py@core_v0.18.0 on (@d98e8a6:338-341).
    when: (m) => {
      const t = argValue(m, 'rope_type');
      return typeof t === 'string' && t !== 'rope' && argOff(m, 'multi_latent_attention') ? 'rope_type' : undefined;
    },
    formats: MLM_FLAG_FORMATS,
    since: '0.14.0',
    message: (m) => `${named(m, '--rope-type', String(argValue(m, 'rope_type')))} without multi-latent attention: standard attention takes only plain RoPE, and Megatron-LM stops when it builds the model config ("Common attention only support rope_type=\\"rope\\", but got ${String(argValue(m, 'rope_type'))}."). Drop ${named(m, '--rope-type')} (or use \`rope\`), or use ${named(m, '--multi-latent-attention')}.`,
  },
  {
    // training/arguments.py@core_v0.12.0:1002-1003 to @core_v0.17.0; argument_utils.py@core_v0.18.0 on (@d98e8a6:295-296).
    when: (m) => (argGiven(m, 'heterogeneous_layers_config_path') && mla(m) ? 'heterogeneous_layers_config_path' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.12.0',
    message: (m) => `${named(m, '--heterogeneous-layers-config-path')} with ${named(m, '--multi-latent-attention')}: Megatron-LM stops when it builds the model config ("Multi latent attention with heterogeneous layers is not supported."). Drop one of them.`,
  },
  {
    // training/arguments.py@core_v0.15.0:1268-1269 to @core_v0.17.0; argument_utils.py@core_v0.18.0 on (@d98e8a6:323-324).
    when: (m) => (argOn(m, 'quick_geglu') && argOn(m, 'swiglu') && argOff(m, 'squared_relu') ? 'quick_geglu' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.15.0',
    message: (m) => `${named(m, '--quick-geglu')} with ${named(m, '--swiglu')}: both choose the MLP activation, and Megatron-LM stops when it builds the model config (an assertion in its config builder). Keep one.`,
  },
  {
    // transformer_config.py@core_v0.15.0:1235-1241 (@d98e8a6:2458-2464): Transformer Engine's
    // activations are GELU, SiLU and ReLU (and their gated forms). With the fused bias-activation
    // on, quick GeGLU is refused first by the check beside (so only where the fusion is off here).
    when: (m) => {
      if (!argOn(m, 'use_te_activation_func')) return undefined;
      if (argOn(m, 'squared_relu')) return 'use_te_activation_func';
      const writtenOff = (dest: string) => argGiven(m, dest) && argOff(m, dest);
      const fusionOff = writtenOff('bias_gelu_fusion') || writtenOff('add_bias_linear');
      return argOn(m, 'quick_geglu') && argOff(m, 'swiglu') && fusionOff ? 'use_te_activation_func' : undefined;
    },
    formats: MLM_FLAG_FORMATS,
    since: '0.15.0',
    message: (m) => `${named(m, '--use-te-activation-func')} with ${argOn(m, 'squared_relu') ? named(m, '--squared-relu') : named(m, '--quick-geglu')}: Transformer Engine's activations are GELU, SiLU and ReLU (and their gated forms), and Megatron Core stops when it builds the model config ("TransformerEngine only support gelu, geglu, silu, swiglu, relu, reglu."). Drop ${named(m, '--use-te-activation-func')}.`,
  },
  {
    // MLA's RoPE fusion, Megatron-LM scripts: transformer_config.py@core_v0.11.0:740-741 and core_v0.12.0
    // refuse it outright.
    when: (m) => (mla(m) && mlmRopeFusion(m) ? 'multi_latent_attention' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.11.0',
    before: '0.13.0',
    message: () => '`--multi-latent-attention` with rotary position embeddings and the RoPE fusion (on unless `--no-rope-fusion`): before Megatron Core 0.13 multi-latent attention has no fused RoPE, and Megatron Core stops when it builds the model config ("multi_latent_attention does not support apply_rope_fusion."). Add `--no-rope-fusion`.',
  },
  {
    // MLATransformerConfig.__post_init__, core_v0.13.0:1311-1313 (@d98e8a6:3345-3346): the fusion
    // needs YaRN, MLA's default RoPE type, so only a written `--rope-type rope` meets it.
    when: (m) => (mla(m) && argValue(m, 'rope_type') === 'rope' && mlmRopeFusion(m) ? 'rope_type' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.13.0',
    message: (m) => `${named(m, '--rope-type', 'rope')} with multi-latent attention and the RoPE fusion (on unless \`--no-rope-fusion\`): MLA's fused RoPE is YaRN's, and Megatron Core stops when it builds the model config ("apply_rope_fusion for MLA only works with YARN RoPE."). Add \`--no-rope-fusion\`, or use \`--rope-type yarn\` (MLA's default).`,
  },
  {
    // MLATransformerConfig.__post_init__, core_v0.14.0:1467-1470 (@d98e8a6:3351-3354).
    when: (m) => (mla(m) && argOn(m, 'cache_mla_latents') && mlmRopeFusion(m) ? 'cache_mla_latents' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.14.0',
    message: (m) => `${named(m, '--cache-mla-latents')} with the RoPE fusion (on unless \`--no-rope-fusion\` where the position embeddings are rotary): Megatron Core stops when it builds the model config ("Rope Fusion is not compatible with caching latents"). Add \`--no-rope-fusion\`.`,
  },
  {
    // multi_latent_attention.py@core_v0.14.0:213-215 (@core_v0.19.0:322-324, @d98e8a6:322-324): MLA's forward
    // refuses the latent cache while the module is in train mode, and the training loop puts the model
    // there (training.py@core_v0.14.0:1899, model_module.train()); the flag reaches MLATransformerConfig
    // through core_transformer_config_from_args (arguments.py@core_v0.14.0:1149-1157). pretrain_gpt.py
    // builds MLA layers for `--multi-latent-attention`; a run that skips training is not judged.
    when: (m) => (mla(m) && argOn(m, 'cache_mla_latents') && !m.args.notTraining ? 'cache_mla_latents' : undefined),
    entry: /^pretrain_gpt\.py$/,
    entryAssumed: ' This assumes `pretrain_gpt.py` (Megatron-LM\'s GPT model, with MLA layers) trains with these arguments; the file does not name its entry script.',
    formats: MLM_FLAG_FORMATS,
    since: '0.14.0',
    message: (m) => `${named(m, '--cache-mla-latents')} in a training run with multi-latent attention: the latent cache is for inference (flash decoding), and Megatron Core stops at the first training step, in MLA's forward pass ("cache_mla_latents conflicts with training."). Drop ${named(m, '--cache-mla-latents')} from training; use it when serving the model.`,
  },
  {
    // experimental_attention_variant_module_specs.py@core_v0.16.0:81 (@d98e8a6:101): the GPT builder
    // (gpt_builders.py, megatron/training/models/gpt.py) takes this spec for any experimental
    // attention variant; pretrain_gpt.py runs it. Another entry script builds its own layers.
    when: (m) => (m.args.entry === 'pretrain_gpt.py' && dsaWithoutMla(m) ? 'experimental_attention_variant' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.16.0',
    message: (m) => DSA_WITHOUT_MLA(m),
  },
  {
    // The same where the file does not name its entry script: the GPT builder is an assumption.
    when: (m) => (!m.args.entry && dsaWithoutMla(m) ? 'experimental_attention_variant' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.16.0',
    severity: 'warning',
    message: (m) => `${DSA_WITHOUT_MLA(m)} This assumes \`pretrain_gpt.py\` (Megatron-LM's GPT model builder) reads these arguments; the file does not name its entry script.`,
  },
  {
    // transformer_config.py@core_v0.16.0:1987-1991 (@d98e8a6:3162-3163), with the script's RoPE fusion.
    when: (m) => (dsa(m) && mlmRopeFusion(m) ? 'experimental_attention_variant' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.16.0',
    message: (m) => `${named(m, '--experimental-attention-variant', 'dsa')} with rotary position embeddings and the RoPE fusion (on unless \`--no-rope-fusion\`): Megatron Core stops when it builds the model config ("RoPE fusion is not supported for DSAttention"). Add \`--no-rope-fusion\`.`,
  },
];

/** Megatron Core's model config (TransformerConfig, every format that builds it). */
const CONFIG_CHECKS: ArgCheck[] = [
  {
    // The config formats' form of the check above (transformer_config.py@core_v0.16.0:1987-1991,
    // @core_v0.19.0:2838): the fusion as the file's format leaves it. TransformerConfig's own default is
    // off (@core_v0.19.0:499), which a `--yaml-cfg` file and a NeMo model config keep; a Bridge model
    // provider sets its own, so there only a written fusion is known (formatDefault).
    when: (m) => (configRopeFusion(m) && dsa(m) ? (argAbsent(m, 'apply_rope_fusion') ? 'experimental_attention_variant' : 'apply_rope_fusion') : undefined),
    formats: CONFIG_FORMATS,
    since: '0.16.0',
    message: (m) => `${argAbsent(m, 'apply_rope_fusion') ? 'DeepSeek sparse attention with the RoPE fusion (on by default here)' : `${named(m, '--apply-rope-fusion', 'true')} with DeepSeek sparse attention`}: Megatron Core stops when it builds the model config ("RoPE fusion is not supported for DSAttention"). Set ${named(m, '--apply-rope-fusion', 'false')}.`,
  },
  {
    // The config formats' form of the MLA check above (MLATransformerConfig.__post_init__,
    // transformer_config.py@core_v0.13.0:1311-1313, @core_v0.19.0:2967): a written non-YaRN RoPE type
    // with the fusion as the file's format leaves it. Not a `--yaml-cfg` file: its reader does not take
    // `rope_type` (an MLATransformerConfig field, `x-yaml-cfg-unread`), so YaRN, the default, runs.
    when: (m) => (configRopeFusion(m) && mla(m) && argValue(m, 'rope_type') === 'rope' ? 'rope_type' : undefined),
    formats: ['megatron-bridge', 'nemo'],
    since: '0.13.0',
    message: (m) => `${named(m, '--rope-type', 'rope')} with multi-latent attention and the RoPE fusion${argAbsent(m, 'apply_rope_fusion') ? ' (on by default here)' : ''}: MLA's fused RoPE is YaRN's, and Megatron Core stops when it builds the model config ("apply_rope_fusion for MLA only works with YARN RoPE."). Set ${named(m, '--apply-rope-fusion', 'false')}, or use ${named(m, '--rope-type', 'yarn')} (MLA's default).`,
  },
  {
    // transformer_config.py@core_v0.19.0:1385-1389 (@d98e8a6:1512-1516).
    when: (m) => (dsa(m) && argOnByDefault(m, 'add_bias_linear') ? (argAbsent(m, 'add_bias_linear') ? 'experimental_attention_variant' : 'add_bias_linear') : undefined),
    since: '0.19.0',
    message: (m) => `DeepSeek sparse attention with linear biases${argAbsent(m, 'add_bias_linear') ? ' (on unless `--disable-bias-linear`)' : ''}: its absorbed MLA attention has no biases, and Megatron Core stops when it builds the model config ("DSA uses AbsorbedMLASelfAttention, which requires add_bias_linear=False."). ${untracked(m.args).configFields ? `Set ${named(m, '--add-bias-linear', 'false')}.` : 'Add `--disable-bias-linear`.'}`,
  },
  {
    // transformer_config.py@core_v0.19.0:1390-1393 (@d98e8a6:1517-1520).
    when: (m) => {
      const n = whole(m, 'dsa_indexer_topk_freq');
      return dsa(m) && n !== undefined && n < 1 ? 'dsa_indexer_topk_freq' : undefined;
    },
    since: '0.19.0',
    message: (m) => `${named(m, '--dsa-indexer-topk-freq', String(whole(m, 'dsa_indexer_topk_freq')))}: the indexer's top-k is computed every that many layers, and Megatron Core stops when it builds the model config ("dsa_indexer_topk_freq must be positive"). Use 1 (every layer, the default) or more.`,
  },
  {
    // transformer_config.py@core_v0.19.0:1394-1398 (@d98e8a6:1521-1525).
    when: (m) => {
      const n = whole(m, 'dsa_indexer_skip_topk_offset');
      return dsa(m) && n !== undefined && n < 0 ? 'dsa_indexer_skip_topk_offset' : undefined;
    },
    since: '0.19.0',
    message: (m) => `${named(m, '--dsa-indexer-skip-topk-offset', String(whole(m, 'dsa_indexer_skip_topk_offset')))}: Megatron Core stops when it builds the model config ("dsa_indexer_skip_topk_offset must be non-negative"). Use 0 (the default) or more.`,
  },
  {
    // DSAIndexer.__init__: experimental_attention_variant/dsa.py@core_v0.16.0:374-378 and 411-414, @d98e8a6:1123-1127
    // and 1158-1162 (when the attention layers are built; the fields have no default).
    when: (m) => (dsa(m) && mla(m) && indexerSizeMissing(m).length > 0 ? 'experimental_attention_variant' : undefined),
    since: '0.16.0',
    message: (m) => `${named(m, '--experimental-attention-variant', 'dsa')} without ${indexerSizeMissing(m).map((f) => named(m, f)).join(' and ')}: the indexer's projections are sized from its head count and head size, which have no default, and Megatron Core crashes when it builds the attention layers (a TypeError on None). Set ${indexerSizeMissing(m).length > 1 ? 'both' : 'it'}.`,
  },
  {
    // The cuDNN DSA kernels check the scoring on their first call: experimental_attention_variant/dsa_cudnn_kernels.py@core_v0.19.0:143-147
    // (from 217, 1335 and 1404), reached when dsa_kernels.use_fused_dsa_kernels holds (dsa_kernels.py@core_v0.19.0:92-97: a
    // kernel backend and an attention backend other than unfused).
    when: (m) => (dsa(m) && mla(m) && argValue(m, 'dsa_kernel_backend') === 'cudnn' && argOff(m, 'dsa_indexer_scoring_relu') && !argAbsent(m, 'dsa_indexer_scoring_relu') && argValue(m, 'attention_backend') !== 'unfused' ? 'dsa_indexer_scoring_relu' : undefined),
    since: '0.19.0',
    message: (m) => `${named(m, '--no-dsa-indexer-scoring-relu')} with ${named(m, '--dsa-kernel-backend', 'cudnn')}: the cuDNN DSA kernels score with the ReLU only, and Megatron Core stops on the first training step ("cuDNN fused DSA kernels currently require dsa_indexer_scoring_relu=True."). Keep the ReLU, or use another DSA kernel backend.`,
  },
  {
    // The indexer's top-k selection: dsa.py@core_v0.16.0:609, @d98e8a6:600 (on the first training step).
    when: (m) => (dsa(m) && mla(m) && argAbsent(m, 'dsa_indexer_topk') ? 'experimental_attention_variant' : undefined),
    since: '0.16.0',
    message: (m) => `${named(m, '--experimental-attention-variant', 'dsa')} without ${named(m, '--dsa-indexer-topk')}: the number of keys each query attends to has no default, and Megatron Core crashes on the first training step when the indexer selects them (\`min(None, …)\`, a TypeError). Set ${named(m, '--dsa-indexer-topk')}.`,
  },
  {
    // transformer_config.py@core_v0.16.0:1987-1990 to @core_v0.18.2 (in 0.19 the check moved into the attention's forward pass).
    when: (m) => (dsa(m) && (argNum(m, 'context_parallel_size') ?? 1) > 1 ? 'context_parallel_size' : undefined),
    since: '0.16.0',
    before: '0.19.0',
    message: () => 'DeepSeek sparse attention with context parallelism: before Megatron Core 0.19 it has none, and Megatron Core stops when it builds the model config ("Currently context parallelism is not supported by DSAttention!"). Use CP 1, or Megatron Core 0.19 or later with `--cp-comm-type allgather`.',
  },
  ...(
    [
      // dsa.py@core_v0.19.0:1805-1808: the attention's forward pass asserts it.
      ['0.19.0', '0.20.0', 'Megatron Core stops on the first forward pass of the attention'],
      // @d98e8a6:3164-3176 (after core_v0.19.0): the model config asserts it for every layer's type.
      ['0.20.0', undefined, 'Megatron Core stops when it builds the model config'],
    ] as const
  ).map(
    ([since, before, where]): ArgCheck => ({
      when: (m) => {
        if (!dsa(m) || (argNum(m, 'context_parallel_size') ?? 1) <= 1) return undefined;
        const types = cpCommTypes(m);
        return types && types.some((t) => t.replace(/_/g, '').toLowerCase() !== 'allgather') ? 'context_parallel_size' : undefined;
      },
      since,
      before,
      message: (m) => `DeepSeek sparse attention with context parallelism and ${argAbsent(m, 'cp_comm_type') ? 'the default `--cp-comm-type p2p`' : `${named(m, '--cp-comm-type')} ${String(cpCommTypes(m)!.join(' '))}`}: ${where} ("DSAttention context parallelism currently supports cp_comm_type=allgather only."). Use ${named(m, '--cp-comm-type', 'allgather')}.`,
    }),
  ),
  {
    // transformer_config.py@core_v0.16.0:948-951 (@d98e8a6:1474-1477): the interleaving of linear and
    // full attention layers has no default (gdn2 is built for the hybrid pattern without it).
    when: (m) => (['gated_delta_net', 'gdn'].includes(String(variant(m))) && argAbsent(m, 'linear_attention_freq') ? 'experimental_attention_variant' : undefined),
    since: '0.16.0',
    message: (m) => `${named(m, '--experimental-attention-variant', String(variant(m)))} without ${named(m, '--linear-attention-freq')}: the pattern of gated-delta-net and full attention layers has no default, and Megatron Core stops when it builds the model config ("linear_attention_freq must be set for linear gdn."). Add ${named(m, '--linear-attention-freq')} (every N-th layer full attention, or a per-layer list).`,
  },
  {
    // experimental_attention_variant_module_specs.py@core_v0.16.0:329-333 (@d98e8a6:470-476): a list
    // pattern gives one entry per layer (an expression such as `([1]*3+[0])*2` is not judged).
    when: (m) => {
      const list = patternList(m, 'linear_attention_freq');
      const l = argNum(m, 'num_layers');
      return ['gated_delta_net', 'gdn', 'gdn2'].includes(String(variant(m))) && list && l !== undefined && list.length !== l ? 'linear_attention_freq' : undefined;
    },
    since: '0.16.0',
    message: (m) => `${named(m, '--linear-attention-freq')} lists ${patternList(m, 'linear_attention_freq')!.length} layers, and the model has ${argNum(m, 'num_layers')}: the pattern gives one entry per layer, and Megatron Core stops when it builds the layer specs ("Invalid length of linear_attention_pattern: …"). Give one entry per layer, or a number N (every N-th layer full attention).`,
  },
  {
    // @d98e8a6:1437-1440 (after core_v0.19.0), whatever the attention variant.
    when: (m) => {
      const n = whole(m, 'gdp_num_householder');
      return n !== undefined && n < 1 ? 'gdp_num_householder' : undefined;
    },
    since: '0.20.0',
    message: (m) => `${named(m, '--gdp-num-householder', String(whole(m, 'gdp_num_householder')))}: Megatron Core stops when it builds the model config ("gdp_num_householder must be positive"), whether or not the model has gated delta product layers. Use 1 or more (3 by default).`,
  },
  {
    // transformer_config.py@core_v0.13.0:1231 (@d98e8a6:3138-3139).
    when: (m) => (noRopeOn(m) && argOn(m, 'flash_decode') ? 'no_rope_freq' : undefined),
    since: '0.13.0',
    message: (m) => `${named(m, '--no-rope-freq')} with ${named(m, '--flash-decode')}: Megatron Core stops when it builds the model config ("flash_decode cannot be used with no_rope."). Drop one of them.`,
  },
  {
    // transformer_config.py@core_v0.13.0:1243-1247 (@d98e8a6:3149-3153).
    when: (m) => {
      const list = noRopeList(m);
      const l = argNum(m, 'num_layers');
      return list && list.length > 0 && l !== undefined && list.length !== l ? 'no_rope_freq' : undefined;
    },
    since: '0.13.0',
    message: (m) => `${named(m, '--no-rope-freq')} lists ${noRopeList(m)!.length} layers, and the model has ${argNum(m, 'num_layers')}: a list pattern gives one entry per layer, and Megatron Core stops when it builds the model config ("Length of no_rope list (${noRopeList(m)!.length}) must match the number of layers (${argNum(m, 'num_layers')})"). Give one entry per layer, or a number that divides the layer count.`,
  },
  {
    // A `--yaml-cfg` file names its activation (yaml_arguments.py@core_v0.7.0, @d98e8a6:408-418), and
    // transformer_config.py@core_v0.7.0 on (@d98e8a6:2467-2469) stores the FP8 input only for SwiGLU.
    when: (m) => {
      const f = argValue(m, 'activation_func');
      return m.args.yamlCfg && argOn(m, 'activation_func_fp8_input_store') && typeof f === 'string' && f !== 'swiglu' ? 'activation_func_fp8_input_store' : undefined;
    },
    formats: ['megatron-yaml'],
    since: '0.7.0',
    message: (m) => `${named(m, '--activation-func-fp8-input-store', 'true')} with ${named(m, '--activation-func', String(argValue(m, 'activation_func')))}: the FP8 copy of the activation input is made only for SwiGLU, and Megatron Core stops when it builds the model config ("Storing activation input in FP8 is supported only for SwiGLU."). Use \`swiglu\`, or drop the FP8 input store.`,
  },
  ...mhcChecks(),
];

/** Manifold hyper-connections (transformer_config.py@d98e8a6:2028-2125, after core_v0.19.0). */
function mhcChecks(): ArgCheck[] {
  const on = (what: (m: MegatronModel) => string | undefined, quote: string, todo: string): ArgCheck => ({
    when: (m) => (mhc(m) ? what(m) : undefined),
    since: '0.20.0',
    message: (m) => `${named(m, '--enable-mhc-connections')} with ${describe(m, what(m)!)}: Megatron Core stops when it builds the model config ("${quote}"). ${todo}`,
  });
  return [
    on((m) => (argGiven(m, 'mtp_num_layers') ? 'mtp_num_layers' : undefined), 'enable_mhc_connections is not compatible with Multi-Token Prediction (MTP).', 'Leave out the multi-token prediction layers, or the hyper-connections.'),
    on((m) => (recomputeGranularity(m) === 'full' ? 'recompute_granularity' : undefined), 'enable_mhc_connections is not yet compatible with full activation recompute.', 'Use selective recompute with `mhc` in the recompute modules, or no recompute.'),
    on((m) => ((argNum(m, 'pipeline_model_parallel_size') ?? 1) > 1 ? 'pipeline_model_parallel_size' : undefined), 'enable_mhc_connections does not support pipeline_model_parallel_size > 1 yet.', 'Use PP 1.'),
    on((m) => (argOn(m, 'fp32_residual_connection') ? 'fp32_residual_connection' : undefined), 'enable_mhc_connections is not compatible with fp32_residual_connection.', 'Drop the fp32 residual connection.'),
    on((m) => ((whole(m, 'mhc_sinkhorn_iterations') ?? 1) < 1 ? 'mhc_sinkhorn_iterations' : undefined), 'mhc_sinkhorn_iterations must be >= 1', 'Use 1 or more (20 by default).'),
    on((m) => ((argReal(m, 'mhc_init_gating_factor') ?? 0) < 0 ? 'mhc_init_gating_factor' : undefined), 'mhc_init_gating_factor must be non-negative', 'Use 0 or more (0.01 by default).'),
    {
      when: (m) => (mhcRecompute(m) && argOff(m, 'enable_mhc_connections') ? 'recompute_modules' : undefined),
      since: '0.20.0',
      message: (m) => `${named(m, '--recompute-modules')} has \`mhc\` without ${named(m, '--enable-mhc-connections')}: Megatron Core stops when it builds the model config ("'mhc' in recompute_modules requires enable_mhc_connections=True."). Remove \`mhc\`, or turn the hyper-connections on.`,
    },
    {
      when: (m) => (mhcRecompute(m) && (argWords(m, 'recompute_modules') ?? []).includes('mlp') ? 'recompute_modules' : undefined),
      since: '0.20.0',
      message: (m) => `${named(m, '--recompute-modules')} has both \`mhc\` and \`mlp\`: their checkpoints would conflict, and Megatron Core stops when it builds the model config ("'mhc' and 'mlp' in recompute_modules cannot be used together."). Keep one.`,
    },
    {
      when: (m) => {
        const n = argReal(m, 'mhc_recompute_layer_num');
        return mhcRecompute(m) && n !== undefined && (!Number.isInteger(n) || n < 1) ? 'mhc_recompute_layer_num' : undefined;
      },
      since: '0.20.0',
      message: (m) => `${named(m, '--mhc-recompute-layer-num', String(argValue(m, 'mhc_recompute_layer_num')))} with \`mhc\` recompute: Megatron Core stops when it builds the model config ("mhc_recompute_layer_num must be a positive integer when 'mhc' is in recompute_modules."). Use 1 or more, or leave it out.`,
    },
    {
      when: (m) => (mhcRecompute(m) && argOn(m, 'fine_grained_activation_offloading') ? 'recompute_modules' : undefined),
      since: '0.20.0',
      message: (m) => `${named(m, '--recompute-modules')} has \`mhc\` with ${named(m, '--fine-grained-activation-offloading')}: Megatron Core stops when it builds the model config ("'mhc' in recompute_modules + fine_grained_activation_offloading is not yet supported."). Disable one of them.`,
    },
  ];
}

function describe(m: MegatronModel, dest: string): string {
  switch (dest) {
    case 'mtp_num_layers': return named(m, '--mtp-num-layers', String(argValue(m, 'mtp_num_layers')));
    case 'recompute_granularity': return 'full activation recompute';
    case 'pipeline_model_parallel_size': return `PP ${argNum(m, 'pipeline_model_parallel_size')}`;
    case 'fp32_residual_connection': return named(m, '--fp32-residual-connection');
    default: return named(m, `--${dest.replace(/_/g, '-')}`, String(argValue(m, dest)));
  }
}

export const ARCH_CHECKS: ArgCheck[] = [...MLM_CHECKS, ...CONFIG_CHECKS];

export const ARCH_WHY =
  'Further attention, position-embedding and activation settings are refused too. Megatron-LM\'s argument checks stop at startup on `--rotary-interleaved` beside the RoPE fusion, which is on unless `--no-rope-fusion` (0.5 to 0.13, whatever the position embedding type), without `--use-mcore-models` (0.5 to 0.7) or with `--use-legacy-models` (0.8 to 0.17), and on `--cross-entropy-loss-fusion` in `--deterministic-mode` (from 0.9; from 0.19 also `--tp-comm-overlap` there; Megatron Bridge, when it validates an override, refuses the fused cross-entropy in deterministic mode from Bridge 0.2, Megatron Core 0.15); its config builder on a `--rope-type` other than `rope` without multi-latent attention (from 0.14), on `--heterogeneous-layers-config-path` with multi-latent attention (from 0.12) and on `--quick-geglu` with `--swiglu` (from 0.15). Megatron Core refuses, when it builds the model config or the layer specs: Transformer Engine\'s activation (`--use-te-activation-func`) with squared ReLU or quick GeGLU (from 0.15); in a Megatron-LM script whose position embeddings are rotary and whose RoPE fusion is on, multi-latent attention (0.11, 0.12), MLA with `--rope-type rope` (from 0.13) or with `--cache-mla-latents` (from 0.14), and DeepSeek sparse attention (`--experimental-attention-variant dsa`, from 0.16; in a Bridge override `model.apply_rope_fusion: true`); DeepSeek sparse attention without `--multi-latent-attention` (a Megatron-LM script, from 0.16), with context parallelism (0.16 to 0.18; from 0.19 unless every `--cp-comm-type` is `allgather`: in 0.19 on the first forward pass), with linear biases (on unless `--disable-bias-linear`), a `--dsa-indexer-topk-freq` below 1 or a negative `--dsa-indexer-skip-topk-offset` (from 0.19); and a Megatron-LM script with DeepSeek sparse attention and MLA that leaves out `--dsa-indexer-n-heads` or `--dsa-indexer-head-dim` (a crash when the layers are built) or `--dsa-indexer-topk` (a crash on the first step), from 0.16; from 0.19, `--no-dsa-indexer-scoring-relu` with the cuDNN DSA kernels (on the first step); gated delta net without `--linear-attention-freq` or with a list pattern whose length is not the layer count (from 0.16); a `--no-rope-freq` beside `--flash-decode`, or a list pattern whose length is not the layer count (from 0.13); in a `--yaml-cfg` file, `activation_func_fp8_input_store` with an activation other than `swiglu` (from 0.7); and from 0.20 a `--gdp-num-householder` below 1, and manifold hyper-connections (`--enable-mhc-connections`) with multi-token prediction, full recompute, pipeline parallelism, an fp32 residual, fewer than one Sinkhorn iteration or a negative gating factor, and `mhc` selective recompute without the hyper-connections, beside `mlp` recompute or fine-grained activation offloading, or with a `--mhc-recompute-layer-num` below 1. From 0.20 the gated-delta-net head checks also apply to its new names `gdn` and `gdn2`.';
