/**
 * More MoE refusals: latent projections with the shared-expert overlap, quantile balancing, the
 * inference-optimized MoE layers, paged stashing, CUDA graphs with expert parallelism, the old
 * extended expert TP, EP all-to-all overlap with a recompute layer count, NCCL-EP, Megatron-FSDP,
 * the deprecated SM-count and device-limited routing settings, and batch-invariant MoE. Part of
 * moe-config-invalid. Lines at the first release with the check and at d98e8a6.
 */
import { argAbsent, argGiven, argNum, argOff, argOn, argOr, argValue, argWords, MLM_FLAG_FORMATS, type MegatronModel } from '../../formats/megatron/model';
import { named, type ArgCheck } from '../../formats/megatron/checks';

const experts = (m: MegatronModel): boolean => (argNum(m, 'num_moe_experts') ?? 0) > 0;
const dispatcher = (m: MegatronModel): unknown => argOr(m, 'moe_token_dispatcher_type', 'allgather');
const dispatcherText = (m: MegatronModel): string => {
  const d = argValue(m, 'moe_token_dispatcher_type');
  return typeof d === 'string' ? `\`${d}\`` : '`allgather` (the default)';
};
const overlap = (m: MegatronModel): boolean => argOn(m, 'overlap_moe_expert_parallel_comm');

/**
 * The router balances by quantiles: the type is `quantile_balancing` itself (the router compares the
 * setting as a whole); a one-item list counts only where Megatron-LM's argument checks unwrap it.
 */
function quantile(m: MegatronModel, format: string): boolean {
  const v = argValue(m, 'moe_router_load_balancing_type');
  if (v === 'quantile_balancing') return true;
  return Array.isArray(v) && v.length === 1 && v[0] === 'quantile_balancing' && (MLM_FLAG_FORMATS as readonly string[]).includes(format);
}

/** MoE layers built with the inference-optimized implementation (transformer_config.py@core_v0.17.0:1170). */
const inferenceMoe = (m: MegatronModel): boolean => experts(m) && argValue(m, 'transformer_impl') === 'inference_optimized';

/** CPU offloading as the config sees it: `cpu_offloading` written on, or Megatron-LM's `--cpu-offloading-num-layers` above 0. */
const cpuOffloading = (m: MegatronModel): boolean => argOn(m, 'cpu_offloading') || (argNum(m, 'cpu_offloading_num_layers') ?? 0) > 0;

/** Modules offloaded that paged stashing already covers (the list grows in 0.19). */
function stashedOffloads(m: MegatronModel, withFused: boolean): string[] {
  const covered = withFused ? ['expert_fc1', 'moe_act', 'fused_group_mlp'] : ['expert_fc1', 'moe_act'];
  return (argWords(m, 'offload_modules') ?? []).filter((x) => covered.includes(x));
}

/** Per-layer CUDA graphs: `--cuda-graph-impl local`, or `--enable-cuda-graph`, which Megatron-LM turns into it. */
const localGraphs = (m: MegatronModel): boolean => argValue(m, 'cuda_graph_impl') === 'local' || argOn(m, 'enable_cuda_graph');

/** Where the file lists the CUDA-graphed modules: `cuda_graph_modules`, or before 0.18 the scope (`--cuda-graph-scope`, a config's `cuda_graph_scope`). */
const GRAPH_MODULE_DESTS = ['cuda_graph_modules', 'cuda_graph_scope_deprecated', 'cuda_graph_scope'];
const mlpIn = (m: MegatronModel, dest: string): string | undefined => (argWords(m, dest) ?? []).find((w) => w === 'moe' || w === 'mlp');
/** `moe` or `mlp` among the CUDA-graphed modules. */
const graphedMlp = (m: MegatronModel): string | undefined => GRAPH_MODULE_DESTS.map((d) => mlpIn(m, d)).find((w) => w !== undefined);
const graphedMlpDest = (m: MegatronModel): string => GRAPH_MODULE_DESTS.find((d) => mlpIn(m, d)) ?? 'cuda_graph_modules';

/** The two deprecated SM counts, both written and different, with no unified count. */
function smConflict(m: MegatronModel): [number, number] | undefined {
  const a = argNum(m, 'moe_deepep_num_sms');
  const b = argNum(m, 'moe_hybridep_num_sms');
  return a !== undefined && b !== undefined && a !== b && argAbsent(m, 'moe_flex_dispatcher_num_sms') ? [a, b] : undefined;
}

/** An expert capacity the config keeps: a factor written 0 or above (a negative one is turned into none). */
function capacityKept(m: MegatronModel): boolean {
  const v = argValue(m, 'moe_expert_capacity_factor');
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(v) ? Number(v) : undefined;
  return n !== undefined && n >= 0;
}

/** The MoE layers build the NCCL-EP dispatcher: experts, the flex dispatcher and its `ncclep` backend. */
const ncclep = (m: MegatronModel): boolean => experts(m) && dispatcher(m) === 'flex' && argValue(m, 'moe_flex_dispatcher_backend') === 'ncclep';
const rankCapacityText = (m: MegatronModel): string => named(m, '--moe-expert-rank-capacity-factor');

/**
 * What _NCCLEPManager.__init__ refuses when the flex dispatcher is built (moe/token_dispatcher.py):
 * in 0.19.0 (@core_v0.19.0:1529-1545, 1563-1568) the zero-copy path without the static shape, the
 * static shape without the op fuser and grouped GEMM, and any run without a per-rank expert capacity;
 * from 0.20 (@d98e8a6:1558-1574) a missing capacity means eager mode, which refuses zero-copy, and a
 * capacity needs the op fuser and grouped GEMM.
 */
