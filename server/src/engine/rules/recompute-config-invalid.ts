/**
 * recompute-config-invalid: activation-recompute and activation-offload arguments that Megatron rejects together.
 */
import { recomputeGranularity, argAbsent, argGiven, argNum, argOff, argOn, argReal, argValue, MEGATRON_FORMATS, argWords, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { runChecks, setArg, type ArgCheck, named } from '../formats/megatron/checks';
import { switchOn } from '../formats/megatron/derived';
import { defineRule, type RuleContext } from './rule';
import { YAML_CFG_RECOMPUTE_CHECKS } from '../formats/megatron/yaml-cfg-checks';
import { firstLastChunks } from '../plan/split';

/**
 * The granularity the transformer config gets: Megatron-LM's argument checks turn `--recompute-activations`
 * into selective recomputation over any `--recompute-granularity` written beside it, before every check
 * below (megatron/arguments.py@core_v0.4.0:124-126, training/arguments.py@d98e8a6:607-609).
 */
const granularity = recomputeGranularity;

/** Where selective recomputation comes from `--recompute-activations`, says so. */
const viaSwitch = (m: MegatronModel) => (argOn(m, 'recompute_activations') ? ' (`--recompute-activations`)' : '');

const CHECKS: ArgCheck[] = [
  {
    when: (m) => (granularity(m) === 'full' && argAbsent(m, 'recompute_method') ? 'recompute_granularity' : undefined),
    message: () => 'Full recomputation needs `--recompute-method uniform|block`: Megatron stops ("recompute_method must be \\"block\\" or \\"uniform\\""). `uniform` checkpoints every group of `--recompute-num-layers` layers; `block` recomputes only the first `--recompute-num-layers` layers of each stage.',
    fix: (m) => setArg(m, 'add-recompute-method', 'recompute_method', 'uniform', 'Add --recompute-method uniform'),
  },
  {
    when: (m) => (granularity(m) === 'full' && argValue(m, 'recompute_method') !== undefined && argAbsent(m, 'recompute_num_layers') ? 'recompute_granularity' : undefined),
    message: () => 'Full recomputation needs `--recompute-num-layers` (between 1 and the layers per pipeline stage): Megatron stops otherwise. With `uniform`, 1 recomputes every layer and saves the most memory.',
    fix: (m) => setArg(m, 'add-recompute-layers', 'recompute_num_layers', 1, 'Add --recompute-num-layers 1'),
  },
  {
    // The uniform loop steps through a stage's layers by the count (transformer_block.py@core_v0.4.0:184-197,
    // core/recompute.py@d98e8a6:158-166): a count of 0 never advances. `block` with 0 recomputes no layer and runs.
    when: (m) => (granularity(m) === 'full' && argValue(m, 'recompute_method') === 'uniform' && argNum(m, 'recompute_num_layers') === 0 ? 'recompute_num_layers' : undefined),
    message: () => 'Full recomputation with `--recompute-method uniform` and `--recompute-num-layers 0`: Megatron Core accepts the count, but the uniform loop steps through the layers by it, so the first forward pass never ends. Use 1 or more (1 recomputes every layer), or `--recompute-method block` with 0 to recompute no layer.',
  },
  {
    when: (m) => (granularity(m) === 'selective' && argValue(m, 'recompute_method') !== undefined ? 'recompute_method' : undefined),
    message: (m) => `Selective recomputation${viaSwitch(m)} has no recompute method: Megatron-LM stops ("recompute method is not yet supported for selective recomputing granularity"). Remove \`--recompute-method\`, or use \`--recompute-granularity full\`${argOn(m, 'recompute_activations') ? ' without `--recompute-activations`' : ''}.`,
    // Megatron-LM's argparse checks this (megatron/training/arguments.py); Megatron Core, which Bridge
    // and NeMo configure directly, ignores the method under selective granularity.
    formats: MLM_FLAG_FORMATS,
  },
  {
    when: (m) => (granularity(m) === 'selective' && argNum(m, 'recompute_num_layers') !== undefined ? 'recompute_num_layers' : undefined),
    message: (m) => `Selective recomputation${viaSwitch(m)} takes no layer count: Megatron stops ("recompute_num_layers must be None"). Remove \`--recompute-num-layers\`, or use \`--recompute-granularity full\`${argOn(m, 'recompute_activations') ? ' without `--recompute-activations`' : ''}.`,
  },
  {
    // TransformerConfig.__post_init__ turns the deprecated switch into selective recomputation of
    // the MoE layers, and raises first when the granularity is full (transformer_config.py@core_v0.12.0:754-765,
    // the same to d98e8a6:2014-2025; core_v0.11.0 has no such check and runs the pair).
    when: (m) => (argOn(m, 'moe_layer_recompute') && granularity(m) === 'full' ? 'moe_layer_recompute' : undefined),
    since: '0.12.0',
    message: () => '`--moe-layer-recompute` with `--recompute-granularity full`: from Megatron Core 0.12 the old switch means selective recomputation of the MoE layers, which full recomputation excludes, and Megatron Core stops when it builds the transformer config ("Do not set --moe-layer-recompute with full recompute granularity"). Remove `--moe-layer-recompute` (full recomputation already recomputes the MoE layers), or recompute only the MoE layers: selective granularity with `moe` among the recompute modules.',
  },
];


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
      const g = recomputeGranularity(m);
      return argOn(m, 'distribute_saved_activations') && g !== undefined && g !== 'full' ? 'distribute_saved_activations' : undefined;
    },
    message: (m) => `\`--distribute-saved-activations\` ${recomputeGranularity(m) === null ? 'without a recompute granularity' : `with ${recomputeGranularity(m)} recomputation`}: only full recomputation saves the activations it distributes, and Megatron-LM stops at startup ("distributed recompute activations is only application to full recompute granularity"). Use \`--recompute-granularity full\` with a method, or remove the flag.`,
    formats: MLM_FLAG_FORMATS,
  },
  {
    when: (m) => (argOn(m, 'distribute_saved_activations') && recomputeGranularity(m) === 'full' && argAbsent(m, 'recompute_method') ? 'distribute_saved_activations' : undefined),
    message: () => '`--distribute-saved-activations` without `--recompute-method`: Megatron-LM stops at startup ("for distributed recompute activations to work you need to use a recompute method"). Add `--recompute-method uniform` (with `--recompute-num-layers`).',
    formats: MLM_FLAG_FORMATS,
  },
];

