/**
 * cuda-graph-config-invalid: CUDA graph arguments that Megatron Core refuses together when it builds
 * the transformer config (Megatron-LM's argument checks make the same assertions first).
 *
 * megatron/core/transformer/transformer_config.py and megatron/training/arguments.py:
 * - `enable_cuda_graph` and `external_cuda_graph` together: refused from core_v0.14.0 (arguments.py)
 *   and in the config from 0.15.0;
 * - either of them beside a `cuda_graph_impl` other than `none`: refused from core_v0.15.0, where
 *   both became deprecated spellings of `cuda_graph_impl` (`local`, `transformer_engine`);
 * - `inference_cuda_graph_scope` outside the set its implementation allows (cuda_graph_config.py,
 *   ALLOWED_INFERENCE_SCOPES: `local` takes `layer` or `block`, every other implementation `none`):
 *   from core_v0.18.0, where the scope was added;
 * - `cuda_graph_modules` with `cuda_graph_impl full_iteration`, which captures the whole iteration:
 *   from core_v0.18.0.
 */
import { argAbsent, argGiven, argOff, argOn, argValue, MEGATRON_FORMATS, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { runChecks, type ArgCheck } from '../formats/megatron/checks';
import { defineRule } from './rule';

const IMPLS = ['none', 'local', 'transformer_engine', 'full_iteration'];
/** Deprecated `--cuda-graph-modules` / `--cuda-graph-scope` words that rewrite the implementation or the scope. */
const MIGRATING = new Set(['full_iteration', 'full_iteration_inference', 'full']);

function words(v: unknown): string[] | undefined {
  if (v === undefined || v === null) return [];
  if (Array.isArray(v)) return v.every((x) => typeof x === 'string') ? (v as string[]) : undefined;
  return typeof v === 'string' ? v.split(/[,\s]+/).filter(Boolean) : undefined;
}

/** Old scope words that Megatron turns into an implementation or a scope before it checks them. */
function migrates(m: MegatronModel): boolean {
  const all = [...(words(argValue(m, 'cuda_graph_modules')) ?? ['?']), ...(words(argValue(m, 'cuda_graph_scope_deprecated')) ?? ['?']), ...(words(argValue(m, 'cuda_graph_scope')) ?? ['?'])];
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
const blockWithFp8 = (m: MegatronModel) => argValue(m, 'inference_cuda_graph_scope') === 'block' && effectiveImpl(m) === 'local' && argGiven(m, 'fp8');
const ARGUMENT_CHECKS: ArgCheck[] = [
  {
    when: (m) => {
      const modules = words(argValue(m, 'cuda_graph_modules'));
      return argGiven(m, 'cuda_graph_scope_deprecated') && modules && modules.length > 0 ? 'cuda_graph_scope_deprecated' : undefined;
    },
    message: () => '`--cuda-graph-scope` beside `--cuda-graph-modules`: the first is the old name of the second, and Megatron-LM stops at startup ("--cuda-graph-scope and --cuda-graph-modules cannot be used together."). Keep `--cuda-graph-modules`.',
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
        effectiveImpl(m) === 'local' && (words(argValue(m, 'cuda_graph_scope_deprecated')) ?? []).includes('full_iteration') && nanCheckOn(m) && (!r.inference || argOff(m, 'inference_dynamic_batching'))
          ? 'cuda_graph_scope_deprecated'
          : undefined,
      message: () => '`--cuda-graph-scope full_iteration` with the NaN check on (the default): the check reads the loss and gradients on the host every step, which a graph of the whole iteration cannot do, and Megatron-LM stops at startup ("--no-check-for-nan-in-loss-and-grad should be set with full_iteration CUDA graph"). Add `--no-check-for-nan-in-loss-and-grad`.',
      formats: MLM_FLAG_FORMATS,
      since: r.since,
      before: r.before,
    }),
  ),
  {
    when: (m) => (blockWithFp8(m) && (argAbsent(m, 'transformer_impl') || (typeof argValue(m, 'transformer_impl') === 'string' && argValue(m, 'transformer_impl') !== 'inference_optimized')) ? 'inference_cuda_graph_scope' : undefined),
    message: () => '`--inference-cuda-graph-scope block` with FP8: block-level inference graphs run FP8 only in the inference-optimized layers, and Megatron-LM stops at startup ("fp8 with --inference-cuda-graph-scope=block is only supported with --transformer-impl=inference_optimized"). Add `--transformer-impl inference_optimized` (with `--fp8-recipe mxfp8`), or use the `layer` scope.',
    formats: MLM_FLAG_FORMATS,
    since: '0.18.0',
  },
  {
    when: (m) => (blockWithFp8(m) && argValue(m, 'transformer_impl') === 'inference_optimized' && (argAbsent(m, 'fp8_recipe') || (typeof argValue(m, 'fp8_recipe') === 'string' && argValue(m, 'fp8_recipe') !== 'mxfp8')) ? 'inference_cuda_graph_scope' : undefined),
    message: (m) => `\`--inference-cuda-graph-scope block\` with the FP8 recipe \`${argAbsent(m, 'fp8_recipe') ? 'delayed' : String(argValue(m, 'fp8_recipe'))}\`${argAbsent(m, 'fp8_recipe') ? ' (the default)' : ''}: block-level inference graphs take only MXFP8, and Megatron-LM stops at startup ("Only --fp8-recipe=mxfp8 is supported with --inference-cuda-graph-scope=block"). Add \`--fp8-recipe mxfp8\`, or use the \`layer\` scope.`,
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

const CHECKS: ArgCheck[] = [
  {
    when: (m) => (argOn(m, 'enable_cuda_graph') && argOn(m, 'external_cuda_graph') ? 'external_cuda_graph' : undefined),
    message: () => '`--enable-cuda-graph` and `--external-cuda-graph` together: they choose two different CUDA graph implementations (Megatron Core\'s own and Transformer Engine\'s), and Megatron stops at startup ("cannot be enabled at the same time"). Keep one, written as `--cuda-graph-impl local` or `--cuda-graph-impl transformer_engine`.',
    since: '0.14.0',
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
      const modules = words(argValue(m, 'cuda_graph_modules'));
      return modules && modules.length > 0 ? 'cuda_graph_modules' : undefined;
    },
    message: () => '`--cuda-graph-modules` with `--cuda-graph-impl full_iteration`: a full-iteration graph captures the whole step, so there are no modules to choose, and Megatron Core stops when it builds the transformer config ("cuda_graph_modules must be empty"). Remove `--cuda-graph-modules`.',
    since: '0.18.0',
  },
  ...ARGUMENT_CHECKS,
];

export default defineRule<MegatronModel>({
  id: 'cuda-graph-config-invalid',
  severity: 'error',
  formats: MEGATRON_FORMATS,
  docs: {
    summary: 'CUDA graph arguments that Megatron refuses together: both old switches, an old switch beside `--cuda-graph-impl`, an inference scope its implementation does not take, modules with a full-iteration graph, and (Megatron-LM\'s own checks) the old scope name beside the new, a full-iteration graph with the NaN check, FP8 block-level inference graphs outside the inference-optimized MXFP8 layers, or a local graph count below 1.',
    why: 'From Megatron Core 0.15, `--enable-cuda-graph` and `--external-cuda-graph` are old spellings of `--cuda-graph-impl local` and `transformer_engine`, so either beside `--cuda-graph-impl` is refused (both together from 0.14). From 0.18 the inference graph scope must match the implementation: `layer` and `block` need the local implementation, which in turn has no `none`; and a full-iteration graph takes no module list. Each is an assertion when Megatron builds the transformer config, so the job stops at startup. Megatron-LM\'s own argument checks (for launch scripts and Megatron-LM YAML) also refuse, from 0.18, `--cuda-graph-scope` beside `--cuda-graph-modules`, `--cuda-graph-impl full_iteration` while the NaN check is on (it is by default; from 0.14 to before 0.18 the same with the local implementation\'s `--cuda-graph-scope full_iteration`), and FP8 with `--inference-cuda-graph-scope block` unless `--transformer-impl inference_optimized` and `--fp8-recipe mxfp8`; from 0.17, a local `--inference-dynamic-batching-num-cuda-graphs` below 1 other than -1. Megatron Bridge builds the same config and stops the same way; a Bridge override is judged only on what it writes itself, since the recipe may set the rest.',
    bad: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --num-layers: 32\n  --inference-cuda-graph-scope: block\n',
    good: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --num-layers: 32\n  --cuda-graph-impl: local\n  --inference-cuda-graph-scope: block\n',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --enable-cuda-graph --cuda-graph-impl transformer_engine \\\n    --micro-batch-size 1 --global-batch-size 64\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --cuda-graph-impl transformer_engine \\\n    --micro-batch-size 1 --global-batch-size 64\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.18.0, `TransformerConfig.__post_init__`: the old CUDA graph switches, the inference scope allowed per implementation, no modules with a full-iteration graph', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.18.0/megatron/core/transformer/transformer_config.py#L2141-L2240' },
      { label: 'Megatron-LM core_v0.18.0, `ALLOWED_INFERENCE_SCOPES`', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.18.0/megatron/core/transformer/cuda_graph_config.py#L17-L22' },
    ],
  },
  check(ctx) {
    runChecks(ctx, CHECKS);
  },
});