const NCCLEP_BUILD_CHECKS: ArgCheck[] = [
  {
    when: (m) => (ncclep(m) && argOn(m, 'moe_ncclep_zero_copy') && argOff(m, 'moe_ncclep_static_shape') ? 'moe_ncclep_zero_copy' : undefined),
    since: '0.19.0',
    before: '0.20.0',
    message: (m) => `${named(m, '--moe-ncclep-zero-copy')} without ${named(m, '--moe-ncclep-static-shape')}: the zero-copy path writes into fixed-size symmetric buffers, and Megatron Core 0.19 stops when it builds the NCCL-EP dispatcher ("moe_ncclep_zero_copy requires moe_ncclep_static_shape …"). Add ${named(m, '--moe-ncclep-static-shape')} (with the op fuser and grouped GEMM), or drop the zero-copy path.`,
  },
  {
    when: (m) => (ncclep(m) && argOn(m, 'moe_ncclep_static_shape') && (argOff(m, 'use_transformer_engine_op_fuser') || argOff(m, 'moe_grouped_gemm')) ? 'moe_ncclep_static_shape' : undefined),
    since: '0.19.0',
    before: '0.20.0',
    message: (m) => `${named(m, '--moe-ncclep-static-shape')} without ${argOff(m, 'use_transformer_engine_op_fuser') ? named(m, '--use-transformer-engine-op-fuser') : named(m, '--moe-grouped-gemm')}: the static shape feeds the experts the whole receive buffer, which only the fused grouped GEMM reads correctly, and Megatron Core 0.19 stops when it builds the NCCL-EP dispatcher ("moe_ncclep_static_shape=True requires BOTH use_transformer_engine_op_fuser and moe_grouped_gemm …"). Turn on both, or drop the static shape.`,
  },
  {
    when: (m) => (ncclep(m) && argAbsent(m, 'moe_expert_rank_capacity_factor') ? 'moe_flex_dispatcher_backend' : undefined),
    since: '0.19.0',
    before: '0.20.0',
    message: (m) => `${named(m, '--moe-flex-dispatcher-backend', 'ncclep')} without ${rankCapacityText(m)}: in Megatron Core 0.19 the capacity sizes NCCL-EP's per-rank receive buffer, and Megatron Core stops when it builds the dispatcher ("The 'ncclep' backend requires moe_expert_rank_capacity_factor to be set …"). Set ${rankCapacityText(m)} (generously: a rank that receives more tokens than it allows fails), or use Megatron Core 0.20, which runs without it.`,
  },
  {
    when: (m) => (ncclep(m) && argOn(m, 'moe_ncclep_zero_copy') && argAbsent(m, 'moe_expert_rank_capacity_factor') ? 'moe_ncclep_zero_copy' : undefined),
    since: '0.20.0',
    message: (m) => `${named(m, '--moe-ncclep-zero-copy')} without ${rankCapacityText(m)}: without a per-rank capacity the NCCL-EP dispatcher runs in eager mode, whose buffers change size every step, and Megatron Core stops when it builds the dispatcher ("moe_ncclep_zero_copy requires moe_expert_rank_capacity_factor …"). Set ${rankCapacityText(m)} (with the op fuser and grouped GEMM), or drop the zero-copy path.`,
  },
  {
    when: (m) => (ncclep(m) && argGiven(m, 'moe_expert_rank_capacity_factor') && (argOff(m, 'use_transformer_engine_op_fuser') || argOff(m, 'moe_grouped_gemm')) ? 'moe_expert_rank_capacity_factor' : undefined),
    since: '0.20.0',
    message: (m) => `${rankCapacityText(m)} on the NCCL-EP backend without ${argOff(m, 'use_transformer_engine_op_fuser') ? named(m, '--use-transformer-engine-op-fuser') : named(m, '--moe-grouped-gemm')}: a per-rank capacity gives the experts fixed-size buffers that only the fused grouped GEMM reads correctly, and Megatron Core stops when it builds the dispatcher ("moe_expert_rank_capacity_factor with the 'ncclep' backend requires BOTH use_transformer_engine_op_fuser and moe_grouped_gemm …"). Turn on both, or remove the capacity to run in eager mode.`,
  },
];

/**
 * The layer pattern a `--moe-layer-freq` text gives, as Megatron-LM evaluates it: lists of integers
 * joined by `+`, repeated by `*`, in parentheses (`"([0]*3+[1]*29)"`); undefined for anything else.
 */
