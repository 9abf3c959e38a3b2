/**
 * cuda-graph-config-invalid: CUDA graph arguments that Megatron Core refuses together when it builds
 * the transformer config (Megatron-LM's argument checks make the same assertions first).
 *
 * megatron/core/transformer/transformer_config.py and megatron/training/arguments.py:
 * - `enable_cuda_graph` and `external_cuda_graph` together: refused from core_v0.12.0 (transformer_layer.py; arguments.py too from 0.14)
 *   and in the config from 0.15.0;
 * - either of them beside a `cuda_graph_impl` other than `none`: refused from core_v0.15.0, where
 *   both became deprecated spellings of `cuda_graph_impl` (`local`, `transformer_engine`);
 * - `inference_cuda_graph_scope` outside the set its implementation allows (cuda_graph_config.py,
 *   ALLOWED_INFERENCE_SCOPES: `local` takes `layer` or `block`, every other implementation `none`):
 *   from core_v0.18.0, where the scope was added;
 * - `cuda_graph_modules` with `cuda_graph_impl full_iteration`, which captures the whole iteration:
 *   from core_v0.18.0;
 * - the old words of the module list: `full` beside another value (from core_v0.16.0 in the scope), and
 *   from core_v0.18.0 `full_iteration` beside `full_iteration_inference`, or either beside an
 *   implementation or inference scope it cannot become (cuda_graph_config.py, oldWordRefusal);
 * - activation recomputation beside per-layer graphs: any with `enable_cuda_graph` (core_v0.11.0 to
 *   0.14), any but selective recomputation beside Transformer Engine graphs of the attention alone
 *   (0.15), and from 0.16 full recomputation, or selective recomputation of a graphed module whose
 *   dropout is on (attention and hidden dropout are 0.1 by default).
 */
