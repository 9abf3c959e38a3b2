/**
 * The checks Megatron-LM's `--yaml-cfg` reader makes (training/yaml_arguments.py validate_yaml, from
 * Megatron Core 0.6.0, the first release with the reader) where the command line's argument checks
 * differ or are not made there: each table is run by the rule whose theme it shares. validate_yaml
 * reads every argument at one place (`language_model.*`, `model_parallel.*` or the top level), so
 * a value is read here only where it is written at that place; one written elsewhere is not what the
 * reader sees (unread-key says so).
 */
import { argGiven, argOff, argOn, argValue, type MegatronModel } from './model';
import { named, type ArgCheck } from './checks';
import { yamlCfgSection } from './schema';
import { untracked } from '../../rules/certain';

const YAML = ['megatron-yaml'] as const;
/** The first release with the `--yaml-cfg` reader (training/yaml_arguments.py@core_v0.6.0). */
const FIRST = '0.6.0';

/**
 * Written where validate_yaml reads it: the argument's `--yaml-cfg` section, or `section` where
 * validate_yaml reads another place than the one the config is built from (`top` for the top level).
 */
function atItsPlace(m: MegatronModel, dest: string, section = yamlCfgSection(dest)): boolean {
  if (!m.args.yamlCfg) return false;
  const a = untracked(m.args).get(dest);
  if (!a?.path) return false;
  return section && section !== 'top' ? a.path.length === 2 && a.path[0] === section : a.path.length === 1;
}

/** The value validate_yaml reads, when the file writes it there. */
function yv(m: MegatronModel, dest: string, section?: string): unknown {
  return atItsPlace(m, dest, section ?? yamlCfgSection(dest)) ? argValue(m, dest) : undefined;
}
const on = (m: MegatronModel, dest: string) => yv(m, dest) === true;
/** Known not to be on: written false, or left out (then validate_yaml stops on the missing attribute before it can run). */
const notOn = (m: MegatronModel, dest: string) => m.args.yamlCfg === true && (yv(m, dest) === false || untracked(m.args).get(dest) === undefined);
const num = (m: MegatronModel, dest: string): number | undefined => {
  const v = yv(m, dest);
  return typeof v === 'number' ? v : undefined;
};
/** Given a value (not None): written at its place with a non-null value. */
const given = (m: MegatronModel, dest: string) => yv(m, dest) !== undefined && yv(m, dest) !== null;
/** Left out or null (validate_yaml's `is None`, or its missing attribute). */
const none = (m: MegatronModel, dest: string) => m.args.yamlCfg === true && untracked(m.args).get(dest) === undefined;

const base = { formats: YAML, yamlCfg: true, since: FIRST } as const;
const stops = 'Megatron-LM stops at startup (its `--yaml-cfg` reader asserts';