export function layerPattern(text: string): number[] | undefined {
  const src = text.replace(/\s+/g, '');
  let i = 0;
  type V = number | number[];
  const num = (): number | undefined => {
    const m = /^\d+/.exec(src.slice(i));
    if (!m) return undefined;
    i += m[0].length;
    return Number(m[0]);
  };
  const atom = (): V | undefined => {
    if (src[i] === '(') {
      i++;
      const v = expr();
      if (src[i] !== ')') return undefined;
      i++;
      return v;
    }
    if (src[i] === '[') {
      i++;
      const items: number[] = [];
      while (src[i] !== ']') {
        const n = num();
        if (n === undefined) return undefined;
        items.push(n);
        if (src[i] === ',') i++;
        else if (src[i] !== ']') return undefined;
      }
      i++;
      return items;
    }
    return num();
  };
  const term = (): V | undefined => {
    let v = atom();
    while (v !== undefined && src[i] === '*') {
      i++;
      const r = atom();
      if (r === undefined) return undefined;
      if (typeof v === 'number' && typeof r === 'number') v = v * r;
      else if (Array.isArray(v) && typeof r === 'number') v = Array.from({ length: r }, () => v as number[]).flat();
      else if (typeof v === 'number' && Array.isArray(r)) v = Array.from({ length: v }, () => r).flat();
      else return undefined;
      if (Array.isArray(v) && v.length > 100000) return undefined;
    }
    return v;
  };
  const expr = (): V | undefined => {
    let v = term();
    while (v !== undefined && src[i] === '+') {
      i++;
      const r = term();
      if (r === undefined || typeof r !== typeof v || Array.isArray(r) !== Array.isArray(v)) return undefined;
      v = Array.isArray(v) ? [...v, ...(r as number[])] : (v as number) + (r as number);
    }
    return v;
  };
  const v = expr();
  return i === src.length && Array.isArray(v) ? v : undefined;
}

/** The written `--moe-layer-freq` pattern, where it is a list (written as one, or as Python list text). */
function writtenPattern(m: MegatronModel): number[] | undefined {
  const v = argValue(m, 'moe_layer_freq');
  if (Array.isArray(v)) return v.every((x) => typeof x === 'number') ? (v as number[]) : undefined;
  return typeof v === 'string' && v.includes('[') ? layerPattern(v) : undefined;
}

/** A model whose layers another setting lays out (hybrid layer patterns, a heterogeneous config, a custom spec). */
const otherLayout = (m: MegatronModel): boolean =>
  ['hybrid_override_pattern', 'hybrid_layer_pattern', 'heterogeneous_layers_config_path', 'spec'].some((d) => m.args.get(d) !== undefined) || argOn(m, 'is_hybrid_model');

/**
 * The dense FFN size the config sees: as written, or Megatron-LM's default of four times the hidden
 * size where the file leaves it out without SwiGLU (which rounds it otherwise); undefined when unknown.
 */
function ffnSize(m: MegatronModel): number | undefined {
  const f = argNum(m, 'ffn_hidden_size');
  if (f !== undefined) return f;
  const h = argNum(m, 'hidden_size');
  return argAbsent(m, 'ffn_hidden_size') && argOff(m, 'swiglu') && h !== undefined ? 4 * h : undefined;
}

/** Batch-invariant mode over an MoE model (transformer_config.py@d98e8a6:3233). */
const batchInvariantMoe = (m: MegatronModel): boolean => experts(m) && argOn(m, 'batch_invariant_mode');

const LATENT_TODO = 'Drop the shared-expert overlap, or the latent projections.';

