/**
 * MoE refusals Megatron Core makes when it builds the model's modules (the expert MLPs, the shared
 * experts, the token dispatcher, the router) or, for the grouped-weight and legacy grouped-GEMM
 * options, when it builds the model config; and the Megatron-LM argument checks on the legacy
 * grouped GEMM. Part of moe-config-invalid. Lines at the first release with the check and at d98e8a6.
 */
import { argAbsent, argGiven, argNum, argOff, argOn, argOnByDefault, argOr, argValue, argWords, MLM_FLAG_FORMATS, recomputeGranularity, type MegatronModel } from '../../formats/megatron/model';
import { named, type ArgCheck } from '../../formats/megatron/checks';
import type { Plan } from '../../plan/plan';
import { untracked } from '../certain';

const experts = (m: MegatronModel): boolean => (argNum(m, 'num_moe_experts') ?? 0) > 0;
const grouped = (m: MegatronModel): boolean => experts(m) && argOn(m, 'moe_grouped_gemm');
const opFuser = (m: MegatronModel): boolean => argOn(m, 'use_transformer_engine_op_fuser');

/** The legacy GroupedMLP switch (Megatron-LM 0.11-0.16): on as written; a file that cannot write it has it off. */
const legacyOn = (m: MegatronModel): boolean => untracked(m.args).get('moe_use_legacy_grouped_gemm') !== undefined && argOn(m, 'moe_use_legacy_grouped_gemm');
const legacyOff = (m: MegatronModel): boolean => untracked(m.args).get('moe_use_legacy_grouped_gemm') === undefined || argOff(m, 'moe_use_legacy_grouped_gemm');

/** The layer implementation, when known (Megatron-LM's default is Transformer Engine from 0.6). */
const impl = (m: MegatronModel): unknown => argOr(m, 'transformer_impl', 'transformer_engine');
const teImpl = (m: MegatronModel): boolean => impl(m) === 'transformer_engine' || impl(m) === 'inference_optimized';

/** The experts are Transformer Engine's grouped MLP (TEGroupedMLP): grouped GEMM on the Transformer Engine layers, not the legacy one. */
const teGrouped = (m: MegatronModel): boolean => grouped(m) && teImpl(m) && legacyOff(m);
/** The experts are the legacy GroupedMLP: grouped GEMM with the legacy switch or the local layers (up to 0.16). */
const legacyGrouped = (m: MegatronModel): boolean => grouped(m) && (legacyOn(m) || impl(m) === 'local');

/** Shared experts built as one grouped GEMM (`--use-grouped-gemm-for-shared-expert`, 0.19 on) in an MoE model. */
const sharedGrouped = (m: MegatronModel): boolean =>
  experts(m) && (argNum(m, 'moe_shared_expert_intermediate_size') ?? 0) > 0 && argOn(m, 'use_grouped_gemm_for_shared_expert');
/** The experts each token is routed to: as written, or Megatron's default of 2. */
const topk = (m: MegatronModel): number | undefined => (argAbsent(m, 'moe_router_topk') ? 2 : argNum(m, 'moe_router_topk'));
/** Linear biases: on unless `--disable-bias-linear`. */
const biases = (m: MegatronModel): boolean => argOnByDefault(m, 'add_bias_linear');
/** How the file turns the linear biases off: `--disable-bias-linear`, or `add_bias_linear: false` in a config-field format. */
export const noBiasText = (m: MegatronModel): string => (untracked(m.args).configFields ? named(m, '--add-bias-linear', 'false') : '`--disable-bias-linear`');
const biasText = (m: MegatronModel): string => (argAbsent(m, 'add_bias_linear') ? ` (on unless ${noBiasText(m)})` : '');

/** Why the fused TE op-fuser expert MLP cannot be built, when a reason is known (experts.py, _is_fused_impl_supported). */
function fuserRefusal(m: MegatronModel, p: Plan | undefined): string | undefined {
  if ((p?.etp.value ?? 1) > 1) return `expert tensor parallelism ${p!.etp.value}${argAbsent(m, 'expert_tensor_parallel_size') ? ' (the TP size, its default)' : ''}`;
  if (argOn(m, 'moe_apply_probs_on_input')) return named(m, '--moe-apply-probs-on-input');
  const modules = argWords(m, 'offload_modules') ?? [];
  const off = modules.find((x) => x === 'expert_fc1' || x === 'moe_act');
  if (argOn(m, 'fine_grained_activation_offloading') && off) return `offloading \`${off}\` activations`;
  return undefined;
}

