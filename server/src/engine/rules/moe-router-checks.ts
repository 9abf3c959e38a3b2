/**
 * Router, expert-bias and EP-overlap companion checks of moe-config-invalid: settings that Megatron
 * Core's TransformerConfig.__post_init__ refuses when it builds the model config (every Megatron
 * format builds it; a Bridge override is judged only on what it writes, the recipe decides the rest).
 */
import { argAbsent, argGiven, argNum, argOff, argOn, argValue, type MegatronModel } from '../formats/megatron/model';
import { named, type ArgCheck } from '../formats/megatron/checks';

/** The value as written, or Megatron's default when the file leaves it out; undefined when neither is known. */
function valueOr(m: MegatronModel, dest: string, fallback: unknown): unknown {
  const v = argValue(m, dest);
  if (v !== undefined && v !== null) return v;
  return argAbsent(m, dest) ? fallback : undefined;
}

/** A switch known to be on: written on, or left out where its default (on) applies. */
const onByDefault = (m: MegatronModel, dest: string) => argOn(m, dest) || argAbsent(m, dest);

const scoreFunction = (m: MegatronModel) => valueOr(m, 'moe_router_score_function', 'softmax');
const dispatcher = (m: MegatronModel) => valueOr(m, 'moe_token_dispatcher_type', 'allgather');
const overlap = (m: MegatronModel) => argOn(m, 'overlap_moe_expert_parallel_comm');
const padding = (m: MegatronModel) => argOn(m, 'moe_router_padding_for_quantization') || argOn(m, 'moe_router_padding_for_fp8');
const paddingDest = (m: MegatronModel) => (argOn(m, 'moe_router_padding_for_quantization') ? 'moe_router_padding_for_quantization' : 'moe_router_padding_for_fp8');

/**
 * The load-balancing type as the config sees it: a list of several is no single type (so not
 * `sinkhorn`); undefined when unknown or a one-item list, which the formats treat differently.
 */
function loadBalancing(m: MegatronModel): string | undefined {
  const v = valueOr(m, 'moe_router_load_balancing_type', 'aux_loss');
  if (typeof v === 'string') return v;
  if (!Array.isArray(v)) return undefined;
  if (v.length > 1) return v.join(' ');
  // One item: Megatron-LM's checks unwrap it, a Bridge config keeps the list (which is not `sinkhorn`).
  return undefined;
}

/** The written recompute modules (one word, or a list). */
function recomputeModules(m: MegatronModel): string[] | undefined {
  const v = argValue(m, 'recompute_modules');
  if (typeof v === 'string') return v.split(/[\s,]+/).filter(Boolean);
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined;
}

/**
 * transformer_config.py: the router checks arrive in core_v0.11.0 (top-1 softmax routing, expert bias,
 * group-limited routing: @core_v0.11.0:762-810, @d98e8a6:2616-2690), the padded routing map in
 * core_v0.13.0 (@core_v0.13.0:1123-1131, renamed for FP4 in core_v0.16.0: @core_v0.16.0:1613-1630).
 */
export const ROUTER_CHECKS: ArgCheck[] = [
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
    // @core_v0.15.0 on (@d98e8a6:2612-2615). In Megatron-LM biases are on unless --disable-bias-linear,
    // and the expert TP size defaults to the TP size.
    when: (m, p) => (argGiven(m, 'num_moe_experts') && onByDefault(m, 'add_bias_linear') && (p?.etp.value ?? 1) > 1 ? (m.args.get('expert_tensor_parallel_size') ? 'expert_tensor_parallel_size' : 'num_moe_experts') : undefined),
    since: '0.15.0',
    message: (m, p) => `Expert linear layers with biases${argAbsent(m, 'add_bias_linear') ? ' (on by default)' : ''} and expert tensor parallelism ${p?.etp.value}${argAbsent(m, 'expert_tensor_parallel_size') ? ' (the TP size, its default)' : ''}: Megatron Core stops when it builds the model config ("Bias in Moe is only supported when ETP==1"). Add ${named(m, '--disable-bias-linear')}, or set ${named(m, '--expert-tensor-parallel-size', '1')}.`,
  },
];

/**
 * The EP all-to-all overlap's other refusals (transformer_config.py, overlap_moe_expert_parallel_comm
 * block): recompute method and the shared-expert overlap from core_v0.14.0 (@core_v0.14.0:1313-1335),
 * MoE recompute from core_v0.17.0, MTP depth from core_v0.19.0; the early attention-memory release
 * needs the overlap from core_v0.16.0, the dispatch/wgrad overlap excludes it from core_v0.18.0
 * (@d98e8a6:3029-3100).
 */
export const OVERLAP_COMPANION_CHECKS: ArgCheck[] = [
  {
    when: (m) => (overlap(m) && argGiven(m, 'recompute_method') ? 'recompute_method' : undefined),
    since: '0.14.0',
    message: (m) => `${named(m, '--recompute-method')} with EP all-to-all overlap: the overlap schedules each layer's forward and backward itself, and Megatron Core stops when it builds the model config ("disable recomputation method when enabling overlap_moe_expert_parallel_comm"). Remove the recompute method (selective recomputation of other modules is allowed), or drop the overlap.`,
  },
  {
    when: (m) => (overlap(m) && (recomputeModules(m) ?? []).includes('moe') ? 'recompute_modules' : undefined),
    since: '0.17.0',
    message: (m) => `\`moe\` in ${named(m, '--recompute-modules')} with EP all-to-all overlap: Megatron Core stops when it builds the model config ("disable moe in recompute_modules when enabling overlap_moe_expert_parallel_comm"). Recompute other modules (\`moe_act\`, \`layernorm\`...), or drop the overlap.`,
  },
  {
    when: (m) => (overlap(m) && argOn(m, 'moe_shared_expert_overlap') ? 'moe_shared_expert_overlap' : undefined),
    since: '0.14.0',
    message: (m) => `${named(m, '--moe-shared-expert-overlap')} with EP all-to-all overlap: the two overlaps schedule the shared experts differently, and Megatron Core stops when it builds the model config ("disable moe_shared_expert_overlap when enabling overlap_moe_expert_parallel_comm"). Keep one of them.`,
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