/** MoE and expert parallelism (yaml_arguments.py@core_v0.6.0:335-346, @core_v0.19.0:279-282 and 334-346). */
export const YAML_CFG_MOE_CHECKS: ArgCheck[] = [
  {
    ...base,
    // The reader copies `language_model` into the model config as written: no conversion of 0 as on
    // the command line (core_transformer_config_from_yaml, yaml_arguments.py@core_v0.6.0, @core_v0.19.0:397-434),
    // and the config refuses it (transformer_config.py@core_v0.6.0:298-299, @core_v0.19.0:1531-1532).
    when: (m) => (num(m, 'num_moe_experts') === 0 ? 'num_moe_experts' : undefined),
    message: (m) => `${named(m, '--num-experts', '0')}: the \`--yaml-cfg\` reader hands 0 to the model config as it is (only the command line takes \`--num-experts 0\` for a dense model, from Megatron Core 0.8), and Megatron Core stops when it builds the config ("num_moe_experts must be non-negative."). Leave it out (or null) for a dense model.`,
  },
  {
    ...base,
    when: (m) => ((num(m, 'expert_model_parallel_size') ?? 1) > 1 && none(m, 'num_moe_experts') ? 'expert_model_parallel_size' : undefined),
    message: (m) => `${named(m, '--expert-model-parallel-size', String(num(m, 'expert_model_parallel_size')))} without ${named(m, '--num-moe-experts')}: ${stops} "num_experts must be non None to use expert model parallelism"). Give the expert count, or set the expert-parallel size to 1.`,
  },
  {
    ...base,
    when: (m) => {
      const ep = num(m, 'expert_model_parallel_size') ?? 1;
      const e = num(m, 'num_moe_experts');
      return ep > 1 && e !== undefined && e % ep !== 0 ? 'num_moe_experts' : undefined;
    },
    message: (m) => `${num(m, 'num_moe_experts')} experts do not split over ${named(m, '--expert-model-parallel-size', String(num(m, 'expert_model_parallel_size')))}: each expert-parallel rank holds the same number of experts, and ${stops} "Number of experts should be a multiple of expert model parallel_size."). Use an expert-parallel size that divides ${num(m, 'num_moe_experts')}.`,
  },
  {
    ...base,
    when: (m) => ((num(m, 'expert_model_parallel_size') ?? 1) > 1 && on(m, 'fp16') ? 'fp16' : undefined),
    message: (m) => `${named(m, '--fp16', 'true')} with ${named(m, '--expert-model-parallel-size', String(num(m, 'expert_model_parallel_size')))}: ${stops} "Expert parallelism is not supported with fp16 training."), at every release that has it, though the command line stops on it only before Megatron Core 0.16. Train in bf16, or set the expert-parallel size to 1.`,
  },
  {
    ...base,
    // The command line's check ended at 0.16 (moe-config-invalid); the `--yaml-cfg` reader keeps it.
    when: (m) => (on(m, 'moe_grouped_gemm') && notOn(m, 'bf16') ? 'moe_grouped_gemm' : undefined),
    message: (m) => `${named(m, '--moe-grouped-gemm', 'true')} without ${named(m, '--bf16', 'true')}: ${stops} "Currently GroupedGEMM for MoE only supports bf16 dtype."), at every release, though the command line stops on it only before Megatron Core 0.16. Set ${named(m, '--bf16', 'true')}, or turn the grouped GEMM off.`,
  },
  {
    ...base,
    before: '0.18.0',
    when: (m) => (given(m, 'num_moe_experts') && given(m, 'spec') ? 'spec' : undefined),
    message: (m) => `${named(m, '--spec')} with ${named(m, '--num-moe-experts')}: before Megatron Core 0.18 ${stops} "Model Spec must be None when using MoEs"). Remove \`spec\` (or set it to null).`,
  },
];