/** The expert activation is one the fused op cannot take: GeLU (no SwiGLU, quick GeGLU or fused weighted squared ReLU). Megatron-LM flags only. */
const unfusedActivation = (m: MegatronModel): boolean =>
  argOff(m, 'swiglu') && argOff(m, 'quick_geglu') && (argOff(m, 'squared_relu') || argOff(m, 'use_fused_weighted_squared_relu'));

/** The FP8 recipe the config sees (default `delayed`), when FP8 is on. */
const fp8Recipe = (m: MegatronModel): unknown => argOr(m, 'fp8_recipe', 'delayed');
const fp4Recipe = (m: MegatronModel): unknown => argOr(m, 'fp4_recipe', 'nvfp4');
const fp8Off = (m: MegatronModel): boolean => argAbsent(m, 'fp8') || argValue(m, 'fp8') === null;
const fp4Off = (m: MegatronModel): boolean => argAbsent(m, 'fp4') || argValue(m, 'fp4') === null;
/** A quantized recipe a single grouped weight cannot take (0.19 on): FP8 other than MXFP8, or FP4 other than NVFP4. */
function badRecipe(m: MegatronModel): string | undefined {
  const r8 = fp8Recipe(m);
  if (argGiven(m, 'fp8') && typeof r8 === 'string' && r8 !== 'mxfp8') return `the FP8 recipe \`${r8}\`${argAbsent(m, 'fp8_recipe') ? ' (the default)' : ''}`;
  const r4 = fp4Recipe(m);
  if (argGiven(m, 'fp4') && typeof r4 === 'string' && r4 !== 'nvfp4') return `the FP4 recipe \`${r4}\``;
  return undefined;
}
const singleWeight = (m: MegatronModel): boolean => grouped(m) && argOn(m, 'moe_single_grouped_weight');

/** The flex dispatcher backend (0.16 on; default `deepep`), when known. */
const flexBackend = (m: MegatronModel): unknown => argOr(m, 'moe_flex_dispatcher_backend', 'deepep');
const flex = (m: MegatronModel): boolean => experts(m) && argValue(m, 'moe_token_dispatcher_type') === 'flex';
/** TP×EP as the flex dispatcher counts it: the expert tensor-parallel size times EP. */
const tpEp = (p: Plan | undefined): number | undefined => (p ? p.etp.value * p.ep.value : undefined);

/** The aux-loss coefficient is a known number other than 0 (or a list with one). */
function auxLoss(m: MegatronModel): boolean {
  const v = argValue(m, 'moe_aux_loss_coeff');
  const nums = (Array.isArray(v) ? v : [v]).map((x) => (typeof x === 'number' ? x : typeof x === 'string' && /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(x) ? Number(x) : NaN));
  return nums.some((n) => Number.isFinite(n) && n !== 0);
}

/** The one load-balancing type written (a string, or a list of one from 0.14). */
function balancingIs(m: MegatronModel, type: string): boolean {
  const v = argValue(m, 'moe_router_load_balancing_type');
  return v === type || (Array.isArray(v) && v.length === 1 && v[0] === type);
}

