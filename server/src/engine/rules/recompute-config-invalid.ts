/**
 * recompute-config-invalid: activation-recompute and activation-offload arguments that Megatron rejects together.
 */
import { argAbsent, argGiven, argNum, argOff, argOn, argValue, MEGATRON_FORMATS, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { runChecks, setArg, type ArgCheck } from '../formats/megatron/checks';
import { defineRule, type RuleContext } from './rule';

const CHECKS: ArgCheck[] = [
  {
    when: (m) => (argValue(m, 'recompute_granularity') === 'full' && argAbsent(m, 'recompute_method') ? 'recompute_granularity' : undefined),
    message: () => 'Full recomputation needs `--recompute-method uniform|block`: Megatron stops ("recompute_method must be \\"block\\" or \\"uniform\\""). `uniform` checkpoints every group of `--recompute-num-layers` layers; `block` recomputes only the first `--recompute-num-layers` layers of each stage.',
    fix: (m) => setArg(m, 'add-recompute-method', 'recompute_method', 'uniform', 'Add --recompute-method uniform'),
  },
  {
    when: (m) => (argValue(m, 'recompute_granularity') === 'full' && argValue(m, 'recompute_method') !== undefined && argAbsent(m, 'recompute_num_layers') ? 'recompute_granularity' : undefined),
    message: () => 'Full recomputation needs `--recompute-num-layers` (between 1 and the layers per pipeline stage): Megatron stops otherwise. With `uniform`, 1 recomputes every layer and saves the most memory.',
    fix: (m) => setArg(m, 'add-recompute-layers', 'recompute_num_layers', 1, 'Add --recompute-num-layers 1'),
  },
  {
    when: (m) => (argValue(m, 'recompute_granularity') === 'selective' && argValue(m, 'recompute_method') !== undefined ? 'recompute_method' : undefined),
    message: () => 'Selective recomputation (attention core only) has no recompute method: Megatron-LM stops ("recompute method is not yet supported for selective recomputing granularity"). Remove `--recompute-method`, or use `--recompute-granularity full`.',
    // Megatron-LM's argparse checks this (megatron/training/arguments.py); Megatron Core, which Bridge
    // and NeMo configure directly, ignores the method under selective granularity.
    formats: MLM_FLAG_FORMATS,
  },
  {
    when: (m) => (argValue(m, 'recompute_granularity') === 'selective' && argNum(m, 'recompute_num_layers') !== undefined ? 'recompute_num_layers' : undefined),
    message: () => 'Selective recomputation takes no layer count: Megatron stops ("recompute_num_layers must be None"). Remove `--recompute-num-layers`, or use `--recompute-granularity full`.',
  },
  {
    // TransformerConfig.__post_init__ turns the deprecated switch into selective recomputation of
    // the MoE layers, and raises first when the granularity is full (transformer_config.py@core_v0.12.0:754-765,
    // the same to d98e8a6:2014-2025; core_v0.11.0 has no such check and runs the pair).
    when: (m) => (argOn(m, 'moe_layer_recompute') && argValue(m, 'recompute_granularity') === 'full' ? 'moe_layer_recompute' : undefined),
    since: '0.12.0',
    message: () => '`--moe-layer-recompute` with `--recompute-granularity full`: from Megatron Core 0.12 the old switch means selective recomputation of the MoE layers, which full recomputation excludes, and Megatron Core stops when it builds the transformer config ("Do not set --moe-layer-recompute with full recompute granularity"). Remove `--moe-layer-recompute` (full recomputation already recomputes the MoE layers), or recompute only the MoE layers: selective granularity with `moe` among the recompute modules.',
  },
];

/** The recompute granularity validate_args sees: `--recompute-activations` makes it selective. */
function granularity(m: MegatronModel): string | null | undefined {
  if (argOn(m, 'recompute_activations')) return 'selective';
  if (argAbsent(m, 'recompute_granularity')) return argOff(m, 'recompute_activations') ? null : undefined;
  const v = argValue(m, 'recompute_granularity');
  return typeof v === 'string' ? v : undefined;
}

/**
 * `--distribute-saved-activations` splits the checkpointed activations over the TP group, for full
 * recomputation with a method only: Megatron-LM's argument checks, at every release
 * (megatron/arguments.py@core_v0.4.0:312-325, training/arguments.py@d98e8a6:1410-1423).
 */
const DISTRIBUTE_CHECKS: ArgCheck[] = [
  {
    // training/arguments.py@core_v0.16.0:1222-1224, @d98e8a6:1935-1937.
    when: (m) => (argOn(m, 'fine_grained_activation_offloading') && argValue(m, 'transformer_impl') === 'local' ? 'fine_grained_activation_offloading' : undefined),
    message: () => '`--fine-grained-activation-offloading` with `--transformer-impl local`: Megatron-LM stops at startup ("Fine-grained activation offloading is only supported with transformer_engine implementation"). Use `--transformer-impl transformer_engine`, or drop the offloading.',
    formats: MLM_FLAG_FORMATS,
    since: '0.16.0',
  },
  {
    when: (m) => (argOn(m, 'distribute_saved_activations') && (argAbsent(m, 'tensor_model_parallel_size') || argNum(m, 'tensor_model_parallel_size') === 1) ? 'distribute_saved_activations' : undefined),
    message: () => '`--distribute-saved-activations` with TP 1: the saved activations are split over the tensor-parallel group, and Megatron-LM stops at startup ("can distribute recomputed activations only across tensor model parallel groups"). Remove the flag, or use TP > 1.',
    formats: MLM_FLAG_FORMATS,
  },
  {
    when: (m) => {
      const g = granularity(m);
      return argOn(m, 'distribute_saved_activations') && g !== undefined && g !== 'full' ? 'distribute_saved_activations' : undefined;
    },
    message: (m) => `\`--distribute-saved-activations\` ${granularity(m) === null ? 'without a recompute granularity' : `with ${granularity(m)} recomputation`}: only full recomputation saves the activations it distributes, and Megatron-LM stops at startup ("distributed recompute activations is only application to full recompute granularity"). Use \`--recompute-granularity full\` with a method, or remove the flag.`,
    formats: MLM_FLAG_FORMATS,
  },
  {
    when: (m) => (argOn(m, 'distribute_saved_activations') && granularity(m) === 'full' && argAbsent(m, 'recompute_method') ? 'distribute_saved_activations' : undefined),
    message: () => '`--distribute-saved-activations` without `--recompute-method`: Megatron-LM stops at startup ("for distributed recompute activations to work you need to use a recompute method"). Add `--recompute-method uniform` (with `--recompute-num-layers`).',
    formats: MLM_FLAG_FORMATS,
  },
];

/**
 * Activation offloading to the CPU, which TransformerConfig refuses beside pipeline parallelism or
 * activation recompute, or for as many layers as the model has (transformer_config.py@core_v0.8.0:344-359,
 * the same at core_v0.16.0:1137-1152 and d98e8a6). On Megatron-LM's command line it is on when
 * `--cpu-offloading-num-layers` is above 0 (training/arguments.py@core_v0.16.0:1236-1237, the first
 * release with the flag); Bridge, NeMo and a `--yaml-cfg` file set `cpu_offloading` itself. The checks
 * are made from 0.16 only, the releases with the flag (a config that sets `cpu_offloading` at an older
 * release is not judged).
 */
function offloading(m: MegatronModel): boolean {
  if (argOn(m, 'cpu_offloading')) return true;
  const n = argNum(m, 'cpu_offloading_num_layers');
  return n !== undefined && n > 0 && !m.args.configFields && !m.args.yamlCfg;
}

const OFFLOAD_CHECKS: ArgCheck[] = [
  {
    when: (m) => {
      if (!offloading(m)) return undefined;
      const n = argNum(m, 'cpu_offloading_num_layers');
      const layers = argNum(m, 'num_layers');
      return n !== undefined && layers !== undefined && n >= layers ? 'cpu_offloading_num_layers' : undefined;
    },
    since: '0.16.0',
    message: (m) => `CPU offloading of ${argNum(m, 'cpu_offloading_num_layers')} layers, and the model has ${argNum(m, 'num_layers')}: the last layer's activations are needed at once for the backward pass, so Megatron Core stops when it builds the transformer config ("CPU offloading can be done only for layers less than ${argNum(m, 'num_layers')}"). Offload at most ${(argNum(m, 'num_layers') ?? 1) - 1} layers.`,
  },
  {
    when: (m) => {
      const pp = argNum(m, 'pipeline_model_parallel_size');
      return offloading(m) && pp !== undefined && pp > 1 ? 'pipeline_model_parallel_size' : undefined;
    },
    since: '0.16.0',
    message: (m) => `CPU offloading of activations with PP ${argNum(m, 'pipeline_model_parallel_size')}: Megatron Core stops when it builds the transformer config ("Currently there is no support for Pipeline parallelism with CPU offloading"). Turn offloading off, or run without pipeline parallelism.`,
  },
  {
    when: (m) => (offloading(m) && (argGiven(m, 'recompute_granularity') || argOn(m, 'recompute_activations')) ? (argGiven(m, 'recompute_granularity') ? 'recompute_granularity' : 'recompute_activations') : undefined),
    since: '0.16.0',
    message: () => 'CPU offloading of activations with activation recompute: the two are alternative ways to save activation memory, and Megatron Core stops when it builds the transformer config ("CPU offloading does not work when activation recomputation is enabled"). Keep one of them.',
  },
];

export default defineRule<MegatronModel>({
  id: 'recompute-config-invalid',
  severity: 'error',
  formats: MEGATRON_FORMATS,
  fixes: {
    'add-recompute-method': { applicability: 'unsafe', changes: 'activation recompute' },
    'add-recompute-layers': { applicability: 'unsafe', changes: 'activation recompute' },
  },
  docs: {
    summary: 'Activation-recompute and activation-offload arguments that Megatron rejects together (including `--distribute-saved-activations` outside full recomputation with TP > 1).',
    why: 'Full recomputation needs a method and a layer count, and selective recomputation takes neither: Megatron checks these when it builds the transformer config, after the job has started. From Megatron Core 0.12 the deprecated `--moe-layer-recompute` is turned into selective recomputation there, so beside full recomputation it is refused too (Megatron Bridge builds the same config). A layer count above the layers of a pipeline stage is not refused there; each message says what the targeted release does with it. Offloading activations to the CPU (`--cpu-offloading-num-layers` above 0 on the command line, `cpu_offloading` in a config) is refused beside recompute, with pipeline parallelism, or for as many layers as the model has. On Megatron-LM\'s command line, `--distribute-saved-activations` is refused at startup (every release) with TP 1, without full recomputation, or without a recompute method, and from 0.16 `--fine-grained-activation-offloading` with `--transformer-impl local`.',
    bad: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --num-layers: 32\n  --recompute-granularity: full\n',
    good: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --num-layers: 32\n  --recompute-granularity: full\n  --recompute-method: uniform\n  --recompute-num-layers: 1\n',
    fix: 'Adds the missing method or layer count.',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 2 --sequence-parallel --recompute-granularity full --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 2 --sequence-parallel --recompute-granularity full --recompute-method uniform --recompute-num-layers 1 --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.15.3, `TransformerConfig`: full recomputation needs the method `block` or `uniform`', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.15.3/megatron/core/transformer/transformer_config.py#L912-L920' },
      { label: 'Megatron-LM core_v0.12.0, `TransformerConfig`: `--moe-layer-recompute` is refused with full recompute granularity', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.12.0/megatron/core/transformer/transformer_config.py#L754-L765' },
    ],
  },
  check(ctx) {
    runChecks(ctx, CHECKS);
    runChecks(ctx, OFFLOAD_CHECKS);
    runChecks(ctx, DISTRIBUTE_CHECKS);
    moreLayersThanAStage(ctx);
  },
});