/** Model shape, precision and positions (yaml_arguments.py@core_v0.6.0 validate_yaml, the same at @core_v0.19.0:224-277). */
export const YAML_CFG_MODEL_CHECKS: ArgCheck[] = [
  {
    ...base,
    when: (m) => {
      const h = num(m, 'hidden_size');
      const heads = num(m, 'num_attention_heads');
      return h !== undefined && heads !== undefined && heads > 0 && h % heads !== 0 && none(m, 'kv_channels') ? 'num_attention_heads' : undefined;
    },
    message: (m) => `${named(m, '--hidden-size', String(num(m, 'hidden_size')))} is not a multiple of ${named(m, '--num-attention-heads', String(num(m, 'num_attention_heads')))}: without ${named(m, '--kv-channels')} each head's size is the hidden size over the heads, and ${stops} that the hidden size divides by the heads). Use a head count that divides the hidden size, or give ${named(m, '--kv-channels')}.`,
  },
  ...(['seq_length', 'decoder_seq_length'] as const).map((len): ArgCheck => ({
    ...base,
    when: (m) => {
      const pos = num(m, 'max_position_embeddings');
      const l = num(m, len);
      return pos !== undefined && l !== undefined && pos < l ? 'max_position_embeddings' : undefined;
    },
    message: (m) => `${named(m, '--max-position-embeddings', String(num(m, 'max_position_embeddings')))} is below ${named(m, `--${len.replace(/_/g, '-')}`, String(num(m, len)))}: the model has no position for the tokens past it, and ${stops} that the position count covers it). Raise \`max_position_embeddings\` to at least ${num(m, len)}, or shorten the sequence.`,
  })),
  {
    ...base,
    when: (m) => (given(m, 'num_layers') && given(m, 'encoder_num_layers') ? 'encoder_num_layers' : undefined),
    message: (m) => `${named(m, '--num-layers')} and ${named(m, '--encoder-num-layers')} both given: ${stops} "cannot have both num-layers and encoder-num-layers specified"). Keep \`language_model.num_layers\` only.`,
  },
  {
    ...base,
    when: (m) => (given(m, 'seq_length') && given(m, 'encoder_seq_length') ? 'encoder_seq_length' : undefined),
    message: (m) => `${named(m, '--seq-length')} and ${named(m, '--encoder-seq-length')} both given: ${stops} that the encoder length is None when the sequence length is given). Keep \`seq_length\` only.`,
  },
  {
    ...base,
    when: (m) => (on(m, 'fp32_residual_connection') && notOn(m, 'fp16') && notOn(m, 'bf16') ? 'fp32_residual_connection' : undefined),
    message: (m) => `${named(m, '--fp32-residual-connection', 'true')} without ${named(m, '--fp16', 'true')} or ${named(m, '--bf16', 'true')}: an fp32 residual stream only means something beside a half-precision model, and ${stops} "residual connection in fp32 only supported when using fp16 or bf16."). Turn it off, or train in bf16.`,
  },
  {
    ...base,
    before: '0.14.0',
    when: (m) => (on(m, 'rotary_interleaved') && on(m, 'apply_rope_fusion') ? 'apply_rope_fusion' : undefined),
    message: (m) => `${named(m, '--apply-rope-fusion', 'true')} with ${named(m, '--rotary-interleaved', 'true')}: before Megatron Core 0.14 Megatron-LM's \`--yaml-cfg\` reader stops at startup ("--rotary-interleaved does not work with rope_fusion."). Turn the RoPE fusion off.`,
  },
  {
    ...base,
    before: '0.16.0',
    when: (m) => (on(m, 'retro_add_retriever') ? 'retro_add_retriever' : given(m, 'retro_project_dir') ? 'retro_project_dir' : undefined),
    message: () => 'Retro in a `--yaml-cfg` file: before Megatron Core 0.16 the reader stops at startup ("Retro untested for yaml args. See arguments.py."). Configure Retro on the command line instead.',
  },
];

/** Activation recompute (yaml_arguments.py@core_v0.6.0 validate_yaml, the same at @core_v0.19.0:302-320). */
export const YAML_CFG_RECOMPUTE_CHECKS: ArgCheck[] = [
  {
    ...base,
    when: (m) => (on(m, 'distribute_saved_activations') && (num(m, 'tensor_model_parallel_size') ?? 0) === 1 ? 'distribute_saved_activations' : undefined),
    message: (m) => `${named(m, '--distribute-saved-activations', 'true')} with TP 1: the saved activations are split over the tensor-parallel group, and ${stops} "can distribute recomputed activations only across tensor model parallel groups"). Turn it off, or use TP > 1.`,
  },
  {
    ...base,
    when: (m) => {
      const g = yv(m, 'recompute_granularity');
      return on(m, 'distribute_saved_activations') && (g === null || (typeof g === 'string' && g !== 'full') || none(m, 'recompute_granularity')) ? 'distribute_saved_activations' : undefined;
    },
    message: (m) => `${named(m, '--distribute-saved-activations', 'true')} without full recomputation: only full recomputation saves the activations it distributes, and ${stops} "distributed recompute activations is only application to full recompute granularity"). Set ${named(m, '--recompute-granularity', 'full')} with a method, or turn it off.`,
  },
  {
    ...base,
    when: (m) => (on(m, 'distribute_saved_activations') && yv(m, 'recompute_granularity') === 'full' && none(m, 'recompute_method') ? 'distribute_saved_activations' : undefined),
    message: (m) => `${named(m, '--distribute-saved-activations', 'true')} without ${named(m, '--recompute-method')}: ${stops} "for distributed recompute activations to work you need to use a recompute method"). Add ${named(m, '--recompute-method', 'uniform')}.`,
  },
  {
    ...base,
    when: (m) => (yv(m, 'recompute_granularity') === 'selective' && given(m, 'recompute_method') ? 'recompute_method' : undefined),
    message: (m) => `${named(m, '--recompute-method')} with selective recomputation: ${stops} "recompute method is not yet supported for selective recomputing granularity"). Remove it (or set it to null), or use full recomputation.`,
  },
];