/**
 * Activation offloading to the CPU, which TransformerConfig refuses beside pipeline parallelism or
 * activation recompute (transformer_config.py@core_v0.5.0:186-194, the same at core_v0.16.0:1144-1152
 * and d98e8a6), or for as many layers as the model has (@core_v0.6.0:301-306 on; at core_v0.5.0:181-184
 * whether offloading is on or not). On Megatron-LM's command line it is on when
 * `--cpu-offloading-num-layers` is above 0 (training/arguments.py@core_v0.16.0:1236-1237, the first
 * release with the flag: before it argparse refuses the flag); Bridge, NeMo and a `--yaml-cfg` file set
 * `cpu_offloading` itself, which TransformerConfig checks from 0.5. A negative count is invalid-value's
 * (the schema's `x-values-checked-when-enabled`).
 */
function offloading(m: MegatronModel): boolean {
  return offloadingSwitch(m) || offloadingFlag(m);
}
/** `cpu_offloading` written on (Bridge, NeMo, a `--yaml-cfg` file). */
const offloadingSwitch = (m: MegatronModel) => argOn(m, 'cpu_offloading');
/** Megatron-LM's `--cpu-offloading-num-layers` above 0 (0.16 on). */
function offloadingFlag(m: MegatronModel): boolean {
  const n = argNum(m, 'cpu_offloading_num_layers');
  return n !== undefined && n > 0 && !m.args.configFields && !m.args.yamlCfg;
}