/** What these checks refuse, for the rule's documentation. */
export const BUILD_WHY = 'When Megatron Core builds the MoE modules it also stops on: Transformer Engine\'s op fuser (`--use-transformer-engine-op-fuser`) with grouped-GEMM experts it cannot fuse, that is GeLU experts (no `--swiglu`), expert tensor parallelism above 1, `--moe-apply-probs-on-input` or offloaded `expert_fc1`/`moe_act` activations (from 0.18); one grouped expert weight (`--moe-single-grouped-weight`) outside FP8 with the MXFP8 recipe (0.18), with another quantized recipe (from 0.19), without the op fuser (0.19) or without the grouped expert tensor (from 0.20); linear biases, on unless `--disable-bias-linear`, in the legacy grouped GEMM (to 0.16), in Transformer Engine\'s grouped experts (from 0.15 only beside the fused bias-dropout, and with GeLU experts beside the fused bias-GeLU; before, the model config refuses any MoE bias first) and in the shared experts (from 0.10); `--moe-apply-probs-on-input` with a top-k other than 1 (from 0.12, on the first step); the shared experts as one grouped GEMM (`--use-grouped-gemm-for-shared-expert`, from 0.19) without SwiGLU or without `--moe-shared-expert-glu-interleave-size`; the flex dispatcher without `--moe-enable-deepep` (0.12 to 0.15) or with expert TP × EP of 1 (from 0.12; from 0.18 only on the DeepEP and NCCL-EP backends); and Sinkhorn load balancing with an aux-loss coefficient (on the first step). `--moe-use-legacy-grouped-gemm` is refused with `--delay-wgrad-compute` (0.13 to 0.16), the legacy grouped GEMM with `moe_act` recomputed in FP8 of a recipe other than delayed scaling, or (0.16) in FP4 (0.14 to 0.16), and in 0.16 with `--moe-latent-size` or an RL inference expert-parallel size other than the training one.';