/**
 * The pipeline split (yaml_arguments.py@core_v0.6.0 validate_yaml, the same at @core_v0.19.0:136-149); the
 * layer counts it asserts on are layers-not-divisible-by-pp's.
 */
export const YAML_CFG_PIPELINE_CHECKS: ArgCheck[] = [
  {
    ...base,
    when: (m) => (given(m, 'num_layers_per_virtual_pipeline_stage') && (num(m, 'pipeline_model_parallel_size') ?? 3) <= 2 ? 'num_layers_per_virtual_pipeline_stage' : undefined),
    message: (m) => `${named(m, '--num-layers-per-virtual-pipeline-stage')} with PP ${num(m, 'pipeline_model_parallel_size')}: ${stops} "pipeline-model-parallel size should be greater than 2 with interleaved schedule"), whatever the p2p overlap. Use PP 3 or more, or remove the virtual stages.`,
  },
  {
    ...base,
    before: '0.14.0',
    when: (m) => {
      const pp = num(m, 'pipeline_model_parallel_size') ?? 1;
      // Read from `model_parallel` (yaml_arguments.py@core_v0.13.0:89-94).
      const v = yv(m, 'pipeline_model_parallel_split_rank', 'model_parallel');
      const r = typeof v === 'number' ? v : undefined;
      return pp > 1 && r !== undefined && r >= pp ? 'pipeline_model_parallel_split_rank' : undefined;
    },
    message: (m) => `\`model_parallel.pipeline_model_parallel_split_rank: ${String(yv(m, 'pipeline_model_parallel_split_rank', 'model_parallel'))}\` is not below PP ${num(m, 'pipeline_model_parallel_size')}: before Megatron Core 0.14 ${stops} "split rank needs to be less than pipeline model parallel size"). Use a rank below the pipeline size.`,
  },
];

/** The training schedule (yaml_arguments.py@core_v0.6.0 validate_yaml, @core_v0.17.0:196-206). */
export const YAML_CFG_SCHEDULE_CHECKS: ArgCheck[] = [
  {
    ...base,
    before: '0.18.0',
    when: (m) => (given(m, 'train_iters') && num(m, 'train_iters') !== 0 && given(m, 'rampup_batch_size') ? 'rampup_batch_size' : undefined),
    message: (m) => `${named(m, '--rampup-batch-size')} with iteration-based training (${named(m, '--train-iters')}): before Megatron Core 0.18 ${stops} "expected no batch-size rampup for iteration-based training"). Train by samples (\`train_samples\`), or remove the ramp-up.`,
  },
];

/**
 * A launch script that passes `--yaml-cfg`: Megatron-LM's parse_args asserts, before it loads the
 * file, that Megatron Core models are used (training/arguments.py@core_v0.6.0:57-60, @core_v0.7.0:
 * `--use-mcore-models` required; @core_v0.8.0:63-67 to @core_v0.17.1: `--use-legacy-models` refused;
 * gone @core_v0.18.0 with the legacy models).
 */
export const YAML_CFG_LAUNCH_CHECKS: ArgCheck[] = [
  {
    formats: ['megatron-args'],
    since: FIRST,
    before: '0.8.0',
    when: (m) => (argGiven(m, 'yaml_cfg') && argOff(m, 'deprecated_use_mcore_models') ? 'yaml_cfg' : undefined),
    message: () => '`--yaml-cfg` without `--use-mcore-models`: before Megatron Core 0.8 the YAML arguments work only with Megatron Core models, and Megatron-LM stops at startup ("To use yaml, mcore must be enabled"). Add `--use-mcore-models`.',
  },
  {
    formats: ['megatron-args'],
    since: '0.8.0',
    before: '0.18.0',
    when: (m) => (argGiven(m, 'yaml_cfg') && argOn(m, 'use_legacy_models') ? 'use_legacy_models' : undefined),
    message: () => '`--use-legacy-models` with `--yaml-cfg`: the YAML arguments work only with Megatron Core models, and Megatron-LM stops at startup ("Yaml config is not supported with legacy models."). Remove `--use-legacy-models`.',
  },
];