/** The offload checks, for offloading turned on by `on`, from `since`. */
const offloadChecks = (on: (m: MegatronModel) => boolean, since: string, layersSince: string): ArgCheck[] => [
  {
    when: (m) => {
      if (!on(m)) return undefined;
      const n = argNum(m, 'cpu_offloading_num_layers');
      const layers = argNum(m, 'num_layers');
      return n !== undefined && layers !== undefined && n >= layers ? 'cpu_offloading_num_layers' : undefined;
    },
    since: layersSince,
    message: (m) => `CPU offloading of ${argNum(m, 'cpu_offloading_num_layers')} layers, and the model has ${argNum(m, 'num_layers')}: the last layer's activations are needed at once for the backward pass, so Megatron Core stops when it builds the transformer config ("CPU offloading can be done only for layers less than ${argNum(m, 'num_layers')}"). Offload at most ${(argNum(m, 'num_layers') ?? 1) - 1} layers.`,
  },
  {
    when: (m) => {
      const pp = argNum(m, 'pipeline_model_parallel_size');
      return on(m) && pp !== undefined && pp > 1 ? 'pipeline_model_parallel_size' : undefined;
    },
    since,
    message: (m) => `CPU offloading of activations with PP ${argNum(m, 'pipeline_model_parallel_size')}: Megatron Core stops when it builds the transformer config ("Currently there is no support for Pipeline parallelism with CPU offloading"). Turn offloading off, or run without pipeline parallelism.`,
  },
  {
    when: (m) => (on(m) && (argGiven(m, 'recompute_granularity') || argOn(m, 'recompute_activations')) ? (argGiven(m, 'recompute_granularity') ? 'recompute_granularity' : 'recompute_activations') : undefined),
    since,
    message: () => 'CPU offloading of activations with activation recompute: the two are alternative ways to save activation memory, and Megatron Core stops when it builds the transformer config ("CPU offloading does not work when activation recomputation is enabled"). Keep one of them.',
  },
];

const OFFLOAD_CHECKS: ArgCheck[] = [
  // 0.5.0 checks the count whatever the switch (transformer_config.py@core_v0.5.0:181-184), so with it on too.
  ...offloadChecks(offloadingSwitch, '0.5.0', '0.5.0'),
  {
    // The same check in 0.5.0 with the switch off: only a config file reaches it (the flag came in 0.16).
    when: (m) => {
      const n = argNum(m, 'cpu_offloading_num_layers');
      const layers = argNum(m, 'num_layers');
      return m.args.configFields && !offloadingSwitch(m) && n !== undefined && layers !== undefined && n >= layers ? 'cpu_offloading_num_layers' : undefined;
    },
    since: '0.5.0',
    before: '0.6.0',
    message: (m) => `${named(m, '--cpu-offloading-num-layers', String(argNum(m, 'cpu_offloading_num_layers')))} with ${argNum(m, 'num_layers')} layers: Megatron Core 0.5 checks the count whether CPU offloading is on or not, and stops when it builds the transformer config ("CPU offloading can be done only for layers less than ${argNum(m, 'num_layers')}"). Use at most ${(argNum(m, 'num_layers') ?? 1) - 1}, or Megatron Core 0.6 or later, which checks it only with offloading on.`,
  },
  // Only where the switch is not written on (the same refusal, reported once).
  ...offloadChecks((m) => !offloadingSwitch(m) && offloadingFlag(m), '0.16.0', '0.16.0'),
];

/** Selective recomputation of the module named, as written. */
const recomputes = (m: MegatronModel, module: string) => recomputeGranularity(m) === 'selective' && (argWords(m, 'recompute_modules') ?? []).includes(module);
/** FP8 with the delayed-scaling recipe: as written, or its default `delayed` (transformer_config.py@core_v0.14.0:327, @d98e8a6:594). */
const delayedFp8 = (m: MegatronModel) => !!argValue(m, 'fp8') && (argValue(m, 'fp8_recipe') === 'delayed' || argAbsent(m, 'fp8_recipe'));

/**
 * TransformerConfig.__post_init__'s checks of the recompute modules and of fine-grained activation
 * offloading (transformer_config.py; the first and last tag of each are given beside it).
 */