import { recomputeGranularity, argAbsent, argGiven, argWritten, argNum, argOff, argOn, argValue, MEGATRON_FORMATS, argWords, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { named, runChecks, type ArgCheck } from '../formats/megatron/checks';
import { defineRule } from './rule';

const IMPLS = ['none', 'local', 'transformer_engine', 'full_iteration'];
/** Deprecated `--cuda-graph-modules` / `--cuda-graph-scope` words that rewrite the implementation or the scope. */
const MIGRATING = new Set(['full_iteration', 'full_iteration_inference', 'full']);

/** Old scope words that Megatron turns into an implementation or a scope before it checks them. */
function migrates(m: MegatronModel): boolean {
  const all = [...(argWords(m, 'cuda_graph_modules') ?? ['?']), ...(argWords(m, 'cuda_graph_scope_deprecated') ?? ['?']), ...(argWords(m, 'cuda_graph_scope') ?? ['?'])];
  return all.some((w) => w === '?' || MIGRATING.has(w));
}

/**
 * The implementation Megatron checks the scope against, when the file fixes it. A written
 * implementation other than `none` is read alone: an old switch beside it is refused on its own.
 */
function effectiveImpl(m: MegatronModel): string | undefined {
  const impl = argValue(m, 'cuda_graph_impl');
  if (typeof impl === 'string' && impl !== 'none') return IMPLS.includes(impl) ? impl : undefined;
  if (impl !== undefined && impl !== 'none') return undefined;
  const enable = argOn(m, 'enable_cuda_graph');
  const external = argOn(m, 'external_cuda_graph');
  if (enable !== external) return enable ? 'local' : 'transformer_engine';
  if (enable) return undefined;
  return (impl === 'none' || argAbsent(m, 'cuda_graph_impl')) && argOff(m, 'enable_cuda_graph') && argOff(m, 'external_cuda_graph') ? 'none' : undefined;
}

/**
 * `layer` or `block` away from the local implementation is refused whatever old module words the
 * config holds (each either leaves the scope to be checked or is refused beside it:
 * validate_deprecated_cuda_graph_modules_migration_inputs); `none` with the local implementation
 * is refused unless an old `full_iteration` word turns the implementation into a full-iteration graph.
 */
function scopeMismatch(m: MegatronModel): string | undefined {
  const scope = argValue(m, 'inference_cuda_graph_scope');
  if (typeof scope !== 'string' || !['none', 'layer', 'block'].includes(scope)) return undefined;
  const impl = effectiveImpl(m);
  if (!impl) return undefined;
  if (scope !== 'none') return impl !== 'local' ? 'inference_cuda_graph_scope' : undefined;
  return impl === 'local' && !migrates(m) ? 'inference_cuda_graph_scope' : undefined;
}

function implName(m: MegatronModel): string {
  const impl = effectiveImpl(m);
  const written = argValue(m, 'cuda_graph_impl');
  if (written !== undefined) return `\`--cuda-graph-impl ${String(written)}\``;
  if (impl === 'local') return '`--enable-cuda-graph` (the old spelling of `--cuda-graph-impl local`)';
  if (impl === 'transformer_engine') return '`--external-cuda-graph` (the old spelling of `--cuda-graph-impl transformer_engine`)';
  return '`--cuda-graph-impl` left at `none`';
}

/**
 * Megatron-LM's own argument checks (validate_args; not run for Bridge or NeMo, nor for a `--yaml-cfg`
 * file), from core_v0.18.0 (training/arguments.py@core_v0.18.0:631-638, 1186-1196; @d98e8a6:633-636,
 * 1235-1245) and core_v0.17.0 for the local graph count (@d98e8a6:1247-1250).
 */
/** The NaN check is on: left at its default or written on, and not turned off by FP16 with dynamic loss scaling. */
function nanCheckOn(m: MegatronModel): boolean {
  if (!(argAbsent(m, 'check_for_nan_in_loss_and_grad') || argOn(m, 'check_for_nan_in_loss_and_grad'))) return false;
  return argOff(m, 'fp16') || (argOn(m, 'fp16') && argGiven(m, 'loss_scale'));
}
/**
 * From 0.18 an old `full_iteration` or `full_iteration_inference` word (of `--cuda-graph-scope` or
 * `--cuda-graph-modules`) is turned into `--cuda-graph-impl full_iteration` or `--inference-cuda-graph-scope
 * block` before the checks that follow (training/arguments.py@core_v0.18.0:631-644, cuda_graph_config.py@core_v0.18.0:10-13,82-135;
 * the same @d98e8a6): the flag that holds the word, where it is the only old word and nothing beside it is refused.
 */
const LOCAL_OFFLOAD = new Set(['expert_fc1', 'moe_act', 'fused_group_mlp']);
const MODULE_NAMES = new Set(['attn', 'mlp', 'moe', 'moe_router', 'moe_preprocess', 'mamba']);
function migratedWord(m: MegatronModel, word: 'full_iteration' | 'full_iteration_inference'): string | undefined {
  const dests = ['cuda_graph_scope_deprecated', 'cuda_graph_modules'].filter((d) => (argWords(m, d) ?? []).length > 0);
  if (dests.length !== 1) return undefined;
  const words = argWords(m, dests[0]) ?? [];
  // Any other word must be a module name (CudaGraphModule@core_v0.18.0, @d98e8a6): else parsing stops first.
  if (!words.includes(word) || words.some((w) => w !== word && !MODULE_NAMES.has(w))) return undefined;
  const impl = effectiveImpl(m);
  const scopeAbsent = argAbsent(m, 'inference_cuda_graph_scope');
  if (word === 'full_iteration') return (impl === 'none' || impl === 'local') && (scopeAbsent || argValue(m, 'inference_cuda_graph_scope') === 'none') ? dests[0] : undefined;
  return impl === 'local' && scopeAbsent ? dests[0] : undefined;
}
const oldFlag = (dest: string): string => (dest === 'cuda_graph_modules' ? '--cuda-graph-modules' : '--cuda-graph-scope');
const blockWritten = (m: MegatronModel) => argValue(m, 'inference_cuda_graph_scope') === 'block' && effectiveImpl(m) === 'local';
/** Block-level inference graphs with FP8: the flag to report on (the scope, or the old word that becomes it from 0.18). */
const blockWithFp8 = (m: MegatronModel): string | undefined => (!argGiven(m, 'fp8') ? undefined : blockWritten(m) ? 'inference_cuda_graph_scope' : migratedWord(m, 'full_iteration_inference'));
const blockName = (m: MegatronModel): string => (blockWritten(m) ? '`--inference-cuda-graph-scope block`' : `\`${oldFlag(blockWithFp8(m) ?? '')} full_iteration_inference\` (which Megatron-LM turns into \`--inference-cuda-graph-scope block\` from 0.18)`);
const fullIterationInferenceWithFp8 = (m: MegatronModel) => effectiveImpl(m) === 'local' && (argWords(m, 'cuda_graph_scope_deprecated') ?? []).includes('full_iteration_inference') && argGiven(m, 'fp8');
const ARGUMENT_CHECKS: ArgCheck[] = [
  {
    when: (m) => {
      const modules = argWords(m, 'cuda_graph_modules');
      return argGiven(m, 'cuda_graph_scope_deprecated') && modules && modules.length > 0 ? 'cuda_graph_scope_deprecated' : undefined;
    },
    message: () => '`--cuda-graph-scope` beside `--cuda-graph-modules`: the first is the old name of the second, and Megatron-LM stops at startup ("--cuda-graph-scope and --cuda-graph-modules cannot be used together."). Keep `--cuda-graph-modules`.',
    formats: MLM_FLAG_FORMATS,
    since: '0.18.0',
  },
  {
    // The old `full_iteration` word, which becomes that implementation from 0.18 (migratedWord).
    when: (m) => (nanCheckOn(m) ? migratedWord(m, 'full_iteration') : undefined),
    message: (m) => `\`${oldFlag(migratedWord(m, 'full_iteration') ?? '')} full_iteration\` with the NaN check on (the default): from 0.18 Megatron-LM turns the old word into \`--cuda-graph-impl full_iteration\`, whose graph of the whole iteration cannot read the loss and gradients on the host every step, and it stops at startup ("--no-check-for-nan-in-loss-and-grad should be set with --cuda-graph-impl=full_iteration for training."). Add \`--no-check-for-nan-in-loss-and-grad\`.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.18.0',
  },
  {
    when: (m) => (argValue(m, 'cuda_graph_impl') === 'full_iteration' && nanCheckOn(m) ? 'cuda_graph_impl' : undefined),
    message: () => '`--cuda-graph-impl full_iteration` with the NaN check on (the default): the check reads the loss and gradients on the host every step, which a graph of the whole iteration cannot do, and Megatron-LM stops at startup ("--no-check-for-nan-in-loss-and-grad should be set with --cuda-graph-impl=full_iteration for training."). Add `--no-check-for-nan-in-loss-and-grad`.',
    formats: MLM_FLAG_FORMATS,
    since: '0.18.0',
  },
  // Before 0.18 a full-iteration graph was a scope of the local implementation (`--cuda-graph-scope
  // full_iteration`): the same refusal, except for dynamic-batching inference before 0.17
  // (training/arguments.py@core_v0.14.0:669-671, @core_v0.15.0:749-752, @core_v0.17.0:1001-1003).
  ...[
    { since: '0.14.0', before: '0.17.0', inference: true },
    { since: '0.17.0', before: '0.18.0', inference: false },
  ].map(
    (r): ArgCheck => ({
      when: (m) =>
        effectiveImpl(m) === 'local' && (argWords(m, 'cuda_graph_scope_deprecated') ?? []).includes('full_iteration') && nanCheckOn(m) && (!r.inference || argOff(m, 'inference_dynamic_batching'))
          ? 'cuda_graph_scope_deprecated'
          : undefined,
      message: () => '`--cuda-graph-scope full_iteration` with the NaN check on (the default): the check reads the loss and gradients on the host every step, which a graph of the whole iteration cannot do, and Megatron-LM stops at startup ("--no-check-for-nan-in-loss-and-grad should be set with full_iteration CUDA graph"). Add `--no-check-for-nan-in-loss-and-grad`.',
      formats: MLM_FLAG_FORMATS,
      since: r.since,
      before: r.before,
    }),
  ),
  {
    // training/arguments.py@core_v0.15.0:749-755, @core_v0.16.0:725-731: dynamic-batching inference takes
    // a full-iteration graph, but not with FP8.
    when: (m) => (effectiveImpl(m) === 'local' && (argWords(m, 'cuda_graph_scope_deprecated') ?? []).includes('full_iteration') && argOn(m, 'inference_dynamic_batching') && argGiven(m, 'fp8') ? 'cuda_graph_scope_deprecated' : undefined),
    message: () => '`--cuda-graph-scope full_iteration` for dynamic-batching inference with FP8: Megatron-LM 0.15 and 0.16 stop at startup ("fp8 is not supported with inference dynamic batching and full_iteration CUDA graph"). Drop FP8 for inference, or the full-iteration graph.',
    formats: MLM_FLAG_FORMATS,
    since: '0.15.0',
    before: '0.17.0',
  },
  // Before 0.18 a full-iteration inference graph was the local scope `full_iteration_inference`, with the
  // same FP8 conditions as block-level graphs from 0.18 (training/arguments.py@core_v0.17.0:1005-1011).
  {
    when: (m) => (fullIterationInferenceWithFp8(m) && (argAbsent(m, 'transformer_impl') || (typeof argValue(m, 'transformer_impl') === 'string' && argValue(m, 'transformer_impl') !== 'inference_optimized')) ? 'cuda_graph_scope_deprecated' : undefined),
    message: () => '`--cuda-graph-scope full_iteration_inference` with FP8: full-iteration inference graphs run FP8 only in the inference-optimized layers, and Megatron-LM 0.17 stops at startup ("fp8 with full_iteration_inference CUDA graphs is only supported with --transformer-impl=inference_optimized"). Add `--transformer-impl inference_optimized` (with `--fp8-recipe mxfp8`), or drop FP8 for inference.',
    formats: MLM_FLAG_FORMATS,
    since: '0.17.0',
    before: '0.18.0',
  },
  {
    when: (m) => (fullIterationInferenceWithFp8(m) && argValue(m, 'transformer_impl') === 'inference_optimized' && (argAbsent(m, 'fp8_recipe') || (typeof argValue(m, 'fp8_recipe') === 'string' && argValue(m, 'fp8_recipe') !== 'mxfp8')) ? 'cuda_graph_scope_deprecated' : undefined),
    message: (m) => `\`--cuda-graph-scope full_iteration_inference\` with the FP8 recipe \`${argAbsent(m, 'fp8_recipe') ? 'delayed' : String(argValue(m, 'fp8_recipe'))}\`${argAbsent(m, 'fp8_recipe') ? ' (the default)' : ''}: full-iteration inference graphs take only MXFP8, and Megatron-LM 0.17 stops at startup ("Only --fp8-recipe=mxfp8 is supported with full_iteration_inference CUDA graphs"). Use \`--fp8-recipe mxfp8\`.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.17.0',
    before: '0.18.0',
  },
  {
    when: (m) => (argAbsent(m, 'transformer_impl') || (typeof argValue(m, 'transformer_impl') === 'string' && argValue(m, 'transformer_impl') !== 'inference_optimized') ? blockWithFp8(m) : undefined),
    message: (m) => `${blockName(m)} with FP8: block-level inference graphs run FP8 only in the inference-optimized layers, and Megatron-LM stops at startup ("fp8 with --inference-cuda-graph-scope=block is only supported with --transformer-impl=inference_optimized"). Add \`--transformer-impl inference_optimized\` (with \`--fp8-recipe mxfp8\`), or use the \`layer\` scope.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.18.0',
  },
  {
    when: (m) => (argValue(m, 'transformer_impl') === 'inference_optimized' && (argAbsent(m, 'fp8_recipe') || (typeof argValue(m, 'fp8_recipe') === 'string' && argValue(m, 'fp8_recipe') !== 'mxfp8')) ? blockWithFp8(m) : undefined),
    message: (m) => `${blockName(m)} with the FP8 recipe \`${argAbsent(m, 'fp8_recipe') ? 'delayed' : String(argValue(m, 'fp8_recipe'))}\`${argAbsent(m, 'fp8_recipe') ? ' (the default)' : ''}: block-level inference graphs take only MXFP8, and Megatron-LM stops at startup ("Only --fp8-recipe=mxfp8 is supported with --inference-cuda-graph-scope=block"). Add \`--fp8-recipe mxfp8\`, or use the \`layer\` scope.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.18.0',
  },
  {
    when: (m) => {
      const v = argValue(m, 'inference_dynamic_batching_num_cuda_graphs');
      const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : undefined;
      return effectiveImpl(m) === 'local' && n !== undefined && n <= 0 && n !== -1 ? 'inference_dynamic_batching_num_cuda_graphs' : undefined;
    },
    message: () => '`--inference-dynamic-batching-num-cuda-graphs` below 1 (other than -1) with local CUDA graphs: Megatron-LM stops at startup ("inference_dynamic_batching_num_cuda_graphs should be a positive integer or -1"). Give a positive count, or -1 to derive it from the request limit.',
    formats: MLM_FLAG_FORMATS,
    since: '0.17.0',
  },
];

/**
 * The modules a per-layer graph captures, when the file fixes them: an empty list (or the old
 * `full`) captures the whole layer. Undefined when a word is unknown or turns the graph into a
 * full-iteration one. A config-field file (Bridge, NeMo) has no deprecated `--cuda-graph-scope` flag.
 */
function graphedModules(m: MegatronModel): string[] | undefined {
  // In a config-field file that writes `cuda_graph_modules` (a field from 0.18), a `cuda_graph_scope` from the
  // recipe is either empty or refused beside it ("cuda_graph_scope and cuda_graph_modules cannot be set together").
  const dests = !m.args.configFields ? ['cuda_graph_modules', 'cuda_graph_scope_deprecated', 'cuda_graph_scope'] : argGiven(m, 'cuda_graph_modules') ? ['cuda_graph_modules'] : ['cuda_graph_modules', 'cuda_graph_scope'];
  const all = dests.flatMap((d) => (argAbsent(m, d) ? [] : argGiven(m, d) ? argWords(m, d) ?? ['?'] : ['?']));
  if (all.some((w) => w === '?' || w.startsWith('full_iteration'))) return undefined;
  // `full` beside another word is refused before the modules are looked at (oldWordRefusal).
  if (all.includes('full') && all.length > 1) return undefined;
  return all.filter((w) => w !== 'full');
}

/** The recompute modules (Megatron Core's default, `core_attn`, when none is written), or undefined. */
function recomputeModules(m: MegatronModel): string[] | undefined {
  if (argAbsent(m, 'recompute_modules')) return ['core_attn'];
  return argGiven(m, 'recompute_modules') ? argWords(m, 'recompute_modules') : undefined;
}

/** A dropout probability known to be above 0 (Megatron's default for both is 0.1). */
function dropoutOn(m: MegatronModel, dest: string): boolean {
  if (argAbsent(m, dest)) return true;
  const v = argValue(m, dest);
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d*\.?\d+(e-?\d+)?$/i.test(v) ? Number(v) : undefined;
  return n !== undefined && n !== 0;
}

const perLayer = (m: MegatronModel) => {
  const impl = effectiveImpl(m);
  return impl === 'local' || impl === 'transformer_engine';
};

/**
 * Selective recomputation of a module that a per-layer graph captures, with a dropout in it: a graphed
 * recomputation cannot draw new random numbers (transformer_config.py@core_v0.16.0:1800-1819, the same
 * at d98e8a6:2873-2899). `module` is the recompute module, `graphed` the graph modules that hold it.
 */
function graphedRecompute(m: MegatronModel, module: string, graphed: string, dropout: string): boolean {
  if (recomputeGranularity(m) !== 'selective' || !perLayer(m) || !dropoutOn(m, dropout)) return false;
  const mods = graphedModules(m);
  const rec = recomputeModules(m);
  if (!mods || !rec || !rec.includes(module)) return false;
  return mods.length === 0 || mods.includes(graphed);
}

const recomputeDest = (m: MegatronModel) => (argGiven(m, 'recompute_modules') ? 'recompute_modules' : argGiven(m, 'recompute_granularity') ? 'recompute_granularity' : 'recompute_activations');

/** What Megatron Core 0.15 refuses of recomputation beside per-layer graphs: all of it, or the attention modules. */
function v015Refusal(m: MegatronModel): 'any' | 'attn' | undefined {
  const g = recomputeGranularity(m);
  if (!g || !perLayer(m)) return undefined;
  const dest = argGiven(m, 'cuda_graph_scope') ? 'cuda_graph_scope' : 'cuda_graph_scope_deprecated';
  const scope = argGiven(m, dest) ? argWords(m, dest) : argAbsent(m, 'cuda_graph_scope') && argAbsent(m, 'cuda_graph_scope_deprecated') ? [] : undefined;
  if (!scope) return undefined;
  const attnOnly = g === 'selective' && effectiveImpl(m) === 'transformer_engine' && scope.length === 1 && scope[0] === 'attn';
  if (!attnOnly) return 'any';
  const rec = recomputeModules(m);
  return rec && rec.some((x) => x === 'core_attn' || x === 'mla_up_proj') ? 'attn' : undefined;
}

const RECOMPUTE_CHECKS: ArgCheck[] = [
  {
    // transformer_config.py@core_v0.11.0:822-826 … @core_v0.14.0:1267-1271: the local graphs refuse any recomputation.
    when: (m) => (argOn(m, 'enable_cuda_graph') && recomputeGranularity(m) ? 'enable_cuda_graph' : undefined),
    since: '0.11.0',
    before: '0.15.0',
    message: () => '`--enable-cuda-graph` with activation recomputation: Megatron Core stops when it builds the transformer config ("CUDA graphs not supported with activation recomputation"). Drop the recomputation, or the CUDA graphs.',
  },
  {
    // transformer_config.py@core_v0.15.0:1397-1408: only selective recomputation beside Transformer Engine
    // graphs of attention, and then not of the attention core (the default module) or MLA's up-projection.
    when: (m) => (v015Refusal(m) ? recomputeDest(m) : undefined),
    since: '0.15.0',
    before: '0.16.0',
    message: (m) => v015Refusal(m) === 'attn'
      ? `Transformer Engine graphs of the attention with selective recomputation of ${argAbsent(m, 'recompute_modules') ? 'the attention core (the default recompute module)' : 'a module inside them'}: Megatron Core 0.15 stops when it builds the transformer config ("attn cuda graph is not supported with … recompute"). Recompute other modules (\`--recompute-modules\`), or drop the CUDA graphs.`
      : `${implName(m)} with ${recomputeGranularity(m)} activation recomputation: Megatron Core 0.15 allows recomputation beside CUDA graphs only when it is selective and Transformer Engine graphs just the attention (\`--cuda-graph-scope attn\`), and stops when it builds the transformer config ("CUDA graphs not supported with activation recomputation"). Drop the recomputation, or the CUDA graphs.`,
  },
  {
    // transformer_config.py@core_v0.16.0:1780-1784, @d98e8a6:2854-2858.
    when: (m) => (recomputeGranularity(m) === 'full' && perLayer(m) && graphedModules(m) ? (argGiven(m, 'recompute_granularity') ? 'recompute_granularity' : 'cuda_graph_impl') : undefined),
    since: '0.16.0',
    message: (m) => `${implName(m)} captures per-layer graphs, and full activation recomputation replays whole layers outside them: Megatron Core stops when it builds the transformer config ("full recompute is only supported with full iteration CUDA graph"). Use selective recomputation, or \`--cuda-graph-impl full_iteration\`.`,
  },
  {
    when: (m) => (graphedRecompute(m, 'core_attn', 'attn', 'attention_dropout') ? recomputeDest(m) : undefined),
    since: '0.16.0',
    message: (m) => `Selective recomputation of the attention core (${argAbsent(m, 'recompute_modules') ? 'the default recompute module' : '`core_attn`'}) inside the graph ${implName(m)} captures, with attention dropout ${argAbsent(m, 'attention_dropout') ? '(0.1 by default) ' : ''}on: a graphed recomputation cannot draw new random numbers, and Megatron Core stops when it builds the transformer config ("attention dropout is not supported with graphed attention recomputation"). Set \`--attention-dropout 0\`, recompute other modules, or graph only modules outside the attention (\`--cuda-graph-modules\`).`,
  },
  {
    when: (m) => (graphedRecompute(m, 'mlp', 'mlp', 'hidden_dropout') || graphedRecompute(m, 'moe', 'moe', 'hidden_dropout') ? recomputeDest(m) : undefined),
    since: '0.16.0',
    message: (m) => `Selective recomputation of the MLP/MoE inside the graph ${implName(m)} captures, with hidden dropout ${argAbsent(m, 'hidden_dropout') ? '(0.1 by default) ' : ''}on: a graphed recomputation cannot draw new random numbers, and Megatron Core stops when it builds the transformer config ("hidden dropout is not supported with graphed MLP/MoE recomputation"). Set \`--hidden-dropout 0\`, recompute other modules, or keep the MLP/MoE out of the graph.`,
  },
];

/**
 * The old words of a module list that Megatron refuses before it turns them into an implementation or a
 * scope. `full` (the old whole layer) must stand alone: from core_v0.16.0 in `--cuda-graph-scope` and the
 * `cuda_graph_scope` field (training/arguments.py@core_v0.16.0:1255-1260, @core_v0.17.0:1574-1579;
 * transformer_config.py@core_v0.16.0:1700-1705, @core_v0.17.0:1929-1934), and from core_v0.18.0 in
 * `cuda_graph_modules` too, into which both old names are copied (cuda_graph_config.py@core_v0.18.0:39-41).
 * From 0.18 also: `full_iteration` beside `full_iteration_inference` (:97-101); `full_iteration` with an
 * implementation other than none, local or full_iteration, or an inference scope other than none (:107-116);
 * `full_iteration_inference` with one other than none or local, or a scope other than block (:117-126).
 * Megatron-LM's argument checks (training/arguments.py@core_v0.18.0:273-282, 643) and
 * TransformerConfig.__post_init__ (transformer_config.py@core_v0.18.0:2184-2189, Bridge) both make them;
 * cuda_graph_config.py is the same at core_v0.18.2, core_v0.19.0 and d98e8a6. An unwritten scope is None
 * there, which both words take; an implementation or a scope the file does not fix silences its part.
 */
interface OldWordRefusal { dest: string; kind: 'full' | 'both' | 'impl' | 'scope'; word: string }
const OLD_WORDS = new Set(['full', 'full_iteration', 'full_iteration_inference']);
function oldWordRefusal(m: MegatronModel, ctx: { atLeast(v: string): boolean }): OldWordRefusal | undefined {
  const v18 = ctx.atLeast('0.18.0');
  // Whether a list is written is looked up untracked: one a Bridge override leaves out is the recipe's,
  // and beside a written list the recipe's old field is either empty or refused on its own.
  const dests = (v18 ? ['cuda_graph_modules', 'cuda_graph_scope_deprecated', 'cuda_graph_scope'] : ['cuda_graph_scope_deprecated', 'cuda_graph_scope']).filter((d) => argWritten(m, d) && (argWords(m, d) ?? []).length > 0);
  // Two lists: the old name beside the new is refused on its own (or, in a config, `full` gives way to the old field).
  if (dests.length !== 1) return undefined;
  const dest = dests[0];
  const words = argWords(m, dest) ?? [];
  // Another word stops the parse, or the name lookup, first (invalid-value).
  if (words.some((w) => !MODULE_NAMES.has(w) && !OLD_WORDS.has(w))) return undefined;
  if (words.includes('full')) return words.length > 1 ? { dest, kind: 'full', word: 'full' } : undefined;
  const old = [...new Set(words.filter((w) => OLD_WORDS.has(w)))];
  if (!v18 || old.length === 0) return undefined;
  if (old.length > 1) return { dest, kind: 'both', word: old.join(' ') };
  const word = old[0];
  const implBad = () => {
    const impl = effectiveImpl(m);
    return !!impl && !(word === 'full_iteration' ? ['none', 'local', 'full_iteration'] : ['none', 'local']).includes(impl);
  };
  const scopeBad = () => {
    const scope = argValue(m, 'inference_cuda_graph_scope');
    return typeof scope === 'string' && (word === 'full_iteration' ? ['layer', 'block'] : ['none', 'layer']).includes(scope);
  };
  // Megatron asks about the implementation first; where a config leaves it to the recipe, reading it
  // would make any finding unknown, so a written scope is asked about first (either refusal stops the run).
  const order = !m.args.configFields || argWritten(m, 'cuda_graph_impl') ? (['impl', 'scope'] as const) : (['scope', 'impl'] as const);
  const kind = order.find((k) => (k === 'impl' ? implBad() : scopeBad()));
  return kind ? { dest, kind, word } : undefined;
}
const listFlag = (m: MegatronModel, dest: string) => named(m, dest === 'cuda_graph_modules' ? '--cuda-graph-modules' : '--cuda-graph-scope');
function oldWordMessage(m: MegatronModel, r: OldWordRefusal): string {
  const list = `${listFlag(m, r.dest)} with \`${r.word}\``;
  // Read only for the refusal that names them: a value a Bridge override leaves to the recipe is unknown.
  const scope = () => String(argValue(m, 'inference_cuda_graph_scope'));
  const impl = () => effectiveImpl(m) ?? '';
  // Named untracked (named): a flag a Bridge override leaves out is only spelled here, not read.
  const fullImpl = named(m, '--cuda-graph-impl', 'full_iteration');
  const block = named(m, '--inference-cuda-graph-scope', 'block');
  const localBlock = `${named(m, '--cuda-graph-impl', 'local')} with ${block}`;
  const quote = (what: string, value: string) => `("cuda_graph_modules='${r.word}' cannot be combined with ${what}='${value}'.")`;
  if (r.kind === 'full') return `${list} beside other values: \`full\` is the old spelling of the whole layer and must stand alone, so Megatron stops at startup ("full scope cannot be used with other scopes."). Leave the list empty to capture the whole layer, or list only the modules to capture.`;
  if (r.kind === 'both') return `${listFlag(m, r.dest)} with both \`full_iteration\` and \`full_iteration_inference\`: the two old words ask for different graphs (a full-iteration graph for training, block-level graphs for inference), and from 0.18 Megatron stops at startup ("cuda_graph_modules cannot contain multiple deprecated values at the same time"). Keep one: ${fullImpl}, or ${localBlock}.`;
  if (r.word === 'full_iteration') {
    return r.kind === 'impl'
      ? `${list} and ${implName(m)}: from 0.18 Megatron turns the old word into ${fullImpl}, which cannot replace another implementation, and stops at startup ${quote('cuda_graph_impl', impl())}. Write ${fullImpl} in place of both.`
      : `${list} and ${named(m, '--inference-cuda-graph-scope', scope())}: from 0.18 Megatron turns the old word into ${fullImpl}, whose graph takes no inference scope, and stops at startup ${quote('inference_cuda_graph_scope', scope())}. Remove the scope, and write ${fullImpl} for the old word.`;
  }
  return r.kind === 'impl'
    ? `${list} and ${implName(m)}: from 0.18 Megatron turns the old word into ${block}, which only the local implementation captures, and stops at startup ${quote('cuda_graph_impl', impl())}. Write ${localBlock}, or drop the old word.`
    : `${list} and ${named(m, '--inference-cuda-graph-scope', scope())}: from 0.18 Megatron turns the old word into the \`block\` scope and stops rather than choose between the two ${quote('inference_cuda_graph_scope', scope())}. Write ${block} (with ${named(m, '--cuda-graph-impl', 'local')}) and drop the old word, or drop the old word alone.`;
}

const CHECKS: ArgCheck[] = [
  {
    when: (m, _p, ctx) => oldWordRefusal(m, ctx)?.dest,
    // The message has no release to hand: a refusal found at 0.18 holds as found; else it is the `full` one found before.
    message: (m) => oldWordMessage(m, (oldWordRefusal(m, { atLeast: () => true }) ?? oldWordRefusal(m, { atLeast: () => false }))!),
    since: '0.16.0',
  },
  {
    when: (m) => (argOn(m, 'enable_cuda_graph') && argOn(m, 'external_cuda_graph') ? 'external_cuda_graph' : undefined),
    // transformer_layer.py@core_v0.12.0:254-257 (when the layers are built), then also training/arguments.py from 0.14;
    // the switches are the only spelling before `--cuda-graph-impl` (training/arguments.py@core_v0.15.0:1405).
    message: () => '`--enable-cuda-graph` and `--external-cuda-graph` together: they choose two different CUDA graph implementations (Megatron Core\'s own and Transformer Engine\'s), and Megatron stops ("cannot be enabled at the same time"). Keep one.',
    since: '0.12.0',
    before: '0.15.0',
  },
  {
    when: (m) => (argOn(m, 'enable_cuda_graph') && argOn(m, 'external_cuda_graph') ? 'external_cuda_graph' : undefined),
    message: () => '`--enable-cuda-graph` and `--external-cuda-graph` together: they choose two different CUDA graph implementations (Megatron Core\'s own and Transformer Engine\'s), and Megatron stops ("cannot be enabled at the same time"). Keep one, written as `--cuda-graph-impl local` or `--cuda-graph-impl transformer_engine`.',
    since: '0.15.0',
  },
  {
    when: (m) => {
      const impl = argValue(m, 'cuda_graph_impl');
      if (typeof impl !== 'string' || impl === 'none' || !IMPLS.includes(impl)) return undefined;
      return argOn(m, 'enable_cuda_graph') ? 'enable_cuda_graph' : argOn(m, 'external_cuda_graph') ? 'external_cuda_graph' : undefined;
    },
    message: (m) => `\`--${argOn(m, 'enable_cuda_graph') ? 'enable' : 'external'}-cuda-graph\` beside \`--cuda-graph-impl ${String(argValue(m, 'cuda_graph_impl'))}\`: the switch is the old spelling of an implementation, and Megatron stops at startup ("Do not use … with cuda_graph_impl"). Remove the switch and keep \`--cuda-graph-impl\`.`,
    since: '0.15.0',
  },
  {
    when: scopeMismatch,
    message: (m) => {
      const scope = String(argValue(m, 'inference_cuda_graph_scope'));
      return scope === 'none'
        ? `\`--inference-cuda-graph-scope none\` with ${implName(m)}: the local implementation captures inference graphs per \`layer\` or per \`block\` and has no \`none\`, so Megatron stops at startup ("Invalid inference CUDA graph scope"). Remove the scope (local then captures per layer), or choose \`layer\` or \`block\`.`
        : `\`--inference-cuda-graph-scope ${scope}\` with ${implName(m)}: only Megatron Core's local implementation captures inference graphs per ${scope}, so Megatron stops at startup ("Invalid inference CUDA graph scope"). Add \`--cuda-graph-impl local\`, or remove the scope.`;
    },
    since: '0.18.0',
  },
  {
    when: (m) => {
      if (argValue(m, 'cuda_graph_impl') !== 'full_iteration' || migrates(m)) return undefined;
      const modules = argWords(m, 'cuda_graph_modules');
      return modules && modules.length > 0 ? 'cuda_graph_modules' : undefined;
    },
    message: () => '`--cuda-graph-modules` with `--cuda-graph-impl full_iteration`: a full-iteration graph captures the whole step, so there are no modules to choose, and Megatron Core stops when it builds the transformer config ("cuda_graph_modules must be empty"). Remove `--cuda-graph-modules`.',
    since: '0.18.0',
  },
  ...ARGUMENT_CHECKS,
];

/** The experts, when known: none (or one) for a dense model. */
const expertCount = (m: MegatronModel): number | undefined => (argAbsent(m, 'num_moe_experts') || (m.args.get('num_moe_experts') !== undefined && argValue(m, 'num_moe_experts') === null) ? 0 : argNum(m, 'num_moe_experts'));
/** The graphed modules with `moe_router` and `moe_preprocess` added, as the local implementation adds them for each other. */
function graphedModulesAsChecked(m: MegatronModel): string[] | undefined {
  const mods = graphedModules(m);
  if (!mods) return undefined;
  if (effectiveImpl(m) === 'local' && (mods.includes('moe_router') || mods.includes('moe_preprocess'))) return [...new Set([...mods, 'moe_router', 'moe_preprocess'])];
  return mods;
}
const moduleList = (m: MegatronModel) => (argGiven(m, 'cuda_graph_modules') ? '`--cuda-graph-modules`' : '`--cuda-graph-scope`');
const moduleDest = (m: MegatronModel) => (argGiven(m, 'cuda_graph_modules') ? 'cuda_graph_modules' : argGiven(m, 'cuda_graph_scope_deprecated') ? 'cuda_graph_scope_deprecated' : 'cuda_graph_scope');
/** Drop-and-pad MoE: a capacity factor with the input padded to it. */
const dropPad = (m: MegatronModel): boolean | undefined => {
  // The padding first: without it the capacity factor (which a Bridge recipe may set) is not read.
  if (argOff(m, 'moe_pad_expert_input_to_capacity') || argAbsent(m, 'moe_expert_capacity_factor')) return false;
  return argGiven(m, 'moe_expert_capacity_factor') && argOn(m, 'moe_pad_expert_input_to_capacity') ? true : undefined;
};
/** Every layer an MoE layer: `--moe-layer-freq` 1 (the default). */
const allMoe = (m: MegatronModel): boolean => {
  const f = argAbsent(m, 'moe_layer_freq') ? 1 : argValue(m, 'moe_layer_freq');
  return f === 1 || f === '1';
};
/** CPU offloading of activations: `cpu_offloading` written on, or Megatron-LM's `--cpu-offloading-num-layers` above 0 (0.16 on). */
const cpuOffloading = (m: MegatronModel, ctx: { atLeast(v: string): boolean }): boolean => {
  if (argOn(m, 'cpu_offloading')) return true;
  const n = argNum(m, 'cpu_offloading_num_layers');
  return n !== undefined && n > 0 && !m.args.configFields && !m.args.yamlCfg && ctx.atLeast('0.16.0');
};

/**
 * What per-layer graphs (local, Transformer Engine) may capture of an MoE model, from Megatron Core 0.16
 * (`cuda_graph_scope`, transformer_config.py@core_v0.16.0:1725-1778; `cuda_graph_modules` from 0.18,
 * @core_v0.18.0:2247-2290, @d98e8a6:2800-2852); the local implementation first adds `moe_router` and
 * `moe_preprocess` for each other. CPU offloading beside CUDA graphs (0.15 on; from 0.18 a full-iteration
 * graph takes it), and Transformer Engine graphs of the full iteration before 0.18.
 */
const MODULE_CHECKS: ArgCheck[] = [
  {
    when: (m) => {
      const mods = perLayer(m) ? graphedModulesAsChecked(m) : undefined;
      return mods?.includes('moe') && mods.includes('moe_router') ? moduleDest(m) : undefined;
    },
    since: '0.16.0',
    message: (m) => `${moduleList(m)} with both \`moe\` and the MoE router${effectiveImpl(m) === 'local' && !(graphedModules(m) ?? []).includes('moe_router') ? ' (the local implementation adds `moe_router` for `moe_preprocess`)' : ''}: the \`moe\` graph already holds the router, and Megatron Core stops when it builds the transformer config ("… must not contain both moe and moe_router."). Keep one of them.`,
  },
  {
    when: (m) => {
      const mods = effectiveImpl(m) === 'transformer_engine' ? graphedModules(m) : undefined;
      return mods?.includes('moe_preprocess') && !mods.includes('moe_router') ? moduleDest(m) : undefined;
    },
    since: '0.16.0',
    message: (m) => `${moduleList(m)} with \`moe_preprocess\` and without \`moe_router\` under Transformer Engine graphs: the preprocessing is graphed together with the router, and Megatron Core stops when it builds the transformer config ("moe_preprocess cuda graph is only supported with moe_router cuda graph."). Add \`moe_router\`.`,
  },
  {
    when: (m) => {
      const mods = perLayer(m) ? graphedModulesAsChecked(m) : undefined;
      const n = expertCount(m);
      return mods && n !== undefined && n <= 1 && (mods.includes('moe') || mods.includes('moe_router')) ? moduleDest(m) : undefined;
    },
    since: '0.16.0',
    message: (m) => `${moduleList(m)} names MoE graphs (\`moe\`, \`moe_router\` or \`moe_preprocess\`) for a model without experts${argAbsent(m, 'num_moe_experts') ? '' : ` (${named(m, '--num-experts', String(argValue(m, 'num_moe_experts')))})`}: Megatron Core stops when it builds the transformer config ("moe cuda graph is only supported for MoE."). Graph \`attn\` and \`mlp\` instead, or leave the list empty for the whole layer.`,
  },
  {
    when: (m) => {
      const mods = perLayer(m) ? graphedModules(m) : undefined;
      return mods?.includes('mlp') && (expertCount(m) ?? 0) > 1 && allMoe(m) ? moduleDest(m) : undefined;
    },
    since: '0.16.0',
    message: (m) => `${moduleList(m)} has \`mlp\` and every layer is an MoE layer${argAbsent(m, 'moe_layer_freq') ? ' (`--moe-layer-freq` 1, the default)' : ''}: there is no dense MLP to graph, and Megatron Core stops when it builds the transformer config ("mlp cuda graph is only supported for dense layers, but not found in the model."). Graph \`moe\` or \`moe_router\` instead.`,
  },
  {
    when: (m) => {
      const mods = perLayer(m) ? graphedModules(m) : undefined;
      return mods?.includes('moe') && (expertCount(m) ?? 0) > 1 && dropPad(m) === false ? moduleDest(m) : undefined;
    },
    since: '0.16.0',
    message: (m) => `${moduleList(m)} has \`moe\` for dropless MoE (no ${named(m, '--moe-expert-capacity-factor')} with ${named(m, '--moe-pad-expert-input-to-capacity')}): the expert shapes change every step, and Megatron Core stops when it builds the transformer config ("moe cuda graph is only supported with drop-padding MoE."). Graph \`moe_router\` instead, or drop and pad the tokens.`,
  },
  {
    // transformer_config.py@core_v0.11.0:822-824 to @core_v0.14.0: Megatron Core's own graphs (enable_cuda_graph)
    // with CPU offloading; Megatron-LM has no offloading flag before 0.16, so a Bridge or NeMo config meets it.
    when: (m, _p, ctx) => (argOn(m, 'enable_cuda_graph') && cpuOffloading(m, ctx) ? (argOn(m, 'cpu_offloading') ? 'cpu_offloading' : 'cpu_offloading_num_layers') : undefined),
    since: '0.11.0',
    before: '0.15.0',
    message: () => 'CPU offloading of activations with Megatron Core\'s CUDA graphs (`enable_cuda_graph`): Megatron Core does not graph layers whose activations it offloads, and stops when it builds the transformer config ("CUDA graphs not supported with CPU offloading."). Keep one of them.',
  },
  {
    when: (m, _p, ctx) => {
      const impl = effectiveImpl(m);
      if (!impl || impl === 'none' || !cpuOffloading(m, ctx)) return undefined;
      if (impl === 'full_iteration' && ctx.atLeast('0.18.0')) return undefined;
      return argOn(m, 'cpu_offloading') ? 'cpu_offloading' : 'cpu_offloading_num_layers';
    },
    since: '0.15.0',
    message: (m) => `CPU offloading of activations with ${implName(m)}: Megatron Core does not graph layers whose activations it offloads, and stops when it builds the transformer config ("CUDA graphs not supported with CPU offloading."). Keep one of them${argValue(m, 'cuda_graph_impl') === 'local' ? ' (from Megatron Core 0.18 a full-iteration graph, `--cuda-graph-impl full_iteration`, takes the offloading)' : ''}.`,
  },
  {
    // transformer_config.py@core_v0.18.0:2351-2356; from 0.19 local graphs take only a partial MoE offload (below).
    when: (m) => (argOn(m, 'fine_grained_activation_offloading') && effectiveImpl(m) === 'local' ? 'fine_grained_activation_offloading' : undefined),
    since: '0.18.0',
    before: '0.19.0',
    message: (m) => `${named(m, '--fine-grained-activation-offloading')} with ${implName(m)}: Megatron Core 0.18 offloads activations under CUDA graphs only with Transformer Engine graphs or a full-iteration graph, and stops when it builds the transformer config ("fine-grained activation offloading is only supported with transformer_engine CUDA graph implementation or local CUDA graph implementation with full_iteration scope."). Use \`--cuda-graph-impl transformer_engine\` or \`full_iteration\`.`,
  },
  {
    // transformer_config.py@core_v0.19.0:2598-2625 (@d98e8a6 the same): local graphs take fine-grained
    // offloading only of expert_fc1, moe_act or fused_group_mlp (the empty list is refused before), with a module list
    // (not whole-layer capture); `moe` in that list is refused by the check below.
    when: (m) => {
      if (!argOn(m, 'fine_grained_activation_offloading') || effectiveImpl(m) !== 'local') return undefined;
      const off = argAbsent(m, 'offload_modules') ? [] : argGiven(m, 'offload_modules') ? argWords(m, 'offload_modules') : undefined;
      if (!off) return undefined;
      if (off.some((w) => !LOCAL_OFFLOAD.has(w))) return 'offload_modules';
      // An empty list is refused earlier in the same config check (recompute-config-invalid).
      if (off.length === 0) return undefined;
      const mods = graphedModules(m);
      return mods && mods.length === 0 ? 'fine_grained_activation_offloading' : undefined;
    },
    since: '0.19.0',
    message: (m) => {
      const off = argAbsent(m, 'offload_modules') ? [] : argWords(m, 'offload_modules') ?? [];
      const bad = off.filter((w) => !LOCAL_OFFLOAD.has(w));
      const what = bad.length ? `the offload modules ${bad.map((w) => `\`${w}\``).join(', ')}` : 'whole-layer capture (no `--cuda-graph-modules`)';
      const quote = bad.length ? "fine-grained activation offloading with cuda_graph_impl='local' only supports offload_modules 'expert_fc1', 'moe_act', and 'fused_group_mlp'." : "fine-grained activation offloading with cuda_graph_impl='local' is not supported with whole-layer CUDA graph capture.";
      return `${named(m, '--fine-grained-activation-offloading')} with ${implName(m)} and ${what}: from Megatron Core 0.19 local graphs take only a partial MoE offload (\`expert_fc1\`, \`moe_act\` or \`fused_group_mlp\`, beside a module list without \`moe\`), and Megatron Core stops when it builds the transformer config ("${quote}"). Offload only those modules and give \`--cuda-graph-modules\`, or use \`--cuda-graph-impl transformer_engine\` or \`full_iteration\`.`;
    },
  },
  {
    // transformer_config.py@core_v0.18.0:2357-2359, @d98e8a6:2958-2960.
    when: (m) => {
      const impl = effectiveImpl(m);
      const mods = impl && impl !== 'none' && argOn(m, 'fine_grained_activation_offloading') ? graphedModules(m) : undefined;
      return mods?.includes('moe') ? moduleDest(m) : undefined;
    },
    since: '0.18.0',
    message: (m) => `${moduleList(m)} has \`moe\` with ${named(m, '--fine-grained-activation-offloading')}: Megatron Core stops when it builds the transformer config ("Token-drop MoE is temporarily not supported with activation offloading."). Graph \`moe_router\` instead, or drop the offloading.`,
  },
  {
    // transformer_config.py@core_v0.18.0:2360-2363, @d98e8a6:2961-2964.
    when: (m) => {
      const impl = effectiveImpl(m);
      const n = impl && impl !== 'none' && argOn(m, 'fine_grained_activation_offloading') ? argNum(m, 'cuda_graph_warmup_steps') : undefined;
      return n === 0 ? 'cuda_graph_warmup_steps' : undefined;
    },
    since: '0.18.0',
    message: (m) => `${named(m, '--cuda-graph-warmup-steps', '0')} with ${named(m, '--fine-grained-activation-offloading')} and CUDA graphs: Megatron Core stops when it builds the transformer config ("cuda_graph_warmup_steps must be greater than 0 when enabling fine-grained activation offloading."). Keep at least one warm-up step (the default is 3).`,
  },
  {
    // transformer_config.py@core_v0.16.0:1737-1741, @core_v0.17.0; at 0.15 the graph helper refuses it before
    // the first step (cuda_graphs.py@core_v0.15.0:1353-1356). 0.18 moves the full iteration to `--cuda-graph-impl`.
    when: (m) => {
      if (effectiveImpl(m) !== 'transformer_engine') return undefined;
      const dest = ['cuda_graph_scope_deprecated', 'cuda_graph_scope'].find((d) => (argWords(m, d) ?? []).includes('full_iteration'));
      return dest;
    },
    since: '0.15.0',
    before: '0.18.0',
    message: (m) => `\`--cuda-graph-scope full_iteration\` with ${implName(m)}: only Megatron Core's own (local) graphs capture the whole iteration, and Megatron stops at startup ("To use full iteration cuda graph, please use cuda_graph_impl=local instead of cuda_graph_impl=transformer_engine."; in 0.15 "full_iteration cuda graph is not supported for cuda_graph_impl=transformer_engine" before the first step). Use \`--cuda-graph-impl local\`.`,
  },
];

export default defineRule<MegatronModel>({
  id: 'cuda-graph-config-invalid',
  severity: 'error',
  formats: MEGATRON_FORMATS,
  docs: {
    summary: 'CUDA graph arguments that Megatron refuses together: both old switches, an old switch beside `--cuda-graph-impl`, old words of the module list it cannot convert, an inference scope its implementation does not take, modules with a full-iteration graph, MoE graph modules the model cannot take, CPU offloading, activation recomputation the graphs cannot hold, and (Megatron-LM\'s own checks) the old scope name beside the new, a full-iteration graph with the NaN check, FP8 block-level inference graphs outside the inference-optimized MXFP8 layers, or a local graph count below 1.',
    why: 'From Megatron Core 0.15, `--enable-cuda-graph` and `--external-cuda-graph` are old spellings of `--cuda-graph-impl local` and `transformer_engine`, so either beside `--cuda-graph-impl` is refused (both together from 0.12, when the layers are built). From 0.18 the inference graph scope must match the implementation: `layer` and `block` need the local implementation, which in turn has no `none`; and a full-iteration graph takes no module list. The old words of the module list are converted only where they stand alone and fit: `full` (the whole layer) must be the only value (from 0.16 in `--cuda-graph-scope`); from 0.18 `full_iteration` (which becomes `--cuda-graph-impl full_iteration`) is refused with `transformer_engine` graphs or a `layer` or `block` inference scope, `full_iteration_inference` (which becomes the `block` inference scope) with an implementation other than `none` or `local` or a scope other than `block`, and the two together. Each is an assertion when Megatron builds the transformer config, so the job stops at startup. Megatron-LM\'s own argument checks (for launch scripts and Megatron-LM YAML) also refuse, from 0.18, `--cuda-graph-scope` beside `--cuda-graph-modules`, `--cuda-graph-impl full_iteration` while the NaN check is on (it is by default; from 0.14 to before 0.18 the same with the local implementation\'s `--cuda-graph-scope full_iteration`, a word that from 0.18 still becomes `--cuda-graph-impl full_iteration`), and FP8 with `--inference-cuda-graph-scope block` unless `--transformer-impl inference_optimized` and `--fp8-recipe mxfp8` (from 0.17 the same for the local `--cuda-graph-scope full_iteration_inference`, which from 0.18 becomes the `block` scope; in 0.15 and 0.16 any FP8 with a local `full_iteration` scope for dynamic-batching inference); from 0.17, a local `--inference-dynamic-batching-num-cuda-graphs` below 1 other than -1. Megatron Bridge builds the same config and stops the same way; a Bridge override is judged only on what it writes itself, since the recipe may set the rest. Per-layer graphs (`local`, `transformer_engine`) and activation recomputation: Megatron Core 0.11 to 0.14 refuses any recomputation with `--enable-cuda-graph`; 0.15 allows only selective recomputation beside Transformer Engine graphs of the attention, not of the attention core; from 0.16 full recomputation needs a full-iteration graph, and a selectively recomputed module inside the graph (the attention core, the default module, or the MLP/MoE) cannot have its dropout on, since a graphed recomputation draws no new random numbers (attention and hidden dropout are 0.1 by default). What per-layer graphs capture of an MoE model is checked from 0.16 (`--cuda-graph-scope`, `--cuda-graph-modules` from 0.18): no `moe` or `moe_router` graph without experts, not `moe` beside `moe_router` (the local implementation adds each of `moe_router` and `moe_preprocess` for the other), `moe_preprocess` only with `moe_router` under Transformer Engine, no `mlp` graph when every layer is an MoE layer, and no `moe` graph of dropless MoE (it needs `--moe-expert-capacity-factor` with `--moe-pad-expert-input-to-capacity`). CPU offloading of activations is refused beside Megatron Core\'s own graphs (`enable_cuda_graph`) from 0.11 and beside any CUDA graphs from 0.15 (from 0.18 a full-iteration graph takes it), and Transformer Engine graphs of the full iteration (`--cuda-graph-scope full_iteration`) from 0.15 to 0.17. From 0.18 fine-grained activation offloading beside CUDA graphs refuses a `moe` graph and 0 warm-up steps, and in 0.18 the local per-layer graphs; from 0.19 these take only a partial MoE offload (`--offload-modules` of `expert_fc1`, `moe_act` or `fused_group_mlp`, beside a `--cuda-graph-modules` list).',
    bad: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --num-layers: 32\n  --inference-cuda-graph-scope: block\n',
    good: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --num-layers: 32\n  --cuda-graph-impl: local\n  --inference-cuda-graph-scope: block\n',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --enable-cuda-graph --cuda-graph-impl transformer_engine \\\n    --micro-batch-size 1 --global-batch-size 64\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --cuda-graph-impl transformer_engine \\\n    --micro-batch-size 1 --global-batch-size 64\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.18.0, `TransformerConfig.__post_init__`: the old CUDA graph switches, the inference scope allowed per implementation, no modules with a full-iteration graph', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.18.0/megatron/core/transformer/transformer_config.py#L2141-L2240' },
      { label: 'Megatron-LM core_v0.19.0, `TransformerConfig.__post_init__`: recomputation beside per-layer CUDA graphs (from core_v0.16.0)', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.19.0/megatron/core/transformer/transformer_config.py#L2521-L2567' },
      { label: 'Megatron-LM core_v0.15.0, `TransformerConfig.__post_init__`: recomputation beside CUDA graphs in 0.15', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.15.0/megatron/core/transformer/transformer_config.py#L1397-L1409' },
      { label: 'Megatron-LM core_v0.14.0, `TransformerConfig.__post_init__`: `enable_cuda_graph` refuses recomputation (from core_v0.11.0)', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.14.0/megatron/core/transformer/transformer_config.py#L1267-L1271' },
      { label: 'Megatron-LM core_v0.18.0, `ALLOWED_INFERENCE_SCOPES`', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.18.0/megatron/core/transformer/cuda_graph_config.py#L17-L22' },
    ],
  },
  check(ctx) {
    runChecks(ctx, CHECKS);
    runChecks(ctx, RECOMPUTE_CHECKS);
    runChecks(ctx, MODULE_CHECKS);
  },
});