export const BUILD_CHECKS: ArgCheck[] = [
  {
    // experts.py@core_v0.18.0:269-272, @d98e8a6:287-290 (TEGroupedMLP.__init__ asserts _is_fused_impl_supported).
    when: (m, p) => (opFuser(m) && teGrouped(m) && fuserRefusal(m, p) ? 'use_transformer_engine_op_fuser' : undefined),
    since: '0.18.0',
    message: (m, p) => `${named(m, '--use-transformer-engine-op-fuser')} with grouped-GEMM experts and ${fuserRefusal(m, p)}: the fused expert MLP supports neither, and Megatron Core stops when it builds the model ("Fused GroupedMLP is not supported for this configuration."). Drop the op fuser, or remove what it cannot take.`,
  },
  {
    // The activation: experts.py@core_v0.18.0:339-356, @d98e8a6:419-445 (SwiGLU, quick GeGLU or fused weighted squared ReLU only).
    when: (m, p) => (opFuser(m) && teGrouped(m) && !fuserRefusal(m, p) && unfusedActivation(m) ? 'use_transformer_engine_op_fuser' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.18.0',
    message: (m) => `${named(m, '--use-transformer-engine-op-fuser')} with grouped-GEMM experts and the GeLU activation (no ${named(m, '--swiglu')}): the fused expert MLP takes only SwiGLU, quick GeGLU or the fused weighted squared ReLU, and Megatron Core stops when it builds the model ("Fused GroupedMLP is not supported for this configuration."). Use ${named(m, '--swiglu')}, or drop the op fuser.`,
  },
  {
    // transformer_config.py@core_v0.18.0:1425-1436 (removed in 0.19.0).
    when: (m) => (singleWeight(m) && (!fp4Off(m) || fp8Off(m) || (argGiven(m, 'fp8') && fp8Recipe(m) !== 'mxfp8' && fp8Recipe(m) !== undefined)) ? 'moe_single_grouped_weight' : undefined),
    since: '0.18.0',
    before: '0.19.0',
    message: (m) => `${named(m, '--moe-single-grouped-weight')} without FP8 training on the MXFP8 recipe: Megatron Core 0.18 allows one grouped expert weight only there, and stops when it builds the model config ("moe_single_grouped_weight is currently supported only with fp8 mode and fp8_recipe='mxfp8'."). Train with ${named(m, '--fp8-recipe', 'mxfp8')}, or drop the flag.`,
  },
  {
    // transformer_config.py@core_v0.19.0:1567-1578, @d98e8a6:1718-1730.
    when: (m) => (singleWeight(m) && badRecipe(m) ? 'moe_single_grouped_weight' : undefined),
    since: '0.19.0',
    message: (m) => `${named(m, '--moe-single-grouped-weight')} with ${badRecipe(m)}: Megatron Core stops when it builds the model config ("moe_single_grouped_weight is currently supported with high-precision primary weights, fp8_recipe='mxfp8', or fp4_recipe='nvfp4'."). Use the MXFP8 or NVFP4 recipe, or drop the flag.`,
  },
  {
    // transformer_config.py@core_v0.19.0:1579-1585 (0.19 only; 0.20 asks for the grouped tensor instead).
    when: (m) => (singleWeight(m) && !badRecipe(m) && argOff(m, 'use_transformer_engine_op_fuser') ? 'moe_single_grouped_weight' : undefined),
    since: '0.19.0',
    before: '0.20.0',
    message: (m) => `${named(m, '--moe-single-grouped-weight')} without Transformer Engine's op fuser: the unfused grouped linear layers split the weight per expert, and Megatron Core 0.19 stops when it builds the model config ("moe_single_grouped_weight requires use_transformer_engine_op_fuser=True. …"). Turn on ${named(m, '--use-transformer-engine-op-fuser')} (with ${named(m, '--swiglu')}), or drop the flag.`,
  },
  {
    // transformer_config.py@d98e8a6:1736-1737, 1741-1742 (the op fuser with grouped GEMM turns the grouped tensor on: 1410-1411).
    when: (m) => {
      if (!grouped(m) || !argOff(m, 'use_transformer_engine_op_fuser') || !argOff(m, 'moe_use_grouped_tensor')) return undefined;
      if (argOn(m, 'moe_single_grouped_weight') && !badRecipe(m)) return 'moe_single_grouped_weight';
      return argOn(m, 'moe_single_grouped_bias') && argOnByDefault(m, 'add_bias_linear') ? 'moe_single_grouped_bias' : undefined;
    },
    since: '0.20.0',
    message: (m) => `${argOn(m, 'moe_single_grouped_weight') ? named(m, '--moe-single-grouped-weight') : named(m, '--moe-single-grouped-bias')} without the grouped expert tensor: Megatron Core stops when it builds the model config ("${argOn(m, 'moe_single_grouped_weight') ? 'moe_single_grouped_weight' : 'moe_single_grouped_bias'} requires moe_use_grouped_tensor=True."). Add ${named(m, '--moe-use-grouped-tensor')} (Transformer Engine's op fuser turns it on too), or drop the flag.`,
  },
  {
    // arguments.py@core_v0.16.0:1273 (and GroupedMLP.__init__, experts.py@core_v0.16.0:85-87).
    when: (m) => ((argNum(m, 'moe_latent_size') ?? 0) > 0 && legacyOn(m) ? 'moe_use_legacy_grouped_gemm' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.16.0',
    before: '0.17.0',
    message: () => '`--moe-use-legacy-grouped-gemm` with `--moe-latent-size`: the legacy GroupedMLP has no latent projections, and Megatron-LM stops at startup ("MoE latent projection is not supported yet with legacy grouped GEMM."). Drop `--moe-use-legacy-grouped-gemm`.',
  },
  {
    // arguments.py@core_v0.16.0:352-364, inside `if args.perform_rl_step:`.
    when: (m, p) => {
      const inf = argNum(m, 'rl_inference_expert_model_parallel_size');
      return argOn(m, 'perform_rl_step') && legacyOn(m) && inf !== undefined && p !== undefined && inf !== p.ep.value ? 'moe_use_legacy_grouped_gemm' : undefined;
    },
    formats: MLM_FLAG_FORMATS,
    since: '0.16.0',
    before: '0.17.0',
    message: (m, p) => `\`--moe-use-legacy-grouped-gemm\` with an RL inference expert-parallel size (${argNum(m, 'rl_inference_expert_model_parallel_size')}) other than the training one (${p?.ep.value}): the legacy GroupedMLP cannot be re-sharded between them, and Megatron-LM stops at startup ("Legacy GroupedMLP (--moe-use-legacy-grouped-gemm) is not supported when using different expert parallelism sizes for inference and training. …"). Drop \`--moe-use-legacy-grouped-gemm\`.`,
  },
  {
    // GroupedMLP.__init__: experts.py@core_v0.8.0:45-47 to @core_v0.16.1:81-83 (the legacy class is gone in 0.17).
    when: (m) => (legacyGrouped(m) && biases(m) ? (legacyOn(m) ? 'moe_use_legacy_grouped_gemm' : 'moe_grouped_gemm') : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.8.0',
    before: '0.17.0',
    message: (m) => `The legacy grouped-GEMM experts (${legacyOn(m) ? '`--moe-use-legacy-grouped-gemm`' : '`--moe-grouped-gemm` with `--transformer-impl local`'}) with linear biases${biasText(m)}: Megatron Core stops when it builds the experts ("bias not supported in Grouped GEMM yet, please set '--disable-bias-linear' instead."). Add \`--disable-bias-linear\`${legacyOn(m) ? ', or drop `--moe-use-legacy-grouped-gemm`' : ''}.`,
  },
  // GroupedMLP.__init__: experts.py@core_v0.14.0:132-137 to @core_v0.16.1 (FP4 too from 0.16.0:102-109).
  // The model config refuses delayed-scaling FP8 (the default recipe) with `moe_act` first (recompute-config-invalid).
  ...[
    { since: '0.14.0', before: '0.16.0', fp4: false },
    { since: '0.16.0', before: '0.17.0', fp4: true },
  ].map(
    (r): ArgCheck => ({
      when: (m) => {
        if (!legacyGrouped(m) || recomputeGranularity(m) !== 'selective' || !(argWords(m, 'recompute_modules') ?? []).includes('moe_act')) return undefined;
        const fp8 = !!argValue(m, 'fp8') && argGiven(m, 'fp8_recipe') && argValue(m, 'fp8_recipe') !== 'delayed';
        const fp4 = r.fp4 && !argValue(m, 'fp8') && !!argValue(m, 'fp4');
        return fp8 || fp4 ? (legacyOn(m) ? 'moe_use_legacy_grouped_gemm' : 'moe_grouped_gemm') : undefined;
      },
      formats: MLM_FLAG_FORMATS,
      since: r.since,
      before: r.before,
      message: (m) => `The legacy grouped-GEMM experts (${legacyOn(m) ? '`--moe-use-legacy-grouped-gemm`' : '`--moe-grouped-gemm` with `--transformer-impl local`'}) with \`moe_act\` in ${named(m, '--recompute-modules')} and ${argValue(m, 'fp8') ? 'FP8' : 'FP4'}: the legacy GroupedMLP cannot recompute a quantized activation, and Megatron Core stops when it builds the experts ("moe_act recompute for ${r.fp4 ? 'fp8 or fp4' : 'fp8'} cannot work with the legacy GroupedMLP."). Drop \`moe_act\` from the recompute modules${legacyOn(m) ? ', or drop `--moe-use-legacy-grouped-gemm`' : ''}.`,
    }),
  ),
  // TEGroupedMLP.__init__ refuses biases too (experts.py@core_v0.12.1:675-677 to @core_v0.14.0:761-763), but the
  // model config refuses any MoE bias first at those releases (moe-config-invalid, from 0.12.1).
  {
    // TEGroupedMLP.__init__: experts.py@core_v0.15.0:762-764, @d98e8a6:205-207.
    when: (m) => (teGrouped(m) && biases(m) && argOnByDefault(m, 'bias_dropout_fusion') ? 'moe_grouped_gemm' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.15.0',
    message: (m) => `${named(m, '--moe-grouped-gemm')} with linear biases${biasText(m)} and the fused bias-dropout${argAbsent(m, 'bias_dropout_fusion') ? ' (on by default)' : ''}: Megatron Core stops when it builds the experts ("bias_dropout_fusion is not supported in TEGroupedMLP when add_bias_linear=True"). Add ${named(m, '--disable-bias-linear')}, or ${named(m, '--no-bias-dropout-fusion')}.`,
  },
  {
    // TEGroupedMLP.forward: experts.py@core_v0.15.0:913-915, @d98e8a6:981-985 (biases with GeLU keep the
    // fused bias-GeLU on, which the grouped experts do not have; before 0.15 biases are refused outright).
    when: (m) => (teGrouped(m) && biases(m) && argValue(m, 'bias_dropout_fusion') === false && argOff(m, 'swiglu') && argOff(m, 'quick_geglu') && argOff(m, 'squared_relu') && argOff(m, 'use_te_activation_func') && argOnByDefault(m, 'bias_gelu_fusion') ? 'moe_grouped_gemm' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.15.0',
    message: (m) => `${named(m, '--moe-grouped-gemm')} with GeLU experts, linear biases${biasText(m)} and the fused bias-GeLU${argAbsent(m, 'bias_gelu_fusion') ? ' (on by default)' : ''}: Transformer Engine's grouped expert MLP fuses only SwiGLU and quick GeGLU, and Megatron Core stops on the first training step ("Only support fusion of swiglu and quick_gelu in TEGroupedMLP."). Add ${named(m, '--no-bias-gelu-fusion')}, or ${named(m, '--disable-bias-linear')}.`,
  },
  {
    // SharedExpertMLP.__init__: shared_experts.py@core_v0.10.0:37, @d98e8a6:124.
    when: (m) => (experts(m) && (argNum(m, 'moe_shared_expert_intermediate_size') ?? 0) > 0 && biases(m) ? 'moe_shared_expert_intermediate_size' : undefined),
    since: '0.10.0',
    message: (m) => `Shared experts (${named(m, '--moe-shared-expert-intermediate-size')}) with linear biases${biasText(m)}: the shared experts take no bias, and Megatron Core stops when it builds them ("bias is not supported in the shared experts, "). Set ${noBiasText(m)}.`,
  },
  {
    // The experts' forward pass (GroupedMLP, TEGroupedMLP, SequentialMLP): moe/experts.py@core_v0.12.0:224-227, 721-724,
    // 867-870, @d98e8a6:918-921, 1475-1478 (on the first training step).
    when: (m) => {
      const k = topk(m);
      return experts(m) && argOn(m, 'moe_apply_probs_on_input') && k !== undefined && k !== 1 && untracked(m.args).get('transformer_impl')?.value !== 'inference_optimized' ? 'moe_apply_probs_on_input' : undefined;
    },
    since: '0.12.0',
    message: (m) => `${named(m, '--moe-apply-probs-on-input')} with top-${topk(m)} routing${argAbsent(m, 'moe_router_topk') ? ' (the default)' : ''}: Megatron Core applies the routing probabilities to the expert input only with top-1 routing, and stops on the first training step ("\`moe_apply_probs_on_input\` only works with \`moe_router_topk\`=1."). Use ${named(m, '--moe-router-topk', '1')} (with ${named(m, '--moe-router-pre-softmax')} for softmax scores), or drop ${named(m, '--moe-apply-probs-on-input')}.`,
  },
  {
    // FusedSharedExpertMLP._validate_fused_grouped_swiglu: moe/shared_experts.py@core_v0.19.0:414-419, @d98e8a6:434-439.
    when: (m) => (sharedGrouped(m) && argAbsent(m, 'moe_shared_expert_glu_interleave_size') ? 'use_grouped_gemm_for_shared_expert' : undefined),
    since: '0.19.0',
    message: (m) => `${named(m, '--use-grouped-gemm-for-shared-expert')} without ${named(m, '--moe-shared-expert-glu-interleave-size')}: the fused grouped SwiGLU kernel of the shared experts reads the gate and up projections interleaved in blocks of that size, and Megatron Core stops when it builds the shared experts ("FusedSharedExpertMLP requires moe_shared_expert_glu_interleave_size to be set when use_grouped_gemm_for_shared_expert=True."). Set the interleave size, or drop ${named(m, '--use-grouped-gemm-for-shared-expert')}.`,
  },
  {
    // The same check, moe/shared_experts.py@core_v0.19.0:407-413, @d98e8a6:418-424: SwiGLU only (Megatron-LM's `--swiglu`, or `gated_linear_unit` written off in a config).
    when: (m, _p, ctx) => {
      if (!sharedGrouped(m)) return undefined;
      const mlm = (MLM_FLAG_FORMATS as readonly string[]).includes(ctx.format);
      if (mlm) return argOff(m, 'swiglu') ? 'use_grouped_gemm_for_shared_expert' : undefined;
      return argValue(m, 'gated_linear_unit') === false ? 'gated_linear_unit' : undefined;
    },
    since: '0.19.0',
    message: (m) => `${named(m, '--use-grouped-gemm-for-shared-expert')} without SwiGLU (${untracked(m.args).get('gated_linear_unit') !== undefined ? named(m, '--gated-linear-unit', 'false') : `no ${named(m, '--swiglu')}`}): the shared experts' fused grouped kernel is a SwiGLU kernel, and Megatron Core stops when it builds the shared experts ("FusedSharedExpertMLP requires SwiGLU activation …"). Use ${named(m, '--swiglu')}, or drop ${named(m, '--use-grouped-gemm-for-shared-expert')}.`,
  },
  {
    // MoEFlexTokenDispatcher.__init__: token_dispatcher.py@core_v0.12.0:924-926 to @core_v0.15.3 (0.16 picks a backend instead).
    when: (m) => (flex(m) && argOff(m, 'moe_enable_deepep') ? 'moe_token_dispatcher_type' : undefined),
    since: '0.12.0',
    before: '0.16.0',
    message: (m) => `${named(m, '--moe-token-dispatcher-type', 'flex')} without ${named(m, '--moe-enable-deepep')}: before Megatron Core 0.16 the flex dispatcher runs only on DeepEP, and Megatron Core stops when it builds the dispatcher ("DeepEP is not enabled. Please set --moe-enable-deepep to use DeepEP backend."). Add ${named(m, '--moe-enable-deepep')}, or use the \`alltoall\` dispatcher.`,
  },
  {
    // token_dispatcher.py@core_v0.12.0:923 to @core_v0.17.0:1360 (every flex backend).
    when: (m, p) => (flex(m) && tpEp(p) === 1 ? 'moe_token_dispatcher_type' : undefined),
    since: '0.12.0',
    before: '0.18.0',
    message: (m) => `${named(m, '--moe-token-dispatcher-type', 'flex')} with expert TP × EP of 1: there is nothing to exchange, and Megatron Core stops when it builds the dispatcher ("Flex token dispatcher requires TPxEP > 1"). Use the \`alltoall\` dispatcher, or set ${named(m, '--expert-model-parallel-size')} above 1.`,
  },
  {
    // token_dispatcher.py@core_v0.18.0:1421-1422, @d98e8a6:1835-1836 (DeepEP); NCCL-EP from 0.19 (@d98e8a6:1853-1854).
    when: (m, p) => {
      const b = flexBackend(m);
      return flex(m) && tpEp(p) === 1 && (b === 'deepep' || b === 'ncclep') ? 'moe_token_dispatcher_type' : undefined;
    },
    since: '0.18.0',
    message: (m) => `${named(m, '--moe-token-dispatcher-type', 'flex')} on the \`${String(flexBackend(m))}\` backend${argAbsent(m, 'moe_flex_dispatcher_backend') ? ' (the default)' : ''} with expert TP × EP of 1: Megatron Core stops when it builds the dispatcher ("${flexBackend(m) === 'ncclep' ? 'NCCL EP' : 'DeepEP'} dispatcher requires TPxEP > 1"). Use the \`alltoall\` dispatcher, or set ${named(m, '--expert-model-parallel-size')} above 1.`,
  },
  {
    // TopKRouter Sinkhorn balancing: router.py@core_v0.5.0:126, @d98e8a6:298 (on the first step).
    when: (m) => (experts(m) && balancingIs(m, 'sinkhorn') && auxLoss(m) ? 'moe_aux_loss_coeff' : undefined),
    since: '0.5.0',
    message: (m) => `${named(m, '--moe-aux-loss-coeff')} with Sinkhorn load balancing: Sinkhorn routing balances the load without an auxiliary loss, and Megatron Core stops on the first training step ("Sinkhorn routing does not support aux loss."). Set the coefficient to 0 (its default), or use ${named(m, '--moe-router-load-balancing-type', 'aux_loss')}.`,
  },
];