export const MORE_MOE_CHECKS: ArgCheck[] = [
  {
    // MoELayer.forward: moe_layer.py@core_v0.16.0:265-268 to @core_v0.17.1 (an assertion on every step).
    when: (m) => (experts(m) && (argNum(m, 'moe_latent_size') ?? 0) > 0 && argOn(m, 'moe_shared_expert_overlap') ? 'moe_shared_expert_overlap' : undefined),
    since: '0.16.0',
    before: '0.18.0',
    message: (m) => `${named(m, '--moe-shared-expert-overlap')} with MoE latent projections (${named(m, '--moe-latent-size')}): Megatron Core stops on the first training step ("Shared expert overlap not supported when MoE latent projections are used."). ${LATENT_TODO}`,
  },
  {
    // MoELayer, training: moe_layer.py@core_v0.18.0:469-475, @d98e8a6:476-482.
    when: (m) => (experts(m) && (argNum(m, 'moe_latent_size') ?? 0) > 0 && argOn(m, 'moe_shared_expert_overlap') ? 'moe_shared_expert_overlap' : undefined),
    since: '0.18.0',
    message: (m) => `${named(m, '--moe-shared-expert-overlap')} with MoE latent projections (${named(m, '--moe-latent-size')}): Megatron Core stops on the first training step ("Shared expert overlap with MoE latent projections is not supported during training. Disable moe_shared_expert_overlap."). ${LATENT_TODO}`,
  },
  {
    // TopKRouter.quantile_balancing: router.py@core_v0.19.0:324-326, @d98e8a6:327-329.
    when: (m, _p, ctx) => (experts(m) && quantile(m, ctx.format) && argOn(m, 'moe_router_fusion') ? 'moe_router_fusion' : undefined),
    since: '0.19.0',
    message: (m) => `${named(m, '--moe-router-fusion')} with quantile load balancing: Megatron Core stops on the first training step ("Quantile balancing routing does not support moe_router_fusion."). Drop ${named(m, '--moe-router-fusion')}.`,
  },
  {
    // router.py@core_v0.19.0:327-329, @d98e8a6:330-332: either group setting given is refused.
    when: (m, _p, ctx) => {
      if (!experts(m) || !quantile(m, ctx.format)) return undefined;
      if (argGiven(m, 'moe_router_num_groups')) return 'moe_router_num_groups';
      return argGiven(m, 'moe_router_group_topk') ? 'moe_router_group_topk' : undefined;
    },
    since: '0.19.0',
    message: (m) => `Group-limited routing (${named(m, '--moe-router-num-groups')} / ${named(m, '--moe-router-group-topk')}) with quantile load balancing: Megatron Core stops on the first training step ("Quantile balancing routing does not support group-limited routing."). Remove the group settings, or use another load-balancing type.`,
  },
  {
    // transformer_config.py@core_v0.17.0:1171-1174, @d98e8a6:1599-1602; expert TP defaults to TP.
    when: (m, p) => (inferenceMoe(m) && (p?.etp.value ?? 1) > 1 ? (m.args.get('expert_tensor_parallel_size') ? 'expert_tensor_parallel_size' : 'transformer_impl') : undefined),
    since: '0.17.0',
    message: (m, p) => `${named(m, '--transformer-impl', 'inference_optimized')} with expert tensor parallelism ${p?.etp.value}${argAbsent(m, 'expert_tensor_parallel_size') ? ' (the TP size, its default)' : ''}: Megatron Core stops when it builds the model config ("Inference-optimized MoE layers does not support expert tensor parallelism."). Set ${named(m, '--expert-tensor-parallel-size', '1')}.`,
  },
  {
    // transformer_config.py@core_v0.17.0:1175-1176, @d98e8a6:1603-1604 (before a negative factor is turned into none).
    when: (m) => (inferenceMoe(m) && argGiven(m, 'moe_expert_capacity_factor') ? 'moe_expert_capacity_factor' : undefined),
    since: '0.17.0',
    message: (m) => `${named(m, '--moe-expert-capacity-factor')} with ${named(m, '--transformer-impl', 'inference_optimized')}: Megatron Core stops when it builds the model config ("Inference-optimized MoE layers only support dropless MoE"). Remove the capacity factor.`,
  },
  {
    // transformer_config.py@core_v0.17.0:1182-1186, @d98e8a6:1610-1614: the router dtype defaults to none.
    when: (m) => {
      if (!inferenceMoe(m)) return undefined;
      const d = argOr(m, 'moe_router_dtype', null);
      return d !== undefined && d !== 'fp32' ? (m.args.get('moe_router_dtype') ? 'moe_router_dtype' : 'transformer_impl') : undefined;
    },
    since: '0.17.0',
    message: (m) => `${named(m, '--transformer-impl', 'inference_optimized')} in an MoE model with the router dtype ${argGiven(m, 'moe_router_dtype') ? `\`${String(argValue(m, 'moe_router_dtype'))}\`` : 'left out'}: Megatron Core stops when it builds the model config ("--transformer-impl='inference_optimized' requires --moe-router-dtype=fp32 to avoid costly dtype conversions during decode."). Set ${named(m, '--moe-router-dtype', 'fp32')}.`,
  },
  {
    // transformer_config.py@core_v0.18.0:1684-1685, @d98e8a6:2211-2212.
    when: (m) => (argOn(m, 'moe_paged_stash') && cpuOffloading(m) ? 'moe_paged_stash' : undefined),
    since: '0.18.0',
    message: (m) => `${named(m, '--moe-paged-stash')} with CPU offloading (${argOn(m, 'cpu_offloading') ? named(m, '--cpu-offloading') : named(m, '--cpu-offloading-num-layers')}): Megatron Core stops when it builds the model config ("moe_paged_stash cannot be enabled with cpu_offloading."). Keep one of them.`,
  },
  {
    // transformer_config.py@core_v0.18.0:1686-1690, @d98e8a6:2213-2217.
    when: (m) => (argOn(m, 'moe_paged_stash') && argAbsent(m, 'moe_expert_rank_capacity_factor') ? 'moe_paged_stash' : undefined),
    since: '0.18.0',
    message: (m) => `${named(m, '--moe-paged-stash')} without ${named(m, '--moe-expert-rank-capacity-factor')}: the stash pages are sized by the per-rank expert capacity, and Megatron Core stops when it builds the model config ("moe_paged_stash requires moe_expert_rank_capacity_factor to be set; there is no need to use paged stashing without it."). Set a per-rank capacity factor, or drop the paged stash.`,
  },
  ...(
    [
      ['0.18.0', '0.19.0', false],
      ['0.19.0', undefined, true],
    ] as const
  ).map(
    ([since, before, withFused]): ArgCheck => ({
      // transformer_config.py@core_v0.18.0:1691-1697; `fused_group_mlp` too from @core_v0.19.0:1875 (@d98e8a6:2166).
      when: (m) => (argOn(m, 'moe_paged_stash') && stashedOffloads(m, withFused).length ? 'offload_modules' : undefined),
      since,
      before,
      message: (m) => `${named(m, '--offload-modules')} has ${stashedOffloads(m, withFused).map((x) => `\`${x}\``).join(' and ')} with ${named(m, '--moe-paged-stash')}: the paged stash already keeps those activations, and Megatron Core stops when it builds the model config ("When moe_paged_stash is enabled, offload_modules must not include ..."). Remove them from the offloaded modules.`,
    }),
  ),
  ...(
    [
      ['0.16.0', '0.17.0', false],
      ['0.17.0', '0.18.0', true],
    ] as const
  ).map(
    ([since, before, inferenceExempt]): ArgCheck => ({
      // training/arguments.py@core_v0.16.0:1159-1161, @core_v0.17.0:1450-1452 (not for the inference-optimized layers); gone in 0.18.
      when: (m, p) => (localGraphs(m) && (p?.ep.value ?? 1) > 1 && argOff(m, 'moe_pad_experts_for_cuda_graph_inference') && !(inferenceExempt && argValue(m, 'transformer_impl') === 'inference_optimized') ? (m.args.get('cuda_graph_impl') ? 'cuda_graph_impl' : 'enable_cuda_graph') : undefined),
      formats: MLM_FLAG_FORMATS,
      since,
      before,
      message: (m, p) => `Per-layer CUDA graphs (${argValue(m, 'cuda_graph_impl') === 'local' ? named(m, '--cuda-graph-impl', 'local') : named(m, '--enable-cuda-graph')}) with expert parallelism ${p?.ep.value}: Megatron-LM ${inferenceExempt ? '0.17' : '0.16'} stops at startup ("--moe-pad-experts-for-cuda-graph-inference must be set when using CUDA graphs with expert parallelism"). Add ${named(m, '--moe-pad-experts-for-cuda-graph-inference')}, or use Megatron Core 0.18 or later.`,
    }),
  ),
  {
    // transformer_config.py@core_v0.7.0:436-440 to @core_v0.9.0:468-472.
    when: (m) => (argOn(m, 'moe_extended_tp') && dispatcher(m) !== undefined && dispatcher(m) !== 'allgather' ? 'moe_extended_tp' : undefined),
    since: '0.7.0',
    before: '0.10.0',
    message: (m) => `${named(m, '--moe-extended-tp')} with the token dispatcher ${dispatcherText(m)}: Megatron Core stops when it builds the model config ("Moe extended TP parallelism only applies to allgather based token dispatcher."). Use the \`allgather\` dispatcher, or drop the flag.`,
  },
  {
    // transformer_config.py@core_v0.7.0:441-444, @core_v0.8.0:437-440.
    when: (m, p) => {
      const f = argNum(m, 'ffn_hidden_size');
      return argOn(m, 'moe_extended_tp') && f !== undefined && p && f % (p.tp.value * p.ep.value) !== 0 ? 'moe_extended_tp' : undefined;
    },
    since: '0.7.0',
    before: '0.9.0',
    message: (m, p) => `${named(m, '--moe-extended-tp')} with ${named(m, '--ffn-hidden-size', String(argNum(m, 'ffn_hidden_size')))}, which TP × EP = ${(p?.tp.value ?? 1) * (p?.ep.value ?? 1)} does not divide: the experts are split over both, and Megatron Core stops when it builds the model config ("ffn_hidden_size: … must be divisible by extended_tp_size …"). Use an FFN size that TP × EP divides, or drop the flag.`,
  },
  {
    // transformer_config.py@core_v0.14.0:1324-1326, @d98e8a6:3027-3029.
    when: (m) => (overlap(m) && argGiven(m, 'recompute_num_layers') ? 'recompute_num_layers' : undefined),
    since: '0.14.0',
    message: (m) => `${named(m, '--recompute-num-layers')} with EP all-to-all overlap: Megatron Core stops when it builds the model config ("recompute_num_layers must be None when enabling overlap_moe_expert_parallel_comm"). Remove the layer count, or drop the overlap.`,
  },
  ...NCCLEP_BUILD_CHECKS,
  {
    // transformer_config.py@d98e8a6:1768-1774 (after core_v0.19.0).
    when: (m) => (argValue(m, 'moe_flex_dispatcher_backend') === 'ncclep' && argOn(m, 'moe_use_grouped_tensor') && argOff(m, 'use_transformer_engine_op_fuser') ? 'moe_use_grouped_tensor' : undefined),
    since: '0.20.0',
    message: (m) => `${named(m, '--moe-use-grouped-tensor')} on the NCCL-EP backend without Transformer Engine's op fuser: Megatron Core stops when it builds the model config ("moe_use_grouped_tensor=True without use_transformer_engine_op_fuser is not yet supported with the NCCL-EP dispatcher. …"). Turn on ${named(m, '--use-transformer-engine-op-fuser')}, or drop the grouped tensor.`,
  },
  {
    // transformer_config.py@core_v0.19.0:2729-2736, @d98e8a6:3054-3061.
    when: (m) => (overlap(m) && dispatcher(m) === 'flex' && argValue(m, 'moe_flex_dispatcher_backend') === 'ncclep' && argOn(m, 'fine_grained_activation_offloading') && (argWords(m, 'offload_modules') ?? []).includes('expert_fc1') ? 'offload_modules' : undefined),
    since: '0.19.0',
    message: (m) => `Offloading \`expert_fc1\` (${named(m, '--offload-modules')}) with EP all-to-all overlap on the NCCL-EP backend: Megatron Core stops when it builds the model config ("overlap_moe_expert_parallel_comm with ncclep does not support offloading 'expert_fc1' …"). Remove \`expert_fc1\` from the offloaded modules, or drop the overlap.`,
  },
  {
    // core/distributed/fsdp/mcore_fsdp_adapter.py@core_v0.18.0:159-162, @d98e8a6:177-181 (when the model is wrapped).
    when: (m) => (overlap(m) && argOn(m, 'use_megatron_fsdp') && argOn(m, 'fsdp_double_buffer') ? 'fsdp_double_buffer' : undefined),
    since: '0.18.0',
    message: (m) => `${named(m, '--fsdp-double-buffer')} with EP all-to-all overlap under Megatron-FSDP: Megatron Core stops when it wraps the model ("1F1B overlap with FSDP does not support double buffer. …"). Drop ${named(m, '--fsdp-double-buffer')}, or the overlap.`,
  },
  {
    // mcore_fsdp_adapter.py@core_v0.18.0:163-168, @d98e8a6:182-187.
    when: (m) => {
      const g = argValue(m, 'cuda_graph_impl');
      return overlap(m) && argOn(m, 'use_megatron_fsdp') && (g === 'local' || g === 'transformer_engine') ? 'cuda_graph_impl' : undefined;
    },
    since: '0.18.0',
    message: (m) => `Per-layer CUDA graphs (${named(m, '--cuda-graph-impl', String(argValue(m, 'cuda_graph_impl')))}) with EP all-to-all overlap under Megatron-FSDP: Megatron Core stops when it wraps the model ("1F1B overlap with FSDP does not support per-layer CUDA graphs …"). Use ${named(m, '--cuda-graph-impl', 'full_iteration')} or none.`,
  },
  {
    // transformer_config.py@core_v0.19.0:1629-1633, @d98e8a6:1805-1809.
    when: (m) => (smConflict(m) ? 'moe_hybridep_num_sms' : undefined),
    since: '0.19.0',
    message: (m) => `${named(m, '--moe-deepep-num-sms', String(smConflict(m)![0]))} and ${named(m, '--moe-hybridep-num-sms', String(smConflict(m)![1]))} disagree: both deprecated counts now set the one SM count of the flex dispatcher, and Megatron Core stops when it builds the model config ("Conflicting deprecated SM-count knobs …; set a single moe_flex_dispatcher_num_sms instead."). Set ${named(m, '--moe-flex-dispatcher-num-sms')} instead of both.`,
  },
  {
    // transformer_config.py@core_v0.11.0:794-797, @d98e8a6:2673-2676.
    when: (m) => ((argNum(m, 'moe_router_group_topk') ?? 0) > 0 && (argNum(m, 'moe_router_topk_limited_devices') ?? 0) > 0 ? 'moe_router_topk_limited_devices' : undefined),
    since: '0.11.0',
    message: (m) => `${named(m, '--moe-router-topk-limited-devices')} with ${named(m, '--moe-router-group-topk')}: the old device-limited routing setting is replaced by the group settings, and Megatron Core stops when it builds the model config ("moe_router_topk_limited_devices is deprecated and replaced by moe_router_group_topk and moe_router_num_groups."). Remove ${named(m, '--moe-router-topk-limited-devices')}.`,
  },
  {
    // transformer_config.py@d98e8a6:3239-3243 (after core_v0.19.0); the inference-optimized layers are exempt.
    when: (m) => (batchInvariantMoe(m) && argValue(m, 'transformer_impl') !== 'inference_optimized' && dispatcher(m) !== undefined && dispatcher(m) !== 'alltoall' ? (m.args.get('moe_token_dispatcher_type') ? 'moe_token_dispatcher_type' : 'batch_invariant_mode') : undefined),
    since: '0.20.0',
    message: (m) => `${named(m, '--batch-invariant-mode')} in an MoE model with the token dispatcher ${dispatcherText(m)}: Megatron Core stops when it builds the model config ("Batch-invariant MoE training requires moe_token_dispatcher_type='alltoall'."). Set ${named(m, '--moe-token-dispatcher-type', 'alltoall')}.`,
  },
  {
    // transformer_config.py@d98e8a6:3262-3264.
    when: (m) => (batchInvariantMoe(m) && (argGiven(m, 'fp8') || argGiven(m, 'fp4')) ? (argGiven(m, 'fp8') ? 'fp8' : 'fp4') : undefined),
    since: '0.20.0',
    message: (m) => `${named(m, '--batch-invariant-mode')} in an MoE model with ${argGiven(m, 'fp8') ? 'FP8' : 'FP4'} training: Megatron Core stops when it builds the model config ("Batch-invariant MoE is bf16-only. Disable fp8/fp4 to use it."). Train in BF16, or drop batch-invariant mode.`,
  },
  {
    // transformer_config.py@d98e8a6:3265-3268.
    when: (m) => (batchInvariantMoe(m) && (argOn(m, 'moe_permute_fusion') || argOn(m, 'moe_permute_fusion_into_hybridep')) ? (argOn(m, 'moe_permute_fusion') ? 'moe_permute_fusion' : 'moe_permute_fusion_into_hybridep') : undefined),
    since: '0.20.0',
    message: (m) => `${argOn(m, 'moe_permute_fusion') ? named(m, '--moe-permute-fusion') : named(m, '--moe-permute-fusion-into-hybridep')} with ${named(m, '--batch-invariant-mode')}: Megatron Core stops when it builds the model config ("Batch-invariant MoE requires the unfused permute/unpermute path so top-k reductions use the fixed batch-invariant add tree."). Drop the permute fusion.`,
  },
  {
    // transformer_config.py@d98e8a6:3269-3275.
    when: (m) => (batchInvariantMoe(m) && (argOn(m, 'moe_pad_expert_input_to_capacity') || argOn(m, 'moe_pad_experts_for_cuda_graph_inference')) ? (argOn(m, 'moe_pad_expert_input_to_capacity') ? 'moe_pad_expert_input_to_capacity' : 'moe_pad_experts_for_cuda_graph_inference') : undefined),
    since: '0.20.0',
    message: (m) => `Expert padding (${argOn(m, 'moe_pad_expert_input_to_capacity') ? named(m, '--moe-pad-expert-input-to-capacity') : named(m, '--moe-pad-experts-for-cuda-graph-inference')}) with ${named(m, '--batch-invariant-mode')}: Megatron Core stops when it builds the model config ("Batch-invariant MoE supports dynamic dropless routing only. Disable MoE capacity/expert padding."). Drop the padding.`,
  },
  {
    // training/arguments.py@core_v0.16.0:1106-1107, @d98e8a6:1756-1757.
    when: (m) => (argOn(m, 'fake_process_group') && dispatcher(m) === 'flex' ? 'moe_token_dispatcher_type' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.16.0',
    message: (m) => `${named(m, '--moe-token-dispatcher-type', 'flex')} with ${named(m, '--fake-process-group')}: Megatron-LM stops at startup ("Fake process group is not supported with flex token dispatcher."). Use the \`alltoall\` dispatcher for a fake-process-group run.`,
  },
  {
    // _NCCLEPManager.__init__: token_dispatcher.py@d98e8a6:1554-1556 (after core_v0.19.0), when the dispatcher is built.
    when: (m) => {
      if (!experts(m) || dispatcher(m) !== 'flex' || argValue(m, 'moe_flex_dispatcher_backend') !== 'ncclep') return undefined;
      if (argOn(m, 'moe_pad_expert_input_to_capacity')) return 'moe_pad_expert_input_to_capacity';
      return capacityKept(m) ? 'moe_expert_capacity_factor' : undefined;
    },
    since: '0.20.0',
    message: (m) => `${argOn(m, 'moe_pad_expert_input_to_capacity') ? named(m, '--moe-pad-expert-input-to-capacity') : named(m, '--moe-expert-capacity-factor')} on the NCCL-EP backend: it drops and pads no tokens yet, and Megatron Core stops when it builds the dispatcher ("drop and pad is not supported yet with the 'ncclep' backend."). Remove the capacity factor and padding, or use another backend.`,
  },
  {
    // transformer_config.py@d98e8a6:1673-1680 (after core_v0.19.0).
    when: (m, p) => (batchInvariantMoe(m) && argValue(m, 'transformer_impl') === 'inference_optimized' && (p?.ep.value ?? 1) > 1 && argValue(m, 'inference_moe_token_dispatcher_type') === 'nccl' ? 'inference_moe_token_dispatcher_type' : undefined),
    since: '0.20.0',
    message: (m, p) => `${named(m, '--inference-moe-token-dispatcher-type', 'nccl')} with ${named(m, '--batch-invariant-mode')}, the inference-optimized MoE layers and expert parallelism ${p?.ep.value}: Megatron Core stops when it builds the model config ("batch_invariant_mode with inference-optimized MoE and expert parallelism requires inference_moe_token_dispatcher_type='nvls'."). Use the \`nvls\` dispatcher (the default).`,
  },
  {
    // The GPT layer specs (models/gpt/gpt_layer_specs.py@core_v0.10.0:326-331, @d98e8a6:651-656) and, from
    // 0.12, the FLOPs count of every training step (training/training.py@core_v0.12.0:219-224, @d98e8a6:1031-1036).
    when: (m) => {
      const pat = writtenPattern(m);
      const n = argNum(m, 'num_layers');
      return experts(m) && pat && n !== undefined && pat.length !== n && !otherLayout(m) ? 'moe_layer_freq' : undefined;
    },
    formats: MLM_FLAG_FORMATS,
    since: '0.10.0',
    message: (m) => `${named(m, '--moe-layer-freq')} gives ${writtenPattern(m)!.length} layers and the model has ${argNum(m, 'num_layers')} (${named(m, '--num-layers')}): the pattern marks each layer as MoE (1) or dense (0), and Megatron stops when it builds the layers ("Invalid length of moe_layer_pattern: ${writtenPattern(m)!.length}, expected ${argNum(m, 'num_layers')}, …"). Give one entry per layer.`,
  },
  {
    // megatron/arguments.py@core_v0.4.0:389-390, training/arguments.py@core_v0.6.0:495-496 to @core_v0.15.0:1026-1027; gone in 0.16.
    when: (m) => (experts(m) && argGiven(m, 'spec') ? 'spec' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.4.0',
    before: '0.16.0',
    message: (m) => `${named(m, '--spec')} in an MoE model (${named(m, '--num-experts')}): Megatron-LM before Megatron Core 0.16 builds MoE layers only from its own layer specs and stops at startup ("Model Spec must be None when using MoEs"). Remove ${named(m, '--spec')}, or use Megatron Core 0.16 or later.`,
  },
  {
    // training/arguments.py@core_v0.16.0:1272, @core_v0.17.1:1602; the legacy models are gone in 0.18.
    when: (m) => ((argNum(m, 'moe_latent_size') ?? 0) > 0 && experts(m) && argOn(m, 'use_legacy_models') ? 'moe_latent_size' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.16.0',
    before: '0.18.0',
    message: (m) => `${named(m, '--moe-latent-size')} with ${named(m, '--use-legacy-models')}: Megatron-LM stops at startup ("MoE latent projections are only supported for mcore models."). Drop ${named(m, '--use-legacy-models')}.`,
  },
  {
    // SequentialMLP.__init__ (the experts without grouped GEMM): moe/experts.py@core_v0.10.0:757-760, @core_v0.11.0:758-761; 0.12 takes other sizes.
    when: (m) => {
      const e = argNum(m, 'moe_ffn_hidden_size');
      const f = ffnSize(m);
      return experts(m) && argOff(m, 'moe_grouped_gemm') && e !== undefined && f !== undefined && e !== f ? 'moe_ffn_hidden_size' : undefined;
    },
    since: '0.10.0',
    before: '0.12.0',
    message: (m) => `${named(m, '--moe-ffn-hidden-size', String(argNum(m, 'moe_ffn_hidden_size')))} differs from the dense FFN size (${ffnSize(m)}${argAbsent(m, 'ffn_hidden_size') ? ', four times the hidden size by default' : ''}) and the experts run without grouped GEMM: Megatron Core 0.10 and 0.11 stop when they build the experts ("Please use GroupedMLP or TEGroupedMLP when moe_ffn_hidden_size is different from ffn_hidden_size"). Add ${named(m, '--moe-grouped-gemm')}, or use Megatron Core 0.12 or later.`,
  },
  {
    // transformer_config.py@core_v0.16.0:1898-1906 to @core_v0.17.1: only Transformer Engine's graphs; 0.18 allows the local ones.
    when: (m) => (overlap(m) && localGraphs(m) ? (m.args.get('cuda_graph_impl') ? 'cuda_graph_impl' : 'enable_cuda_graph') : undefined),
    since: '0.16.0',
    before: '0.18.0',
    message: (m) => `Per-layer CUDA graphs (${argValue(m, 'cuda_graph_impl') === 'local' ? named(m, '--cuda-graph-impl', 'local') : named(m, '--enable-cuda-graph')}) with EP all-to-all overlap: Megatron Core 0.16 and 0.17 take only Transformer Engine's graphs beside the overlap and stop when they build the model config ("CUDA graph scope on moe and mlp is not supported with overlap_moe_expert_parallel_comm"). Use ${named(m, '--cuda-graph-impl', 'transformer_engine')} on other modules, or Megatron Core 0.18 or later.`,
  },
  {
    // transformer_config.py@core_v0.16.0:1898-1906 (cuda_graph_scope), @core_v0.18.0:2443-2451, @d98e8a6:3064-3071 (cuda_graph_modules).
    when: (m) => (overlap(m) && argValue(m, 'cuda_graph_impl') === 'transformer_engine' && graphedMlp(m) ? graphedMlpDest(m) : undefined),
    since: '0.16.0',
    message: (m) => `\`${graphedMlp(m)}\` in the CUDA graph modules (${graphedMlpDest(m) === 'cuda_graph_modules' ? named(m, '--cuda-graph-modules') : named(m, '--cuda-graph-scope')}) with Transformer Engine's graphs and EP all-to-all overlap: the overlap splits the MoE and MLP part itself, and Megatron Core stops when it builds the model config ("CUDA graph scope on moe and mlp is not supported with overlap_moe_expert_parallel_comm"). Capture other modules (\`attn\`, \`moe_router\`...), or drop the overlap.`,
  },
];

export const MORE_MOE_WHY =
  'It also stops on: the shared-expert overlap with MoE latent projections (from 0.16, on the first training step); quantile load balancing with router fusion or group-limited routing (from 0.19, on the first step); the inference-optimized MoE layers (`--transformer-impl inference_optimized`, from 0.17) with expert tensor parallelism above 1, a capacity factor, or a router dtype other than fp32 (none by default); the paged stash with CPU offloading, without a per-rank capacity factor, or with offloaded modules it already covers (from 0.18); in Megatron-LM 0.16 and 0.17, per-layer CUDA graphs with expert parallelism and no `--moe-pad-experts-for-cuda-graph-inference`; the old `--moe-extended-tp` with a dispatcher other than allgather (0.7 to 0.9) or an FFN size that TP × EP does not divide (0.7, 0.8); EP all-to-all overlap with a recompute layer count (from 0.14), with per-layer CUDA graphs other than Transformer Engine\'s (0.16, 0.17) or Transformer Engine\'s graphs of the `moe` or `mlp` modules (from 0.16), with `expert_fc1` offloaded on the NCCL-EP backend (from 0.19), or under Megatron-FSDP with its double buffer or per-layer CUDA graphs (from 0.18); the grouped expert tensor on NCCL-EP without the op fuser (from 0.20); when it builds the NCCL-EP dispatcher, in 0.19 a run without `--moe-expert-rank-capacity-factor`, the zero-copy path without `--moe-ncclep-static-shape`, and the static shape without the op fuser and grouped GEMM, and from 0.20 the zero-copy path without a per-rank capacity (eager mode) and a per-rank capacity without the op fuser and grouped GEMM; two different deprecated SM counts (from 0.19); the device-limited routing setting with group-limited routing (from 0.11); a `--moe-layer-freq` pattern whose length is not the layer count (from 0.10); an expert FFN size other than the dense one without grouped GEMM (0.10, 0.11); in Megatron-LM, a `--spec` in an MoE model (before 0.16) and MoE latent projections with `--use-legacy-models` (0.16, 0.17); `--moe-token-dispatcher-type flex` with Megatron-LM\'s `--fake-process-group` (from 0.16); and, from 0.20, a capacity factor or expert padding on the NCCL-EP backend, and batch-invariant mode in an MoE model with a dispatcher other than all-to-all (allgather by default), FP8/FP4, permute fusion or expert padding, or, on the inference-optimized layers with expert parallelism, the `nccl` inference dispatcher.';
