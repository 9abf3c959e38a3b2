/**
 * moe-config-invalid: expert-parallel, MoE router and MoE-overlap arguments that Megatron rejects.
 */
import { argAbsent, argGiven, argNum, argOff, argOn, argValue, MEGATRON_FORMATS, argOr, argOnByDefault, argWords, recomputeGranularity, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { named, runChecks, setArg, type ArgCheck } from '../formats/megatron/checks';
import { untracked } from './certain';
import { defineRule } from './rule';
import { YAML_CFG_MOE_CHECKS } from '../formats/megatron/yaml-cfg-checks';
import { BUILD_CHECKS, BUILD_WHY, noBiasText } from './tables/moe-build';
import { MORE_MOE_CHECKS, MORE_MOE_WHY } from './tables/moe-more';

const overlap = (m: MegatronModel) => argOn(m, 'overlap_moe_expert_parallel_comm');
// The EP all-to-all overlap flag and every requirement Megatron Core checks for it arrive together
// (transformer_config.py@core_v0.14.0:1298-1337; none @core_v0.13.0): before, the flag itself is
// unknown, and no message quoted here exists.
const OVERLAP_SINCE = '0.14.0';

/**
 * `--delay-wgrad-compute` with the legacy grouped GEMM: Megatron-LM's argument checks refuse it at 0.13
 * (training/arguments.py@core_v0.13.0:1056-1058), the transformer config from 0.14 to 0.16
 * (transformer_config.py@core_v0.14.0:1344-1346, @core_v0.16.0:1913-1915); the flag is gone in 0.17.
 */
const LEGACY_GG_QUOTE = 'delay_wgrad_compute is not supported with legacy groupedgemm implementation';
const delayWithLegacyGg = (m: MegatronModel) => (argOn(m, 'delay_wgrad_compute') && argOn(m, 'moe_use_legacy_grouped_gemm') ? 'moe_use_legacy_grouped_gemm' : undefined);
const LEGACY_GG_TODO = 'Drop `--moe-use-legacy-grouped-gemm` (Transformer Engine\'s grouped GEMM is the default), or drop `--delay-wgrad-compute`.';

const DELAY_WGRAD_CHECKS: ArgCheck[] = [
  {
    when: delayWithLegacyGg,
    formats: MLM_FLAG_FORMATS,
    since: '0.13.0',
    before: '0.14.0',
    message: () => `\`--moe-use-legacy-grouped-gemm\` with \`--delay-wgrad-compute\`: the legacy grouped GEMM has no separate weight-gradient step to delay, and Megatron-LM stops at startup ("${LEGACY_GG_QUOTE}"). ${LEGACY_GG_TODO}`,
  },
  {
    when: delayWithLegacyGg,
    since: '0.14.0',
    before: '0.17.0',
    message: () => `\`--moe-use-legacy-grouped-gemm\` with \`--delay-wgrad-compute\`: the legacy grouped GEMM has no separate weight-gradient step to delay, and Megatron Core stops when it builds the model config ("${LEGACY_GG_QUOTE}"). ${LEGACY_GG_TODO}`,
  },
  {
    // training/arguments.py@core_v0.13.0:1059-1060; reworded from 0.14 (STARTUP_CHECKS below).
    when: (m) => (argOn(m, 'delay_wgrad_compute') && argValue(m, 'transformer_impl') === 'local' ? 'delay_wgrad_compute' : undefined),
    message: () => '`--delay-wgrad-compute` with `--transformer-impl local`: delaying the weight-gradient GEMMs is done by Transformer Engine\'s layers, and Megatron-LM stops at startup ("delay_wgrad_compute is only supported with transformer_engine implementation"). Use `--transformer-impl transformer_engine`, or drop `--delay-wgrad-compute`.',
    formats: MLM_FLAG_FORMATS,
    since: '0.13.0',
    before: '0.14.0',
  },
];

const CHECKS: ArgCheck[] = [
  {
    // From 0.8 Megatron-LM's argument checks turn `--num-experts 0` into a dense model (arguments.py@core_v0.8.0:524-525,
    // @d98e8a6:1648-1649; the next check covers 0.5 to 0.7); the model config refuses it (transformer_config.py@core_v0.5.0:178-179, @d98e8a6:1682-1683).
    when: (m) => ((argNum(m, 'num_moe_experts') ?? 1) <= 0 ? 'num_moe_experts' : undefined),
    formats: ['megatron-bridge', 'nemo'],
    since: '0.5.0',
    message: () => '`num_moe_experts: 0`: Megatron Core stops when it builds the model config ("num_moe_experts must be non-negative."; 0 is refused too). Leave `num_moe_experts` out (or null) for a dense model.',
  },
  {
    // Before 0.8 Megatron-LM's argument checks pass `--num-experts 0` on as written (no conversion
    // @core_v0.5.0, @core_v0.6.0, @core_v0.7.0; arguments.py@core_v0.5.0:456, training/arguments.py@core_v0.7.0:565
    // copy it into the config), and the model config refuses it (transformer_config.py@core_v0.5.0:178-179,
    // @core_v0.7.0:327-328), built before the model (pretrain_gpt.py@core_v0.7.0:55-59).
    when: (m) => (argNum(m, 'num_moe_experts') === 0 ? 'num_moe_experts' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.5.0',
    before: '0.8.0',
    message: () => '`--num-experts 0`: before Megatron Core 0.8 Megatron-LM takes 0 for an expert count (from 0.8 its argument checks make it a dense model): the argument checks apply their MoE rules to it and the model config refuses it ("num_moe_experts must be non-negative."), so the run stops at startup. Leave `--num-experts` out for a dense model.',
  },
  {
    when: (m, p) => ((p?.ep.value ?? 1) > 1 && argAbsent(m, 'num_moe_experts') ? 'expert_model_parallel_size' : undefined),
    // Megatron-LM's argument checks (arguments.py, yaml_arguments.py) stop first.
    formats: MLM_FLAG_FORMATS,
    message: () => 'Expert parallelism without experts: Megatron stops ("num_experts must be non None to use expert model parallelism"). Set `--num-experts`, or drop `--expert-model-parallel-size`.',
  },
  {
    when: (m, p) => ((p?.ep.value ?? 1) > 1 && argAbsent(m, 'num_moe_experts') ? 'expert_model_parallel_size' : undefined),
    // Megatron Bridge and NeMo run none of Megatron-LM's argument checks: Megatron Core's
    // TransformerConfig asserts it (transformer_config.py@core_v0.4.0 … @core_v0.19.0).
    formats: ['megatron-bridge', 'nemo'],
    message: () => 'Expert parallelism without experts: Megatron Core stops when it builds the model config ("num_moe_experts must be non None to use expert-parallel."). Set `num_moe_experts`, or drop `expert_model_parallel_size`.',
  },
  {
    when: (m, p) => {
      const e = argNum(m, 'num_moe_experts');
      return e !== undefined && (p?.ep.value ?? 1) > 1 && e % p!.ep.value !== 0 ? 'num_moe_experts' : undefined;
    },
    // Megatron-LM's argument checks (arguments.py, yaml_arguments.py) stop first.
    formats: MLM_FLAG_FORMATS,
    message: (m, p) => `${argNum(m, 'num_moe_experts')} experts do not split over EP ${p?.ep.value}: each EP rank needs the same number of experts, and Megatron stops ("Number of experts should be a multiple of expert model parallel_size"). Use an EP that divides ${argNum(m, 'num_moe_experts')}.`,
  },
  {
    when: (m, p) => {
      const e = argNum(m, 'num_moe_experts');
      return e !== undefined && (p?.ep.value ?? 1) > 1 && e % p!.ep.value !== 0 ? 'num_moe_experts' : undefined;
    },
    // Megatron Bridge and NeMo run no argument checks, but Megatron Core's MoE layer asserts the split
    // when it builds the model (transformer/moe/moe_layer.py@core_v0.5.0:28 … @core_v0.15.3:64; Bridge
    // runs 0.14 on; NeMo's Megatron Core model builds the same layer).
    formats: ['megatron-bridge', 'nemo'],
    message: (m, p) => `${argNum(m, 'num_moe_experts')} experts do not split over EP ${p?.ep.value}: each EP rank needs the same number of experts, and Megatron Core stops when it builds the MoE layers (an assertion that the experts are a multiple of the expert-parallel size). Use an EP that divides ${argNum(m, 'num_moe_experts')}.`,
  },
  {
    when: (m, p) => (overlap(m) && (p?.ep.value ?? 1) <= 1 ? 'overlap_moe_expert_parallel_comm' : undefined),
    since: OVERLAP_SINCE,
    message: () => 'EP all-to-all overlap without expert parallelism: Megatron stops ("overlap_moe_expert_parallel_comm is only supported with expert model parallelism"). Drop the flag or set `--expert-model-parallel-size`.',
  },
  {
    // A --pipeline-model-parallel-layout sets the virtual stages itself (its stage count over PP).
    when: (m, p) => (overlap(m) && (p?.pp.value ?? 1) > 1 && !p?.vpp && !m.args.get('pipeline_model_parallel_layout') ? 'overlap_moe_expert_parallel_comm' : undefined),
    since: OVERLAP_SINCE,
    message: (_m, p) => `EP all-to-all overlap with PP ${p?.pp.value} needs virtual pipeline stages: Megatron stops ("virtual_pipeline_model_parallel_size must be specified when pipeline_model_parallel_size > 1"). Add \`--num-virtual-stages-per-pipeline-rank\`, or drop the overlap.`,
  },
  {
    when: (m) => {
      const d = argValue(m, 'moe_token_dispatcher_type') ?? 'allgather';
      return overlap(m) && d !== 'alltoall' && d !== 'flex' ? 'overlap_moe_expert_parallel_comm' : undefined;
    },
    since: OVERLAP_SINCE,
    message: (m) => `EP all-to-all overlap needs the \`alltoall\` or \`flex\` token dispatcher, and this run uses \`${String(argValue(m, 'moe_token_dispatcher_type') ?? 'allgather')}\`${argValue(m, 'moe_token_dispatcher_type') ? '' : ' (the default)'}: Megatron stops. Set \`--moe-token-dispatcher-type alltoall\`.`,
    fix: (m) => setArg(m, 'alltoall-dispatcher', 'moe_token_dispatcher_type', 'alltoall', 'Use --moe-token-dispatcher-type alltoall'),
  },
  {
    // `--recompute-activations` makes the granularity selective first (recomputeGranularity).
    when: (m) => (overlap(m) && recomputeGranularity(m) === 'full' ? 'recompute_granularity' : undefined),
    since: OVERLAP_SINCE,
    message: () => 'EP all-to-all overlap does not work with full recomputation: Megatron stops ("disable full recomputation when enabling overlap_moe_expert_parallel_comm"). Use selective recomputation or none.',
  },
  {
    when: (m) => (overlap(m) && !argOn(m, 'bf16') && !argOn(m, 'fp16') ? 'overlap_moe_expert_parallel_comm' : undefined),
    since: OVERLAP_SINCE,
    message: () => 'EP all-to-all overlap needs a 16-bit model: Megatron stops ("overlap_moe_expert_parallel_comm is only supported with bf16 or fp16 model"). Add `--bf16`.',
    fix: (m) => setArg(m, 'bf16', 'bf16', true, 'Add --bf16'),
  },
  {
    when: (m) => (argOn(m, 'delay_wgrad_compute') && !overlap(m) ? 'delay_wgrad_compute' : undefined),
    // transformer_config.py@core_v0.14.0: the check first appears (the flag came in 0.13.0).
    since: '0.14.0',
    message: () => 'Delayed weight-gradient compute only exists to feed EP all-to-all overlap: Megatron stops ("overlap_moe_expert_parallel_comm must be enabled when enabling delay_wgrad_compute"). Add `--overlap-moe-expert-parallel-comm` or drop `--delay-wgrad-compute`.',
  },
  {
    when: (m) => (argOn(m, 'delay_wgrad_compute') && argOn(m, 'overlap_grad_reduce') ? 'delay_wgrad_compute' : undefined),
    // arguments.py@core_v0.13.0:1061-1062 refuses the pair outright; 0.14.0 allows it with a recent
    // Transformer Engine (a version this file cannot show).
    formats: MLM_FLAG_FORMATS,
    since: '0.13.0',
    before: '0.14.0',
    message: () => 'Delayed weight-gradient compute with overlapped gradient reduction: Megatron-LM 0.13 stops ("delay_wgrad_compute is not supported with overlap_grad_reduce"). Drop one of `--delay-wgrad-compute` and `--overlap-grad-reduce`, or use Megatron Core 0.14 or later (with Transformer Engine 2.7 or later).',
  },
];

/**
 * The flex dispatcher backend Megatron Core checks: as written, or its default `deepep`
 * (transformer_config.py@core_v0.18.0:799, @d98e8a6:898) when the file leaves it out; undefined when
 * neither is known (a Bridge override leaves it to the recipe).
 */
function flexBackend(m: MegatronModel): string | undefined {
  const b = argValue(m, 'moe_flex_dispatcher_backend');
  if (typeof b === 'string') return b;
  return argAbsent(m, 'moe_flex_dispatcher_backend') ? 'deepep' : undefined;
}

const capacity = (m: MegatronModel) => argGiven(m, 'moe_expert_rank_capacity_factor');
const backendIs = (m: MegatronModel, ...names: string[]) => {
  const b = flexBackend(m);
  return b !== undefined && names.includes(b);
};
const backendNot = (m: MegatronModel, ...names: string[]) => {
  const b = flexBackend(m);
  return b !== undefined && !names.includes(b);
};
function backendText(m: MegatronModel): string {
  const b = argValue(m, 'moe_flex_dispatcher_backend');
  return typeof b === 'string' ? `\`${b}\`` : '`deepep` (its default)';
}

/**
 * `moe_expert_rank_capacity_factor`, which TransformerConfig.__post_init__ checks whatever the
 * dispatcher or the model: from core_v0.18.0 it needs the HybridEP backend and Transformer Engine's
 * op fuser (transformer_config.py@core_v0.18.0:1515-1525); from 0.19.0 HybridEP or NCCL-EP, with
 * the op fuser for HybridEP (@core_v0.19.0:1692-1705), which 0.20.0 also lets the grouped expert
 * tensor satisfy (@d98e8a6:1868-1882).
 */
/** Experts as validate_args sees them: `--num-experts 0` is no experts. */
const noExperts = (m: MegatronModel): boolean => argAbsent(m, 'num_moe_experts') || argNum(m, 'num_moe_experts') === 0;

/**
 * Megatron-LM's argument checks (training/arguments.py, validate_args) on MoE options; each stops at
 * startup. Lines at the first release with the check and at d98e8a6.
 */
const STARTUP_CHECKS: ArgCheck[] = [
  {
    // @core_v0.9.0:621-623, @d98e8a6:1862-1864.
    when: (m) => (argOn(m, 'moe_use_upcycling') && argAbsent(m, 'save') ? 'moe_use_upcycling' : undefined),
    message: () => '`--moe-use-upcycling` without `--save`: upcycling turns a dense checkpoint into an MoE one and saves it, and Megatron-LM stops at startup ("When using upcycling, the --save option must be specified."). Add `--save` with the directory for the upcycled checkpoint.',
    formats: MLM_FLAG_FORMATS,
    since: '0.9.0',
  },
  {
    // @core_v0.16.0:1268-1271, @d98e8a6:1979-1982.
    when: (m) => {
      const n = argNum(m, 'moe_latent_size');
      const written = argValue(m, 'moe_latent_size');
      return (n === 0 || (typeof written === 'number' && written <= 0)) ? 'moe_latent_size' : undefined;
    },
    message: () => '`--moe-latent-size` is not above zero: Megatron-LM stops at startup ("MoE latent projection dimension has to be greater than zero."). Give the latent dimension, or remove the flag.',
    formats: MLM_FLAG_FORMATS,
    since: '0.16.0',
  },
  {
    when: (m) => ((argNum(m, 'moe_latent_size') ?? 0) > 0 && noExperts(m) ? 'moe_latent_size' : undefined),
    message: () => '`--moe-latent-size` without `--num-experts`: latent projections belong to the experts of an MoE layer, and Megatron-LM stops at startup ("MoE latent projections are applicable only for MoE models."). Remove the flag, or give the expert count.',
    formats: MLM_FLAG_FORMATS,
    since: '0.16.0',
  },
  {
    // megatron/arguments.py@core_v0.4.0:399-400 (Expert parallelism check) to training/arguments.py@core_v0.6.0:506-507,
    // @core_v0.15.0:1041-1042; gone in 0.16.0 (only the --yaml-cfg reader keeps it: yaml-cfg-checks.ts).
    when: (m) => (argOn(m, 'fp16') && (argNum(m, 'expert_model_parallel_size') ?? 1) > 1 ? 'expert_model_parallel_size' : undefined),
    message: (m) => `\`--fp16\` with \`--expert-model-parallel-size ${argNum(m, 'expert_model_parallel_size')}\`: Megatron-LM before Megatron Core 0.16 stops at startup ("Expert parallelism is not supported with fp16 training."). Train in bf16, set the expert-parallel size to 1, or use Megatron Core 0.16 or later.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.4.0',
    before: '0.16.0',
  },
  {
    // megatron/arguments.py@core_v0.5.0:295-296 to training/arguments.py@core_v0.15.0:876-877; 0.16.0
    // keeps only the GPU check (@core_v0.16.0:852-854).
    when: (m) => (argOn(m, 'moe_grouped_gemm') && argOff(m, 'bf16') ? 'moe_grouped_gemm' : undefined),
    message: () => '`--moe-grouped-gemm` without `--bf16`: Megatron-LM before Megatron Core 0.16 runs the grouped expert GEMMs only in bf16 and stops at startup ("Currently GroupedGEMM for MoE only supports bf16 dtype."). Train with `--bf16`, drop `--moe-grouped-gemm`, or use Megatron Core 0.16 or later.',
    formats: MLM_FLAG_FORMATS,
    since: '0.5.0',
    before: '0.16.0',
  },
  {
    // @core_v0.14.0:1080-1082, @d98e8a6:1903-1905.
    when: (m) => (argOn(m, 'delay_wgrad_compute') && argValue(m, 'transformer_impl') === 'local' ? 'delay_wgrad_compute' : undefined),
    message: () => '`--delay-wgrad-compute` with `--transformer-impl local`: delaying the weight-gradient GEMMs is done by Transformer Engine\'s layers, and Megatron-LM stops at startup ("Delaying wgrad compute is only supported with transformer_engine implementation"). Use `--transformer-impl transformer_engine`, or drop `--delay-wgrad-compute`.',
    formats: MLM_FLAG_FORMATS,
    since: '0.14.0',
  },
];

const CAPACITY_CHECKS: ArgCheck[] = [
  {
    when: (m) => (capacity(m) && (backendNot(m, 'hybridep') || argOff(m, 'use_transformer_engine_op_fuser')) ? 'moe_expert_rank_capacity_factor' : undefined),
    since: '0.18.0',
    before: '0.19.0',
    message: (m) => `${named(m, '--moe-expert-rank-capacity-factor')} needs both the HybridEP backend of the flex token dispatcher and Transformer Engine's op fuser in Megatron Core 0.18, and this run lacks one of them: Megatron Core stops when it builds the transformer config ("moe_expert_rank_capacity_factor requires use_transformer_engine_op_fuser to be enabled" / "... requires moe_flex_dispatcher_backend to be 'hybridep'"; the backend defaults to \`deepep\`). Set ${named(m, '--moe-flex-dispatcher-backend', 'hybridep')} and turn on ${named(m, '--use-transformer-engine-op-fuser')}, or remove the factor.`,
  },
  {
    when: (m) => (capacity(m) && backendNot(m, 'hybridep', 'ncclep') ? 'moe_expert_rank_capacity_factor' : undefined),
    since: '0.19.0',
    message: (m) => `${named(m, '--moe-expert-rank-capacity-factor')} with the flex dispatcher backend ${backendText(m)}: only HybridEP and NCCL-EP take a per-rank expert capacity, and Megatron Core stops when it builds the transformer config ("moe_expert_rank_capacity_factor requires moe_flex_dispatcher_backend to be 'hybridep' or 'ncclep'"). Set ${named(m, '--moe-flex-dispatcher-backend', 'ncclep')}, or \`hybridep\` with Transformer Engine's op fuser, or remove the factor.`,
  },
  {
    when: (m) => (capacity(m) && backendIs(m, 'hybridep') && argOff(m, 'use_transformer_engine_op_fuser') ? 'moe_expert_rank_capacity_factor' : undefined),
    since: '0.19.0',
    before: '0.20.0',
    message: (m) => `${named(m, '--moe-expert-rank-capacity-factor')} with the HybridEP backend needs Transformer Engine's op fuser: Megatron Core stops when it builds the transformer config ("moe_expert_rank_capacity_factor with the 'hybridep' backend requires use_transformer_engine_op_fuser to be enabled"). Turn on ${named(m, '--use-transformer-engine-op-fuser')}, or remove the factor.`,
  },
  {
    when: (m) => (capacity(m) && backendIs(m, 'hybridep') && argOff(m, 'use_transformer_engine_op_fuser') && argOff(m, 'moe_use_grouped_tensor') ? 'moe_expert_rank_capacity_factor' : undefined),
    since: '0.20.0',
    message: (m) => `${named(m, '--moe-expert-rank-capacity-factor')} with the HybridEP backend needs Transformer Engine's op fuser or the grouped expert tensor: Megatron Core stops when it builds the transformer config ("moe_expert_rank_capacity_factor with the 'hybridep' backend requires use_transformer_engine_op_fuser=True or moe_use_grouped_tensor=True"). Turn on ${named(m, '--use-transformer-engine-op-fuser')} or ${named(m, '--moe-use-grouped-tensor')}, or remove the factor.`,
  },
];

const scoreFunction = (m: MegatronModel) => argOr(m, 'moe_router_score_function', 'softmax');
const dispatcher = (m: MegatronModel) => argOr(m, 'moe_token_dispatcher_type', 'allgather');
const padding = (m: MegatronModel) => argOn(m, 'moe_router_padding_for_quantization') || argOn(m, 'moe_router_padding_for_fp8');
const paddingDest = (m: MegatronModel) => (argOn(m, 'moe_router_padding_for_quantization') ? 'moe_router_padding_for_quantization' : 'moe_router_padding_for_fp8');

/**
 * The load-balancing type as the config sees it: a list of several is no single type (so not
 * `sinkhorn`); undefined when unknown or a one-item list, which the formats treat differently.
 */
function loadBalancing(m: MegatronModel): string | undefined {
  const v = argOr(m, 'moe_router_load_balancing_type', 'aux_loss');
  if (typeof v === 'string') return v;
  if (!Array.isArray(v)) return undefined;
  if (v.length > 1) return v.join(' ');
  // One item: Megatron-LM's checks unwrap it, a Bridge config keeps the list (which is not `sinkhorn`).
  return undefined;
}

/**
 * transformer_config.py: the router checks arrive in core_v0.11.0 (top-1 softmax routing, expert bias,
 * group-limited routing: @core_v0.11.0:762-810, @d98e8a6:2616-2690), the padded routing map in
 * core_v0.13.0 (@core_v0.13.0:1123-1131, renamed for FP4 in core_v0.16.0: @core_v0.16.0:1613-1630).
 */
const ROUTER_CHECKS: ArgCheck[] = [
  {
    when: (m) => {
      if (argNum(m, 'moe_router_topk') !== 1 || scoreFunction(m) !== 'softmax' || !argOff(m, 'moe_router_pre_softmax')) return undefined;
      const lb = loadBalancing(m);
      return lb !== undefined && lb !== 'sinkhorn' ? 'moe_router_topk' : undefined;
    },
    since: '0.11.0',
    message: (m) => `${named(m, '--moe-router-topk', '1')} with softmax router scores taken after the top-1 choice: a softmax over one score is always 1, so the router would get no gradient, and Megatron Core stops when it builds the model config ("Please use --moe-router-pre-softmax when topk is 1."). Add ${named(m, '--moe-router-pre-softmax')}, or use ${named(m, '--moe-router-score-function', 'sigmoid')}.`,
  },
  {
    when: (m) => (argOn(m, 'moe_router_enable_expert_bias') && scoreFunction(m) === 'softmax' ? 'moe_router_enable_expert_bias' : undefined),
    since: '0.11.0',
    message: (m) => `${named(m, '--moe-router-enable-expert-bias')} with ${argAbsent(m, 'moe_router_score_function') ? 'the default softmax score function' : 'softmax router scores'}: aux-loss-free routing adds its bias to sigmoid scores, and Megatron Core stops when it builds the model config ("Expert bias for aux-loss-free routing only supports ... score function"). Set ${named(m, '--moe-router-score-function', 'sigmoid')}, or drop the expert bias.`,
  },
  {
    when: (m) => (argNum(m, 'moe_router_group_topk') !== undefined && argNum(m, 'moe_router_group_topk')! > 0 && (argAbsent(m, 'moe_router_num_groups') || argNum(m, 'moe_router_num_groups') === 0) ? 'moe_router_group_topk' : undefined),
    since: '0.11.0',
    message: (m) => `${named(m, '--moe-router-group-topk')} without ${named(m, '--moe-router-num-groups')}: group-limited routing picks the top groups of experts first and needs to know how many groups there are; Megatron Core stops when it builds the model config ("When using group limited routing, moe_router_num_groups must be specified."). Add the number of groups (often the expert-parallel size or the node count).`,
  },
  {
    when: (m) => {
      const e = argNum(m, 'num_moe_experts');
      const g = argNum(m, 'moe_router_num_groups');
      return (argNum(m, 'moe_router_group_topk') ?? 0) > 0 && e !== undefined && g !== undefined && g > 0 && e % g !== 0 ? 'moe_router_num_groups' : undefined;
    },
    since: '0.11.0',
    message: (m) => `${argNum(m, 'num_moe_experts')} experts do not split into ${argNum(m, 'moe_router_num_groups')} routing groups: group-limited routing needs groups of equal size, and Megatron Core stops when it builds the model config ("num_moe_experts (${argNum(m, 'num_moe_experts')}) should be divisible by moe_router_num_groups (${argNum(m, 'moe_router_num_groups')})."). Use a number of groups that divides the expert count.`,
  },
  {
    when: (m) => {
      const k = argNum(m, 'moe_router_group_topk');
      const g = argNum(m, 'moe_router_num_groups');
      return k !== undefined && g !== undefined && g > 0 && k > g ? 'moe_router_group_topk' : undefined;
    },
    since: '0.11.0',
    message: (m) => `${named(m, '--moe-router-group-topk', String(argNum(m, 'moe_router_group_topk')))} is more groups than there are (${argNum(m, 'moe_router_num_groups')}): Megatron Core stops when it builds the model config ("moe_router_group_topk (${argNum(m, 'moe_router_group_topk')}) should be smaller than moe_router_num_groups (${argNum(m, 'moe_router_num_groups')})."). Pick at most ${argNum(m, 'moe_router_num_groups')} groups.`,
  },
  {
    when: (m) => (padding(m) && argAbsent(m, 'fp8') && argAbsent(m, 'fp4') ? paddingDest(m) : undefined),
    since: '0.13.0',
    message: (m) => `${named(m, `--${paddingDest(m).replace(/_/g, '-')}`)} without FP8 or FP4: the routing map is padded to the alignment quantized GEMMs need, and Megatron Core stops when it builds the model config ("fp8 must be specified when moe_router_padding_for_fp8 is True.", from 0.16 "fp8/fp4 must be specified when moe_router_padding_for_quantization is True."). Drop the padding, or train in FP8 (${named(m, '--fp8-format')}).`,
  },
  {
    when: (m) => (padding(m) && dispatcher(m) === 'allgather' ? paddingDest(m) : undefined),
    since: '0.13.0',
    message: (m) => `${named(m, `--${paddingDest(m).replace(/_/g, '-')}`)} with the \`allgather\` token dispatcher${argAbsent(m, 'moe_token_dispatcher_type') ? ' (the default)' : ''}: only the all-to-all and flex dispatchers pad the routing map, and Megatron Core stops when it builds the model config ("allgather and alltoall_seq dispatcher does not support moe_router_padding_for_..."). Set ${named(m, '--moe-token-dispatcher-type', 'alltoall')}.`,
  },
  {
    // moe/moe_utils.py@core_v0.8.0:315-317 to @core_v0.10.0:270-272: before the config checked it, the
    // aux-loss and no-balancing routers raised it on their first forward step (Sinkhorn takes top-1).
    when: (m) => {
      if ((argNum(m, 'num_moe_experts') ?? 0) <= 0 || argNum(m, 'moe_router_topk') !== 1 || !argOff(m, 'moe_router_pre_softmax')) return undefined;
      const lb = argOr(m, 'moe_router_load_balancing_type', 'aux_loss');
      return lb === 'aux_loss' || lb === 'none' ? 'moe_router_topk' : undefined;
    },
    since: '0.8.0',
    before: '0.11.0',
    message: (m) => `${named(m, '--moe-router-topk', '1')} with softmax router scores taken after the top-1 choice: a softmax over one score is always 1, so the router would get no gradient, and Megatron Core stops on the router's first forward step ("Please use --moe-router-pre-softmax when topk is 1."). Add ${named(m, '--moe-router-pre-softmax')}.`,
  },
  {
    // transformer_config.py@core_v0.12.1:945-946 (none @core_v0.12.0), @core_v0.14.0:1197-1198; from 0.15 only with expert TP above 1 (below).
    when: (m) => ((argNum(m, 'num_moe_experts') ?? 0) > 0 && argOnByDefault(m, 'add_bias_linear') ? (m.args.get('add_bias_linear') ? 'add_bias_linear' : 'num_moe_experts') : undefined),
    since: '0.12.1',
    before: '0.15.0',
    message: (m) => `An MoE model with linear-layer biases${argAbsent(m, 'add_bias_linear') ? ' (on by default)' : ''}: Megatron Core 0.12.1 to 0.14 build experts without biases and stop when they build the model config ("Bias is not supported for MoE"). Turn the linear biases off (${noBiasText(m)}), or use Megatron Core 0.15 or newer (which takes biases with expert tensor parallelism 1).`,
  },
  {
    // @core_v0.15.0 on (@d98e8a6:2612-2615). In Megatron-LM biases are on unless --disable-bias-linear,
    // and the expert TP size defaults to the TP size.
    when: (m, p) => (argGiven(m, 'num_moe_experts') && argOnByDefault(m, 'add_bias_linear') && (p?.etp.value ?? 1) > 1 ? (m.args.get('expert_tensor_parallel_size') ? 'expert_tensor_parallel_size' : 'num_moe_experts') : undefined),
    since: '0.15.0',
    message: (m, p) => `Expert linear layers with biases${argAbsent(m, 'add_bias_linear') ? ' (on by default)' : ''} and expert tensor parallelism ${p?.etp.value}${argAbsent(m, 'expert_tensor_parallel_size') ? ' (the TP size, its default)' : ''}: Megatron Core stops when it builds the model config ("Bias in Moe is only supported when ETP==1"). Turn the linear biases off (${noBiasText(m)}), or set ${named(m, '--expert-tensor-parallel-size', '1')}.`,
  },
];

/**
 * The EP all-to-all overlap's other refusals (transformer_config.py, overlap_moe_expert_parallel_comm
 * block): recompute method, the shared-expert overlap and MTP depth from core_v0.14.0 (@core_v0.14.0:1313-1337;
 * MTP reworded in 0.19), MoE recompute from core_v0.17.0, one MTP layer without PP in 0.16 and 0.17; the early attention-memory release
 * needs the overlap from core_v0.16.0, the dispatch/wgrad overlap excludes it from core_v0.18.0
 * (@d98e8a6:3029-3100).
 */
const OVERLAP_COMPANION_CHECKS: ArgCheck[] = [
  {
    when: (m) => (overlap(m) && argGiven(m, 'recompute_method') ? 'recompute_method' : undefined),
    since: '0.14.0',
    message: (m) => `${named(m, '--recompute-method')} with EP all-to-all overlap: the overlap schedules each layer's forward and backward itself, and Megatron Core stops when it builds the model config ("disable recomputation method when enabling overlap_moe_expert_parallel_comm"). Remove the recompute method (selective recomputation of other modules is allowed), or drop the overlap.`,
  },
  {
    when: (m) => (overlap(m) && (argWords(m, 'recompute_modules') ?? []).includes('moe') ? 'recompute_modules' : undefined),
    since: '0.17.0',
    message: (m) => `\`moe\` in ${named(m, '--recompute-modules')} with EP all-to-all overlap: Megatron Core stops when it builds the model config ("disable moe in recompute_modules when enabling overlap_moe_expert_parallel_comm"). Recompute other modules (\`moe_act\`, \`layernorm\`...), or drop the overlap.`,
  },
  {
    when: (m) => (overlap(m) && argOn(m, 'moe_shared_expert_overlap') ? 'moe_shared_expert_overlap' : undefined),
    since: '0.14.0',
    message: (m) => `${named(m, '--moe-shared-expert-overlap')} with EP all-to-all overlap: the two overlaps schedule the shared experts differently, and Megatron Core stops when it builds the model config ("disable moe_shared_expert_overlap when enabling overlap_moe_expert_parallel_comm"). Keep one of them.`,
  },
  {
    // @core_v0.14.0:1335-1337 to @core_v0.18.0:2439-2441, reworded in 0.19.
    when: (m) => (overlap(m) && (argNum(m, 'mtp_num_layers') ?? 0) > 1 ? 'mtp_num_layers' : undefined),
    since: '0.14.0',
    before: '0.19.0',
    message: (m) => `${named(m, '--mtp-num-layers', String(argNum(m, 'mtp_num_layers')))} with EP all-to-all overlap: Megatron Core stops when it builds the model config ("MTP layernum only supports 1 when enabling overlap_moe_expert_parallel_comm."). Use one MTP layer, or drop the overlap.`,
  },
  {
    // @core_v0.16.0:1892-1896 to @core_v0.17.1; gone in 0.18.
    when: (m) => (overlap(m) && argNum(m, 'mtp_num_layers') === 1 && (argAbsent(m, 'pipeline_model_parallel_size') || argNum(m, 'pipeline_model_parallel_size') === 1) ? 'mtp_num_layers' : undefined),
    since: '0.16.0',
    before: '0.18.0',
    message: (m) => `${named(m, '--mtp-num-layers', '1')} with EP all-to-all overlap and no pipeline parallelism: Megatron Core 0.16 and 0.17 stop when they build the model config ("Pipeline model parallel size must be larger than 1 when enabling overlap_moe_expert_parallel_comm with MTP layer."). Use PP 2 or more, drop the MTP layer or the overlap, or use Megatron Core 0.18 or newer.`,
  },
  {
    when: (m) => (overlap(m) && (argNum(m, 'mtp_num_layers') ?? 0) > 1 ? 'mtp_num_layers' : undefined),
    since: '0.19.0',
    message: (m) => `${named(m, '--mtp-num-layers', String(argNum(m, 'mtp_num_layers')))} with EP all-to-all overlap: Megatron Core stops when it builds the model config ("MTP supports at most one layer when enabling overlap_moe_expert_parallel_comm."). Use one MTP layer, or drop the overlap.`,
  },
  {
    when: (m) => (overlap(m) && argOn(m, 'overlap_dispatch_backward_with_experts_wgrad') ? 'overlap_dispatch_backward_with_experts_wgrad' : undefined),
    since: '0.18.0',
    message: (m) => `${named(m, '--overlap-dispatch-backward-with-experts-wgrad')} with EP all-to-all overlap: they are two ways to hide the same communication, and Megatron Core stops when it builds the model config ("overlap_moe_expert_parallel_comm must be disabled when enabling overlap_dispatch_backward_with_experts_wgrad."). Keep one of them.`,
  },
  {
    when: (m) => (argOn(m, 'ep_overlap_early_attn_memory_release') && !overlap(m) && argOff(m, 'overlap_moe_expert_parallel_comm') ? 'ep_overlap_early_attn_memory_release' : undefined),
    since: '0.16.0',
    message: (m) => `${named(m, '--ep-overlap-early-attn-memory-release')} without EP all-to-all overlap: it tunes that overlap's schedule, and Megatron Core stops when it builds the model config ("overlap_moe_expert_parallel_comm must be enabled when enabling ep_overlap_early_attn_memory_release"). Add ${named(m, '--overlap-moe-expert-parallel-comm')}, or drop the flag.`,
  },
];

function dispatcherText(m: MegatronModel): string {
  const d = argValue(m, 'moe_token_dispatcher_type');
  return typeof d === 'string' ? `\`${d}\`` : '`allgather` (the default)';
}
const dispatcherNot = (m: MegatronModel, ...names: string[]) => {
  const d = dispatcher(m);
  return typeof d === 'string' && !names.includes(d);
};

/**
 * No expert capacity: the factor left out (None), or written negative, which __post_init__ turns
 * into None before it checks the padding (transformer_config.py@core_v0.7.0:330-346, @d98e8a6:1835-1866).
 */
function noCapacity(m: MegatronModel): boolean {
  if (argAbsent(m, 'moe_expert_capacity_factor')) return true;
  const a = m.args.get('moe_expert_capacity_factor');
  if (!a) return false;
  const v = typeof a.value === 'string' && /^-?\d+(\.\d*)?$/.test(a.value) ? Number(a.value) : a.value;
  return v === null || (typeof v === 'number' && v < 0);
}

/** The router's load-balancing types as written (one, or a list from 0.14), when known. */
function balancing(m: MegatronModel): string[] | undefined {
  const v = argValue(m, 'moe_router_load_balancing_type');
  if (typeof v === 'string') return [v];
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined;
}

/** A load-balancing type written that takes no expert capacity (only these exist at a release that refuses them). */
const refusedBalancing = (m: MegatronModel) => balancing(m)?.find((t) => t === 'sinkhorn' || t === 'quantile_balancing');

/**
 * TransformerConfig.__post_init__'s checks of the token dispatcher, expert capacity and shared
 * experts (transformer_config.py; the first and last tag of each are given beside it).
 */
const DISPATCH_CHECKS: ArgCheck[] = [
  {
    // @core_v0.10.0:409-414 to @core_v0.17.0: the all-to-all dispatcher only.
    when: (m) => (argOn(m, 'moe_shared_expert_overlap') && argGiven(m, 'moe_shared_expert_intermediate_size') && dispatcherNot(m, 'alltoall') ? 'moe_shared_expert_overlap' : undefined),
    since: '0.10.0',
    before: '0.18.0',
    message: (m) => `${named(m, '--moe-shared-expert-overlap')} with the token dispatcher ${dispatcherText(m)}: the shared experts are overlapped with the all-to-all exchange, which this dispatcher does not make, and Megatron Core stops when it builds the model config ("moe_shared_expert_overlap only works with alltoall token dispatcher"). Set ${named(m, '--moe-token-dispatcher-type', 'alltoall')}, or drop the overlap.`,
  },
  {
    // @core_v0.18.0:1467-1473 to @d98e8a6:1820-1826: the flex dispatcher too.
    when: (m) => (argOn(m, 'moe_shared_expert_overlap') && argGiven(m, 'moe_shared_expert_intermediate_size') && dispatcherNot(m, 'alltoall', 'flex') ? 'moe_shared_expert_overlap' : undefined),
    since: '0.18.0',
    message: (m) => `${named(m, '--moe-shared-expert-overlap')} with the token dispatcher ${dispatcherText(m)}: the shared experts are overlapped with the expert exchange of the all-to-all or flex dispatcher, and Megatron Core stops when it builds the model config ("moe_shared_expert_overlap only works with alltoall or flex token dispatcher."). Set ${named(m, '--moe-token-dispatcher-type', 'alltoall')}, or drop the overlap.`,
  },
  {
    // @core_v0.7.0:342-346 to @d98e8a6:1862-1866.
    when: (m) => (argOn(m, 'moe_pad_expert_input_to_capacity') && noCapacity(m) ? 'moe_pad_expert_input_to_capacity' : undefined),
    since: '0.7.0',
    message: (m) => `${named(m, '--moe-pad-expert-input-to-capacity')} without an expert capacity: padding fills each expert up to its capacity, which ${named(m, '--moe-expert-capacity-factor')} sets, and Megatron Core stops when it builds the model config ("moe_expert_capacity_factor must be set to use moe_pad_expert_input_to_capacity"). Set a capacity factor (for example 1.0), or drop the padding.`,
  },
  // @core_v0.7.0:337-340 to @d98e8a6:1839-1860: Sinkhorn routing takes no capacity, nor from 0.20
  // quantile balancing (no other load-balancing type is refused at a release that offers it). The
  // message names the types each release takes (@core_v0.13.0:748, @core_v0.14.0:793-794, @core_v0.15.0:867-868).
  ...(
    [
      ['0.7.0', '0.14.0', 'aux_loss or none'],
      ['0.14.0', '0.15.0', 'aux_loss, seq_aux_loss or none'],
      ['0.15.0', undefined, 'aux_loss, seq_aux_loss, global_aux_loss or none'],
    ] as const
  ).map(
    ([since, before, types]): ArgCheck => ({
      when: (m) => (argGiven(m, 'moe_expert_capacity_factor') && refusedBalancing(m) ? 'moe_expert_capacity_factor' : undefined),
      since,
      before,
      message: (m) => `${named(m, '--moe-expert-capacity-factor')} with the \`${refusedBalancing(m)}\` load balancing: token dropping by capacity works only with the auxiliary-loss routers, and Megatron Core stops when it builds the model config ("moe_expert_capacity_factor only works with ${types} load balancing"). Use ${named(m, '--moe-router-load-balancing-type', 'aux_loss')}, or drop the capacity factor.`,
    }),
  ),
  {
    // @core_v0.7.0:331-334 (alltoall), @core_v0.9.0:355-358 to @core_v0.11.0:509-512 (alltoall or
    // alltoall_seq); @core_v0.12.0 drops it.
    when: (m) => (argGiven(m, 'moe_expert_capacity_factor') && dispatcherNot(m, 'alltoall', 'alltoall_seq') ? 'moe_expert_capacity_factor' : undefined),
    since: '0.7.0',
    before: '0.12.0',
    message: (m) => `${named(m, '--moe-expert-capacity-factor')} with the token dispatcher ${dispatcherText(m)}: before Megatron Core 0.12 only the all-to-all dispatcher drops tokens by capacity, and Megatron Core stops when it builds the model config ("moe_expert_capacity_factor only works with alltoall token dispatcher"). Set ${named(m, '--moe-token-dispatcher-type', 'alltoall')}, or drop the capacity factor.`,
  },
  {
    // @core_v0.12.0:629-631 to @d98e8a6:1743-1745.
    when: (m) => (argOn(m, 'moe_enable_deepep') && dispatcherNot(m, 'flex') ? 'moe_enable_deepep' : undefined),
    since: '0.12.0',
    message: (m) => `${named(m, '--moe-enable-deepep')} with the token dispatcher ${dispatcherText(m)}: DeepEP is a backend of the flex dispatcher, and Megatron Core stops when it builds the model config ("DeepEP backend is only supported with flex token dispatcher."). Set ${named(m, '--moe-token-dispatcher-type', 'flex')}.`,
    fix: (m) => setArg(m, 'flex-dispatcher', 'moe_token_dispatcher_type', 'flex', 'Use --moe-token-dispatcher-type flex'),
  },
  {
    // @core_v0.12.0:633-637 to @core_v0.15.3:827-831: the flex dispatcher pads nothing.
    when: (m) => (argOn(m, 'moe_pad_expert_input_to_capacity') && dispatcher(m) === 'flex' ? 'moe_pad_expert_input_to_capacity' : undefined),
    since: '0.12.0',
    before: '0.16.0',
    message: (m) => `${named(m, '--moe-pad-expert-input-to-capacity')} with the flex token dispatcher: Megatron Core stops when it builds the model config ("Flex token dispatcher does not support moe_pad_expert_input_to_capacity"). Use ${named(m, '--moe-token-dispatcher-type', 'alltoall')}, or drop the padding.`,
  },
  {
    // @core_v0.16.0:1074-1081 to @d98e8a6:1754-1761: from 0.16 only its DeepEP backend (the default).
    when: (m) => (argOn(m, 'moe_pad_expert_input_to_capacity') && dispatcher(m) === 'flex' && ((untracked(m.args).get('moe_enable_deepep') !== undefined && argOn(m, 'moe_enable_deepep')) || backendIs(m, 'deepep')) ? 'moe_pad_expert_input_to_capacity' : undefined),
    since: '0.16.0',
    message: (m) => `${named(m, '--moe-pad-expert-input-to-capacity')} with the flex token dispatcher's DeepEP backend${argValue(m, 'moe_flex_dispatcher_backend') === undefined ? ' (its default)' : ''}: Megatron Core stops when it builds the model config ("Flex token dispatcher with deepep backend does not support moe_pad_expert_input_to_capacity"). Use ${named(m, '--moe-flex-dispatcher-backend', 'hybridep')} or the \`alltoall\` dispatcher, or drop the padding.`,
  },
  {
    // @core_v0.13.0:716-718 to @core_v0.17.0:1225-1228: refused whatever the layer frequency.
    when: (m) => (argGiven(m, 'moe_ffn_hidden_size') && argAbsent(m, 'num_moe_experts') ? 'moe_ffn_hidden_size' : undefined),
    since: '0.13.0',
    before: '0.18.0',
    message: (m) => `${named(m, '--moe-ffn-hidden-size')} without ${named(m, '--num-experts')}: a dense model has no expert MLP to size, and Megatron Core stops when it builds the model config ("moe_ffn_hidden_size must be None when num_experts is not set."). Remove the expert size, or set the number of experts.`,
  },
  {
    // @core_v0.18.0:1396-1411 to @d98e8a6:1687-1704: refused unless a layer frequency leaves some
    // layers dense (then only a warning); a frequency written other than as 1 is not judged.
    when: (m) => {
      const freq = argValue(m, 'moe_layer_freq');
      const uniform = argAbsent(m, 'moe_layer_freq') || freq === 1 || freq === '1';
      return argGiven(m, 'moe_ffn_hidden_size') && argAbsent(m, 'num_moe_experts') && uniform ? 'moe_ffn_hidden_size' : undefined;
    },
    since: '0.18.0',
    message: (m) => `${named(m, '--moe-ffn-hidden-size')} without ${named(m, '--num-experts')}: a dense model has no expert MLP to size, and Megatron Core stops when it builds the model config ("moe_ffn_hidden_size is set but num_moe_experts is None. Please set num_moe_experts or remove moe_ffn_hidden_size."). Remove the expert size, or set the number of experts.`,
  },
];

/**
 * Several load-balancing types (from 0.14 a list) need a list of as many aux-loss coefficients;
 * Megatron-LM turns a one-item list of either into a single value (training/arguments.py@core_v0.14.0:959-962).
 * The coefficient left out is 0.0, one value.
 */
function coeffMismatch(m: MegatronModel): { types: number; coeffs: string } | undefined {
  const types = balancing(m);
  if (!types || types.length < 2) return undefined;
  if (argAbsent(m, 'moe_aux_loss_coeff')) return { types: types.length, coeffs: 'one value (the default 0.0)' };
  const c = argValue(m, 'moe_aux_loss_coeff');
  if (Array.isArray(c)) return c.length !== types.length && c.length > 0 ? { types: types.length, coeffs: c.length === 1 ? 'one value' : `${c.length}` } : undefined;
  return typeof c === 'number' || (typeof c === 'string' && /^[\d.eE+-]+$/.test(c)) ? { types: types.length, coeffs: 'one value' } : undefined;
}

/** More of TransformerConfig.__post_init__'s MoE checks (transformer_config.py; the first and last tag beside each). */
const MORE_CHECKS: ArgCheck[] = [
  {
    // @core_v0.16.0:1066-1067 to @d98e8a6:1746-1747.
    when: (m) => (argOn(m, 'moe_enable_deepep') && argValue(m, 'moe_flex_dispatcher_backend') === 'hybridep' ? 'moe_enable_deepep' : undefined),
    since: '0.16.0',
    message: (m) => `${named(m, '--moe-enable-deepep')} with ${named(m, '--moe-flex-dispatcher-backend', 'hybridep')}: the deprecated switch selects the DeepEP backend, and Megatron Core stops when it builds the model config ("Only one backend is supported for flex token dispatcher."). Drop ${named(m, '--moe-enable-deepep')}.`,
  },
  {
    // @core_v0.19.0:1609-1614 to @d98e8a6:1763-1768.
    when: (m) => (argValue(m, 'moe_flex_dispatcher_backend') === 'ncclep' && dispatcherNot(m, 'flex') ? 'moe_flex_dispatcher_backend' : undefined),
    since: '0.19.0',
    message: (m) => `${named(m, '--moe-flex-dispatcher-backend', 'ncclep')} with the token dispatcher ${dispatcherText(m)}: NCCL-EP is a backend of the flex dispatcher, and Megatron Core stops when it builds the model config ("moe_flex_dispatcher_backend='ncclep' requires moe_token_dispatcher_type='flex'."). Set ${named(m, '--moe-token-dispatcher-type', 'flex')}.`,
  },
  {
    // @core_v0.10.0:403-408 to @d98e8a6:1814-1819.
    when: (m) => {
      const n = argValue(m, 'moe_shared_expert_intermediate_size');
      return typeof n === 'number' && n <= 0 ? 'moe_shared_expert_intermediate_size' : undefined;
    },
    since: '0.10.0',
    message: (m) => `${named(m, '--moe-shared-expert-intermediate-size', String(argValue(m, 'moe_shared_expert_intermediate_size')))}: the size is the number of shared experts times each one's FFN size, and Megatron Core stops when it builds the model config ("moe_shared_expert_intermediate_size must be num_shared_experts * ffn_size_of_each_shared_expert"). Give a positive size, or leave it out for no shared experts.`,
  },
  {
    // @core_v0.14.0:778-784 to @d98e8a6:1828-1834 (an assertion).
    when: (m) => (coeffMismatch(m) ? (m.args.get('moe_aux_loss_coeff') ? 'moe_aux_loss_coeff' : 'moe_router_load_balancing_type') : undefined),
    since: '0.14.0',
    message: (m) => {
      const c = coeffMismatch(m)!;
      return `${c.types} load-balancing types in ${named(m, '--moe-router-load-balancing-type')} with ${c.coeffs} in ${named(m, '--moe-aux-loss-coeff')}: each type takes its own coefficient, and Megatron Core stops when it builds the model config ("moe_aux_loss_coeff must be a list of the same length as moe_router_load_balancing_type"). Give ${c.types} coefficients, one per type.`;
    },
  },
  {
    // @core_v0.18.0:1414-1418 to @d98e8a6:1707-1711.
    when: (m) => (['moe_single_grouped_weight', 'moe_single_grouped_bias'].some((d) => untracked(m.args).get(d) !== undefined && argOn(m, d)) && argOff(m, 'moe_grouped_gemm') ? (argOn(m, 'moe_single_grouped_weight') ? 'moe_single_grouped_weight' : 'moe_single_grouped_bias') : undefined),
    since: '0.18.0',
    message: (m) => `${named(m, '--moe-single-grouped-weight')} or ${named(m, '--moe-single-grouped-bias')} without ${named(m, '--moe-grouped-gemm')}: one weight tensor for all experts exists only in the grouped-GEMM experts, and Megatron Core stops when it builds the model config ("moe_single_grouped_weight and moe_single_grouped_bias require moe_grouped_gemm=True."). Turn on ${named(m, '--moe-grouped-gemm')}.`,
  },
  {
    // @core_v0.18.0:1437-1438 to @d98e8a6:1739-1740.
    when: (m) => (argOn(m, 'moe_single_grouped_bias') && argValue(m, 'add_bias_linear') === false ? 'moe_single_grouped_bias' : undefined),
    since: '0.18.0',
    message: (m) => `${named(m, '--moe-single-grouped-bias')} with the linear biases turned off (${noBiasText(m)}): there is no expert bias to group, and Megatron Core stops when it builds the model config ("moe_single_grouped_bias requires add_bias_linear=True."). Drop ${named(m, '--moe-single-grouped-bias')}.`,
  },
  {
    // @d98e8a6:1413-1414 (after core_v0.19.0).
    when: (m) => (argOn(m, 'moe_use_grouped_tensor') && argOff(m, 'moe_grouped_gemm') ? 'moe_use_grouped_tensor' : undefined),
    since: '0.20.0',
    message: (m) => `${named(m, '--moe-use-grouped-tensor')} without ${named(m, '--moe-grouped-gemm')}: the grouped expert tensor is the grouped-GEMM experts' layout, and Megatron Core stops when it builds the model config ("moe_use_grouped_tensor=True requires moe_grouped_gemm=True."). Turn on ${named(m, '--moe-grouped-gemm')}.`,
  },
];

export default defineRule<MegatronModel>({
  id: 'moe-config-invalid',
  severity: 'error',
  formats: MEGATRON_FORMATS,
  fixes: {
    'alltoall-dispatcher': { applicability: 'unsafe', changes: 'the MoE token dispatcher' },
    bf16: { applicability: 'unsafe', changes: 'the precision' },
    'flex-dispatcher': { applicability: 'unsafe', changes: 'the MoE token dispatcher' },
  },
  docs: {
    summary: 'Expert-parallel, MoE router, MoE communication-overlap, token-dispatcher, shared-expert and expert-capacity arguments that Megatron rejects.',
    why: 'Experts must split evenly over EP ranks, and EP all-to-all overlap has a list of requirements (expert parallelism, an all-to-all dispatcher, virtual stages with PP > 1, no full recomputation, a 16-bit model) that Megatron checks when it builds the model, after the job has started. A per-rank expert capacity (`--moe-expert-rank-capacity-factor`) needs a flex dispatcher backend that takes it: HybridEP with Transformer Engine\'s op fuser in Megatron Core 0.18, HybridEP or NCCL-EP from 0.19 (HybridEP still with the op fuser, or from 0.20 the grouped expert tensor); the default backend, DeepEP, is refused. Megatron Core also refuses, when it builds the model config, router settings that cannot train: top-1 routing with softmax scores taken after the choice (no `--moe-router-pre-softmax`; from 0.11, and from 0.8 to 0.10 on the router\'s first forward step), expert bias with softmax scores (from 0.11), group-limited routing without a group count, with groups that do not divide the experts or with more top groups than groups (from 0.11), a padded routing map without FP8/FP4 or with the `allgather` dispatcher, the default (from 0.13), and expert biases (on unless `--disable-bias-linear`) with expert tensor parallelism above 1, which defaults to the TP size (from 0.15; from 0.12.1 to 0.14 any MoE model with biases). From 0.10 the shared experts refuse biases when the MoE layers are built. EP all-to-all overlap further excludes a recompute method and the shared-expert overlap (from 0.14), `moe` recomputation (from 0.17), more than one MTP layer (from 0.14, in other words before 0.19), one MTP layer without pipeline parallelism (0.16 and 0.17) and the dispatch/weight-gradient overlap (from 0.18); its early attention-memory release needs the overlap (from 0.16). A model config with `num_moe_experts: 0` is refused too (from 0.5; in a `--yaml-cfg` file from 0.6, the first release with its reader), and so is `--num-experts 0` on the command line before 0.8 (from 0.8 Megatron-LM\'s argument checks take it for a dense model). Megatron Bridge builds the same config; a Bridge override is judged only on what it writes itself, since the recipe may set the rest. Megatron-LM\'s own argument checks also stop at startup on `--moe-grouped-gemm` without `--bf16` (from 0.5, before 0.16) and on expert parallelism with `--fp16` (before 0.16), `--moe-use-upcycling` without `--save` (from 0.9), `--moe-latent-size` not above zero or without experts (from 0.16), and `--delay-wgrad-compute` with `--transformer-impl local` (from 0.13) or, in 0.13, with the legacy grouped GEMM (which Megatron Core refuses from 0.14 to 0.16). Megatron Core also stops when it builds the model config on: the shared-expert overlap with a dispatcher other than all-to-all (from 0.10; from 0.18 also flex), padding the expert input to capacity without a capacity factor (from 0.7) or with the flex dispatcher (from 0.12; from 0.16 only with its DeepEP backend, the default), a capacity factor with Sinkhorn load balancing (from 0.7; from 0.20 also quantile balancing) or, before 0.12, with a dispatcher other than all-to-all, `--moe-enable-deepep` without the flex dispatcher (from 0.12), an expert FFN size in a model without experts (from 0.13; from 0.18 only when its layers are all meant to be MoE), a shared-expert size of 0 or less (from 0.10), several load-balancing types without one aux-loss coefficient each (from 0.14), `--moe-enable-deepep` with the HybridEP backend (from 0.16), the NCCL-EP backend without the flex dispatcher (from 0.19), one grouped weight or bias for all experts without grouped GEMM, or a grouped bias without linear biases (from 0.18), and the grouped expert tensor without grouped GEMM (from 0.20). Megatron-LM\'s `--yaml-cfg` reader (from 0.6) makes its own checks on such a file: expert parallelism above 1 needs `language_model.num_moe_experts`, a multiple of it, and no `model_parallel.fp16`; `language_model.moe_grouped_gemm` needs `model_parallel.bf16` at every release (the command line only before 0.16); and before 0.18 an MoE model refuses a `spec`. ' + BUILD_WHY + ' ' + MORE_MOE_WHY,
    bad: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --bf16: true\n  --num-experts: 6\n  --expert-model-parallel-size: 4\n',
    good: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --bf16: true\n  --num-experts: 8\n  --expert-model-parallel-size: 4\n',
    fix: 'Sets the all-to-all dispatcher or BF16 where that is what is missing, and the flex dispatcher for DeepEP.',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --bf16 --num-experts 6 --expert-model-parallel-size 4 \\\n    --micro-batch-size 1 --global-batch-size 64\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --bf16 --num-experts 8 --expert-model-parallel-size 4 \\\n    --micro-batch-size 1 --global-batch-size 64\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.15.3, `megatron/training/arguments.py`: the experts must be a multiple of EP', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.15.3/megatron/training/arguments.py#L1037-L1040' },
      { label: 'Megatron-LM core_v0.19.0, `TransformerConfig.__post_init__`: router score function, top-1 routing and group-limited routing', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.19.0/megatron/core/transformer/transformer_config.py#L2284-L2355' },
      { label: 'Megatron-LM core_v0.19.0, `TransformerConfig.__post_init__`: the expert-rank capacity factor needs the HybridEP or NCCL-EP backend', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.19.0/megatron/core/transformer/transformer_config.py#L1692-L1705' },
    ],
  },
  check(ctx) {
    runChecks(ctx, CHECKS);
    runChecks(ctx, DELAY_WGRAD_CHECKS);
    runChecks(ctx, CAPACITY_CHECKS);
    runChecks(ctx, ROUTER_CHECKS);
    runChecks(ctx, OVERLAP_COMPANION_CHECKS);
    runChecks(ctx, STARTUP_CHECKS);
    runChecks(ctx, DISPATCH_CHECKS);
    runChecks(ctx, MORE_CHECKS);
    runChecks(ctx, YAML_CFG_MOE_CHECKS);
    runChecks(ctx, BUILD_CHECKS);
    runChecks(ctx, MORE_MOE_CHECKS);
  },
});