const MODULE_CHECKS: ArgCheck[] = [
  {
    // @core_v0.4.0:259-262 to @d98e8a6:1934-1938, inside the check of a set recompute granularity.
    // Megatron-LM's argument checks turn sequence parallelism off at TP 1 first (derived.ts).
    when: (m, _p, ctx) => (argOn(m, 'distribute_saved_activations') && switchOn(ctx, m, 'sequence_parallel') && (argGiven(m, 'recompute_granularity') || argOn(m, 'recompute_activations')) ? 'distribute_saved_activations' : undefined),
    message: (m) => `${named(m, '--distribute-saved-activations')} with ${named(m, '--sequence-parallel')}: sequence parallelism already splits the saved activations over the TP ranks, and Megatron Core stops when it builds the transformer config ("distribute_saved_activations: True must be false when sequence parallel is enabled: True"). Drop ${named(m, '--distribute-saved-activations')}.`,
  },
  {
    // @core_v0.12.0:735-738 to @d98e8a6:1964-1967.
    when: (m) => (recomputes(m, 'moe_act') && argOff(m, 'moe_grouped_gemm') ? 'recompute_modules' : undefined),
    since: '0.12.0',
    message: (m) => `${named(m, '--recompute-modules')} has \`moe_act\` without ${named(m, '--moe-grouped-gemm')}: Megatron Core recomputes the expert activation only in the grouped-GEMM experts, and stops when it builds the transformer config ("moe_act in recompute_modules is only supported with moe_grouped_gemm."). Turn on ${named(m, '--moe-grouped-gemm')}, or remove \`moe_act\`.`,
  },
  {
    // @core_v0.12.0:740-744 to @d98e8a6:1969-1973.
    when: (m) => (recomputes(m, 'mla_up_proj') && argOff(m, 'multi_latent_attention') ? 'recompute_modules' : undefined),
    since: '0.12.0',
    message: (m) => `${named(m, '--recompute-modules')} has \`mla_up_proj\` without ${named(m, '--multi-latent-attention')}: the up-projection it recomputes exists only in multi-latent attention, and Megatron Core stops when it builds the transformer config ("mla_up_proj in recompute_modules is only supported with multi_latent_attention."). Remove \`mla_up_proj\`.`,
  },
  {
    // @core_v0.14.0:903-911 to @d98e8a6:1991-1999.
    when: (m) => (recomputes(m, 'shared_experts') && argGiven(m, 'moe_shared_expert_intermediate_size') && argOn(m, 'moe_shared_expert_overlap') ? 'recompute_modules' : undefined),
    since: '0.14.0',
    message: (m) => `${named(m, '--recompute-modules')} has \`shared_experts\` with ${named(m, '--moe-shared-expert-overlap')}: the overlapped shared experts run on their own stream, outside the recomputed region, and Megatron Core stops when it builds the transformer config ("shared_experts recompute cannot work with --moe-shared-expert-overlap."). Remove \`shared_experts\` or the overlap.`,
  },
  {
    // @core_v0.13.0:844-846: with FP8 of any recipe (0.14 keeps only delayed scaling out).
    when: (m) => ((recomputes(m, 'moe_act') || recomputes(m, 'layernorm')) && !!argValue(m, 'fp8') ? 'recompute_modules' : undefined),
    since: '0.13.0',
    before: '0.14.0',
    message: (m) => `${named(m, '--recompute-modules')} has \`moe_act\` or \`layernorm\` with FP8: Megatron Core 0.13 stops when it builds the transformer config ("moe_act and layernorm recompute cannot work with fp8."). Remove those modules, or use Megatron Core 0.14 or later with a recipe other than delayed scaling.`,
  },
  {
    // @core_v0.14.0:913-918 to @d98e8a6:2001-2006.
    when: (m) => ((recomputes(m, 'moe_act') || recomputes(m, 'layernorm')) && delayedFp8(m) ? 'recompute_modules' : undefined),
    since: '0.14.0',
    message: (m) => `${named(m, '--recompute-modules')} has \`moe_act\` or \`layernorm\` with FP8 delayed scaling${argValue(m, 'fp8_recipe') ? '' : ' (the default recipe)'}: Megatron Core stops when it builds the transformer config ("Delayed scaling does not support moe_act and layernorm recompute for fp8."). Use another ${named(m, '--fp8-recipe')} (\`tensorwise\`, \`mxfp8\` or \`blockwise\`), or remove those modules.`,
  },
  {
    // @core_v0.16.0:1268-1272 to @d98e8a6:2127-2131: a bare assertion (no message) that modules are given.
    when: (m) => (argOn(m, 'fine_grained_activation_offloading') && (argAbsent(m, 'offload_modules') || ((argGiven(m, 'offload_modules') ? argWords(m, 'offload_modules') : undefined) ?? ['?']).length === 0) ? 'fine_grained_activation_offloading' : undefined),
    since: '0.16.0',
    message: (m) => `${named(m, '--fine-grained-activation-offloading')} without ${named(m, '--offload-modules')}: the list of modules to offload is empty by default, and Megatron Core stops when it builds the transformer config (an assertion that \`offload_modules\` is not empty). Name the modules to offload (for example \`core_attn\`), or drop the switch.`,
  },
  {
    // @core_v0.16.0:1268-1271 to @d98e8a6:2127-2130.
    when: (m) => (argOn(m, 'fine_grained_activation_offloading') && offloading(m) ? 'fine_grained_activation_offloading' : undefined),
    since: '0.16.0',
    message: (m) => `${named(m, '--fine-grained-activation-offloading')} with CPU offloading of whole layers: the two offload activations in different ways, and Megatron Core stops when it builds the transformer config ("fine_grained_activation_offloading cannot be enabled with cpu_offloading."). Keep one of them.`,
  },
  {
    // @core_v0.16.0:1287-1292 to @d98e8a6:2148-2153.
    when: (m) => {
      const mods = (argGiven(m, 'offload_modules') ? argWords(m, 'offload_modules') : undefined);
      return argOn(m, 'fine_grained_activation_offloading') && mods?.includes('attn_proj') && !mods.includes('core_attn') ? 'offload_modules' : undefined;
    },
    since: '0.16.0',
    message: (m) => `${named(m, '--offload-modules')} has \`attn_proj\` without \`core_attn\`: the input of the attention projection is the output of the attention core, which its backward pass needs, and Megatron Core stops when it builds the transformer config ("attn_proj cannot be set to offload_modules alone without core_attn"). Add \`core_attn\`, or remove \`attn_proj\`.`,
  },
  {
    // @core_v0.19.0:1885-1887 (@d98e8a6:2175-2177), in the fine-grained offloading block.
    when: (m) => (argOn(m, 'fine_grained_activation_offloading') && (argReal(m, 'min_offloaded_tensor_size') ?? 0) < 0 ? 'min_offloaded_tensor_size' : undefined),
    since: '0.19.0',
    message: (m) => `${named(m, '--min-offloaded-tensor-size', String(argValue(m, 'min_offloaded_tensor_size')))} with ${named(m, '--fine-grained-activation-offloading')}: it is the smallest size of a tensor to offload, and Megatron Core stops when it builds the transformer config ("min_offloaded_tensor_size must be non-negative."). Use 0 or more (the default is 1048576).`,
  },
  {
    // @core_v0.19.0:1888-1890 (@d98e8a6:2178-2180).
    when: (m) => {
      const f = argReal(m, 'activation_offload_fraction');
      return argOn(m, 'fine_grained_activation_offloading') && f !== undefined && (f < 0 || f > 1) ? 'activation_offload_fraction' : undefined;
    },
    since: '0.19.0',
    message: (m) => `${named(m, '--activation-offload-fraction', String(argValue(m, 'activation_offload_fraction')))} with ${named(m, '--fine-grained-activation-offloading')}: it is the fraction of the eligible activations to offload, and Megatron Core stops when it builds the transformer config ("activation_offload_fraction must be in range [0, 1]."). Use a value from 0 to 1 (the default, 1, offloads them all).`,
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
    summary: 'Activation-recompute, recompute-module and activation-offload arguments that Megatron rejects together (including `--distribute-saved-activations` outside full recomputation with TP > 1).',
    why: 'Full recomputation needs a method and a layer count, and selective recomputation takes neither: Megatron checks these when it builds the transformer config, after the job has started. On Megatron-LM\'s command line `--recompute-activations` means selective recomputation and wins over a `--recompute-granularity` written beside it, so a method or layer count beside it is refused and a written `full` needs neither. From Megatron Core 0.12 the deprecated `--moe-layer-recompute` is turned into selective recomputation there, so beside full recomputation it is refused too (Megatron Bridge builds the same config). A layer count above the layers of a pipeline stage is not refused there; each message says what the targeted release does with it. With an uneven pipeline split (first and last stage sizes, a layout, the embedding or loss counted as a layer) the count is weighed against each stage\'s own layers, and where a stage\'s layers are not known (a split a fork\'s own flag gives, such as `--num-layer-list`) it is not weighed. A count of 0 is accepted: with `block` it recomputes no layer, and with `uniform` the loop that steps through the layers by it never ends, which is reported. Offloading activations to the CPU (`--cpu-offloading-num-layers` above 0 on the command line, `cpu_offloading` in a config) is refused beside recompute, with pipeline parallelism, or for as many layers as the model has (from Megatron Core 0.5, where that count is checked even with offloading off; the flag arrived in 0.16). On Megatron-LM\'s command line, `--distribute-saved-activations` is refused at startup (every release) with TP 1, without full recomputation, or without a recompute method, and from 0.16 `--fine-grained-activation-offloading` with `--transformer-impl local`. Megatron Core also refuses, when it builds the transformer config: distributing the saved activations of recompute beside sequence parallelism (every release); among the selective recompute modules, `moe_act` without grouped GEMM and `mla_up_proj` without multi-latent attention (from 0.12), `shared_experts` beside the shared-expert overlap (from 0.14), and `moe_act` or `layernorm` with FP8 (0.13; from 0.14 only with delayed scaling, the default recipe); and fine-grained activation offloading without modules to offload, beside CPU offloading, or of `attn_proj` without `core_attn` (from 0.16), or with an `--activation-offload-fraction` outside [0, 1] or a negative `--min-offloaded-tensor-size` (from 0.19). A `--yaml-cfg` file meets the reader\'s own checks (from 0.6): `distribute_saved_activations` needs TP above 1, full granularity and a method, and selective recomputation takes no method.',
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
    runChecks(ctx, MODULE_CHECKS);
    // The `--yaml-cfg` reader's own checks, from 0.6.0 (its first release).
    runChecks(ctx, YAML_CFG_RECOMPUTE_CHECKS);
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
 * The loops run over the layers one model chunk builds (`len(self.layers)`,
 * transformer_block.py@core_v0.12.1:268, @core_v0.16.0:326), which an uneven split makes differ from
 * chunk to chunk (the first and last stage sizes, a layout, the embedding or loss counted as a layer:
 * @core_v0.16.0:102-158): the count is weighed against each chunk the plan's split gives, and where
 * that split is not known, not at all.
 */
const UNEVEN = ['decoder_first_pipeline_num_layers', 'decoder_last_pipeline_num_layers', 'pipeline_model_parallel_layout', 'account_for_embedding_in_pipeline_split', 'account_for_loss_in_pipeline_split'];

/**
 * The decoder layers of the model chunks, as the plan's pipeline split gives them: `most`, the
 * largest chunk's; `chunks`, each chunk's where every one is known (`even` when they are all the same,
 * as without a split); `virtual`, whether a stage holds several chunks. Undefined where the split the
 * file writes does not say (a value not known, a split Megatron refuses).
 */
function chunkLayers(m: MegatronModel, p: RuleContext<MegatronModel>['plan'], layers: number, pp: number, vpp: number): { most: number; chunks?: readonly number[]; even: boolean; virtual: boolean } | undefined {
  const s = p?.pipelineSplit;
  const n = pp * vpp;
  const of = (chunks: readonly number[], virtual: boolean) => (chunks.length && chunks.reduce((a, b) => a + b, 0) === layers ? { most: Math.max(...chunks), chunks, even: chunks.every((c) => c === chunks[0]), virtual } : undefined);
  if (!s) {
    // A split flag written with a value that is not known.
    if (UNEVEN.some((d) => m.args.get(d)?.unknown)) return undefined;
    // Layers the stages do not share evenly, with no split: Megatron refuses (layers-not-divisible-by-pp's).
    return layers % n === 0 ? { most: layers / n, chunks: Array<number>(n).fill(layers / n), even: true, virtual: vpp > 1 } : { most: Math.floor(layers / n), even: false, virtual: vpp > 1 };
  }
  // A layout names every chunk, and so the virtual stages (its chunks over PP).
  if (s.layout) return of(s.layout, s.layout.length > pp);
  if (s.first !== undefined || s.last !== undefined) {
    const chunks = firstLastChunks(layers, pp, vpp, s.first, s.last);
    return chunks ? of(chunks, vpp > 1) : undefined;
  }
  if (s.explicit) return undefined;
  // The embedding and/or the loss counted as a layer: each chunk the counted layers over PP × VPP, the first (last) one fewer.
  const counted = layers + (s.embedding ? 1 : 0) + (s.loss ? 1 : 0);
  return counted % n === 0 ? { most: counted / n, even: false, virtual: vpp > 1 } : undefined;
}

const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);

function moreLayersThanAStage(ctx: RuleContext<MegatronModel>): void {
  const m = ctx.model;
  const p = ctx.plan;
  const n = argNum(m, 'recompute_num_layers');
  const layers = argNum(m, 'num_layers');
  const pp = p?.pp.value ?? 1;
  if (recomputeGranularity(m) !== 'full' || n === undefined || layers === undefined) return;
  // The loop runs over the layers of one model chunk: with virtual pipeline stages, a stage's chunk.
  const vpp = p?.vpp && p.vpp.value > 1 ? p.vpp.value : 1;
  const split = chunkLayers(m, p, layers, pp, vpp);
  if (!split) return;
  const perStage = split.most;
  const unit = split.virtual ? 'virtual pipeline stage (model chunk)' : 'pipeline stage';
  const holds = split.even || !split.chunks ? `each ${unit} holds` : `the largest ${unit} holds`;
  const crashes = argValue(m, 'recompute_method') === 'uniform' && !ctx.atLeast('0.17.0');
  if (n <= perStage) {
    // The same overrun when the count does not divide a stage: the last chunk reaches past it.
    const short = split.chunks?.find((c) => c > 0 && c % n !== 0);
    if (crashes && short !== undefined && n > 0) {
      const fits = split.chunks!.filter((c) => c > 0).reduce(gcd);
      ctx.report({
        at: m.args.get('recompute_num_layers')?.path ?? [],
        severity: 'error',
        message: `\`--recompute-num-layers ${n}\` does not divide the ${short} layers ${split.even ? holds : `one ${unit} holds`}: with \`uniform\`, ${ctx.versions} ${ctx.version} checkpoints chunks of ${n} layers without clamping the last one to the stage, so the first training step fails with an IndexError (0.17 and later clamp the chunk). Use a divisor of ${fits} (1 recomputes every layer).`,
      });
    }
    return;
  }
  // The layers of a stage rest on the layer count (and a split the launch gives): named with the finding.
  const layersAt = m.args.get('num_layers')?.path;
  ctx.report({
    at: m.args.get('recompute_num_layers')?.path ?? [],
    ...(layersAt ? { related: [{ at: layersAt, message: `the ${layers} layers the stages share are set here` }] } : {}),
    severity: crashes ? 'error' : 'warning',
    message: crashes
      ? `\`--recompute-num-layers ${n}\` is more than the ${perStage} layers ${holds}: with \`uniform\`, ${ctx.versions} ${ctx.version} checkpoints chunks of ${n} layers without clamping them to the stage, so the first training step fails with an IndexError (0.17 and later clamp the chunk). Use a value between 1 and ${perStage}.`
      : `\`--recompute-num-layers ${n}\` is more than the ${perStage} layers ${holds}: Megatron accepts it, but no stage has that many layers to recompute, so the value does not say what runs. Use a value between 1 and ${perStage}.`,
  });
}