/**
 * `--recompute-num-layers` above the layers of a pipeline stage, or (uniform, before 0.17) one that does
 * not divide them. Megatron Core asks only that the
 * count is set (transformer_config.py). From 0.17 the checkpointed forward clamps a uniform chunk to
 * the stage (transformer_block.py, megatron/core/recompute.py from 0.18) and `block` simply
 * recomputes every layer, so the value only misleads. Before 0.17 a uniform chunk runs past the
 * stage's last layer and the first training step fails on `self.layers[index]` (IndexError), also
 * when the count does not divide the stage (transformer_block.py@core_v0.16.0, `_checkpointed_forward`).
 */
const UNEVEN = ['decoder_first_pipeline_num_layers', 'decoder_last_pipeline_num_layers', 'pipeline_model_parallel_layout', 'account_for_embedding_in_pipeline_split', 'account_for_loss_in_pipeline_split'];

function moreLayersThanAStage(ctx: RuleContext<MegatronModel>): void {
  const m = ctx.model;
  const p = ctx.plan;
  const n = argNum(m, 'recompute_num_layers');
  const layers = argNum(m, 'num_layers');
  const pp = p?.pp.value ?? 1;
  if (argValue(m, 'recompute_granularity') !== 'full' || n === undefined || layers === undefined) return;
  // The loop runs over the layers of one model chunk: with virtual pipeline stages, a stage's chunk.
  const vpp = p?.vpp && p.vpp.value > 1 ? p.vpp.value : 1;
  const perStage = Math.floor(layers / (pp * vpp));
  const holds = vpp > 1 ? `each virtual pipeline stage (model chunk) holds` : 'each pipeline stage holds';
  const crashes = argValue(m, 'recompute_method') === 'uniform' && !ctx.atLeast('0.17.0');
  if (n <= perStage) {
    // The same overrun when the count does not divide the stage: the last chunk reaches past it.
    const even = layers % (pp * vpp) === 0 && !UNEVEN.some((d) => m.args.get(d));
    if (crashes && even && n > 0 && perStage % n !== 0) {
      ctx.report({
        at: m.args.get('recompute_num_layers')?.path ?? [],
        severity: 'error',
        message: `\`--recompute-num-layers ${n}\` does not divide the ${perStage} layers ${holds}: with \`uniform\`, ${ctx.versions} ${ctx.version} checkpoints chunks of ${n} layers without clamping the last one to the stage, so the first training step fails with an IndexError (0.17 and later clamp the chunk). Use a divisor of ${perStage} (1 recomputes every layer).`,
      });
    }
    return;
  }
  ctx.report({
    at: m.args.get('recompute_num_layers')?.path ?? [],
    severity: crashes ? 'error' : 'warning',
    message: crashes
      ? `\`--recompute-num-layers ${n}\` is more than the ${perStage} layers ${holds}: with \`uniform\`, ${ctx.versions} ${ctx.version} checkpoints chunks of ${n} layers without clamping them to the stage, so the first training step fails with an IndexError (0.17 and later clamp the chunk). Use a value between 1 and ${perStage}.`
      : `\`--recompute-num-layers ${n}\` is more than the ${perStage} layers ${holds}: Megatron accepts it, but no stage has that many layers to recompute, so the value does not say what runs. Use a value between 1 and ${perStage}.`,
  });
}
