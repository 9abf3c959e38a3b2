/**
 * rl-config-invalid: Megatron-LM's reinforcement-learning arguments that its argument checks refuse
 * together once `--perform-rl-step` is on.
 *
 * megatron/training/arguments.py, validate_args, inside `if args.perform_rl_step:`
 * (@core_v0.19.0:448, 526-541; @d98e8a6:450, 540-559): rollouts cannot be consumed one by one, groups
 * cannot be consumed when whole batches are submitted (`--rl-submission-granularity` defaults to `B`),
 * a generation lag above zero needs partial rollouts, and so does a submission granularity finer
 * than a batch (`R` from 0.19.0; `G` too from 0.20.0). BATCH_CHECKS below: the GRPO batch arithmetic,
 * sequence packing, CUDA graphs and KV-cache offload (0.15-0.17 on), and the in-flight request cap (0.20).
 */
import { argAbsent, argNum, argOff, argOn, argValue, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { runChecks, type ArgCheck } from '../formats/megatron/checks';
import { defineRule } from './rule';

/** The first release with the RL granularity and lag flags and the checks on them. */
const RL_CHECKS_SINCE = '0.19.0';

/** `--perform-rl-step` is on: the checks below run only then. */
const rl = (m: MegatronModel): boolean => argOn(m, 'perform_rl_step');

/** The submission granularity: as written, or the default `B` where the file leaves it out and defaults are known. */
function submission(m: MegatronModel): unknown {
  return argAbsent(m, 'rl_submission_granularity') ? 'B' : argValue(m, 'rl_submission_granularity');
}

/** Partial rollouts are off: not written (default False), or `--no-rl-partial-rollouts`. */
function partialOff(m: MegatronModel): boolean {
  return argAbsent(m, 'rl_partial_rollouts') || argValue(m, 'rl_partial_rollouts') === false;
}

/** The generation lag as a known number. */
function lag(m: MegatronModel): number | undefined {
  const v = argValue(m, 'rl_generation_lag');
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*[-+]?(\d+\.?\d*|\.\d+)\s*$/.test(v) ? Number(v) : undefined;
  return n !== undefined && Number.isFinite(n) ? n : undefined;
}

const CHECKS: ArgCheck[] = [
  {
    when: (m) => (rl(m) && argValue(m, 'rl_consumption_granularity') === 'R' ? 'rl_consumption_granularity' : undefined),
    message: () => '`--rl-consumption-granularity R` with `--perform-rl-step`: the trainer cannot consume rollouts one by one yet, and Megatron-LM stops at startup ("--rl-consumption-granularity R is not currently supported."). Use `G` (groups, with a finer `--rl-submission-granularity` and `--rl-partial-rollouts`) or `B`, the default.',
    formats: MLM_FLAG_FORMATS,
    since: RL_CHECKS_SINCE,
  },
  {
    when: (m) => (rl(m) && argValue(m, 'rl_consumption_granularity') === 'G' && submission(m) === 'B' ? 'rl_consumption_granularity' : undefined),
    message: (m) => `\`--rl-consumption-granularity G\` with \`--rl-submission-granularity B\`${argAbsent(m, 'rl_submission_granularity') ? ' (the default)' : ''}: generation work submitted a whole batch at a time cannot be consumed group by group, and Megatron-LM stops at startup ("--rl-submission-granularity B with --rl-consumption-granularity G is not supported."). Submit finer work (\`--rl-submission-granularity G\` or \`R\`, with \`--rl-partial-rollouts\`), or consume whole batches (\`B\`, the default).`,
    formats: MLM_FLAG_FORMATS,
    since: RL_CHECKS_SINCE,
  },
  {
    when: (m) => (rl(m) && (lag(m) ?? 0) > 0 && partialOff(m) ? 'rl_generation_lag' : undefined),
    message: (m) => `\`--rl-generation-lag ${lag(m)}\` without \`--rl-partial-rollouts\`: letting generation run ahead of the trainer needs rollouts that can stop and resume across steps, and Megatron-LM stops at startup ("--rl-generation-lag requires --rl-partial-rollouts."). Add \`--rl-partial-rollouts\`, or leave the lag at 0.`,
    formats: MLM_FLAG_FORMATS,
    since: RL_CHECKS_SINCE,
  },
  {
    when: (m) => (rl(m) && argValue(m, 'rl_submission_granularity') === 'R' && partialOff(m) ? 'rl_submission_granularity' : undefined),
    message: () => '`--rl-submission-granularity R` without `--rl-partial-rollouts`: submitting single rollouts needs streaming grouped rollouts, and Megatron-LM stops at startup ("Rollout submission granularity requires streaming grouped rollouts."; from 0.20.0 "--rl-submission-granularity R requires --rl-partial-rollouts."). Add `--rl-partial-rollouts`, or submit whole batches (`B`, the default).',
    formats: MLM_FLAG_FORMATS,
    since: RL_CHECKS_SINCE,
  },
  {
    when: (m) => (rl(m) && argValue(m, 'rl_submission_granularity') === 'G' && partialOff(m) ? 'rl_submission_granularity' : undefined),
    message: () => '`--rl-submission-granularity G` without `--rl-partial-rollouts`: from Megatron Core 0.20.0 any submission finer than a batch needs partial rollouts, and Megatron-LM stops at startup ("--rl-submission-granularity G requires --rl-partial-rollouts."). Add `--rl-partial-rollouts`, or submit whole batches (`B`, the default).',
    formats: MLM_FLAG_FORMATS,
    since: '0.20.0',
  },
];

/** A GRPO setting as written, or its default where the file leaves it out (the same from 0.15 to d98e8a6). */
function grpo(m: MegatronModel, dest: string, fallback: number): number | undefined {
  return argAbsent(m, dest) ? fallback : argNum(m, dest);
}

/**
 * The samples one inference round generates (prompts × group size × GRPO iterations) and the
 * written global batch, when all are known.
 */
function rounds(m: MegatronModel): { samples: number; gbs: number } | undefined {
  const prompts = grpo(m, 'grpo_prompts_per_step', 32);
  const group = grpo(m, 'grpo_group_size', 2);
  const iterations = grpo(m, 'grpo_iterations', 2);
  const gbs = argNum(m, 'global_batch_size');
  if (prompts === undefined || group === undefined || iterations === undefined || !gbs) return undefined;
  return { samples: prompts * group * iterations, gbs };
}

/** No CUDA graphs are built: `--cuda-graph-impl` none (its default) and neither old switch. */
const noGraphs = (m: MegatronModel): boolean =>
  (argAbsent(m, 'cuda_graph_impl') || argValue(m, 'cuda_graph_impl') === 'none') && argOff(m, 'enable_cuda_graph') && argOff(m, 'external_cuda_graph');

const offload = (m: MegatronModel): boolean => argValue(m, 'rl_kv_cache_management_mode') === 'offload';

/**
 * The batch and graph checks under `--perform-rl-step` (training/arguments.py@core_v0.15.0:395-413,
 * @core_v0.16.0:386-388, @core_v0.17.0:360-391; @d98e8a6:479-565, 722-739).
 */
const BATCH_CHECKS: ArgCheck[] = [
  {
    when: (m) => {
      const r = rl(m) ? rounds(m) : undefined;
      return r && r.samples % r.gbs !== 0 ? 'global_batch_size' : undefined;
    },
    message: (m) => `\`--global-batch-size ${rounds(m)!.gbs}\` with \`--perform-rl-step\`: each inference round generates \`--grpo-prompts-per-step\` × \`--grpo-group-size\` × \`--grpo-iterations\` = ${rounds(m)!.samples} samples, which the global batch does not divide, and Megatron-LM stops at startup ("grpo_group_size * grpo_prompts_per_step * grpo_iterations should be divisible by global_batch_size"). Use a global batch that divides ${rounds(m)!.samples}, or change the GRPO sizes.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.15.0',
  },
  ...['exit_interval', 'save_interval'].map(
    (dest): ArgCheck => ({
      when: (m) => {
        const r = rl(m) ? rounds(m) : undefined;
        const every = argNum(m, dest);
        return r && r.samples % r.gbs === 0 && every !== undefined && every % (r.samples / r.gbs) !== 0 ? dest : undefined;
      },
      message: (m) => `\`--${dest.replace(/_/g, '-')} ${argNum(m, dest)}\` with \`--perform-rl-step\`: each inference round feeds ${rounds(m)!.samples / rounds(m)!.gbs} training steps (${rounds(m)!.samples} samples over a global batch of ${rounds(m)!.gbs}), and Megatron-LM ${dest === 'save_interval' ? 'saves' : 'exits'} only at the end of a round, so it stops at startup ("${dest} should be divisible by number of global batches per inference iteration."). Use a multiple of ${rounds(m)!.samples / rounds(m)!.gbs}.`,
      formats: MLM_FLAG_FORMATS,
      since: '0.15.0',
    }),
  ),
  {
    when: (m) => (rl(m) && argOn(m, 'rl_use_sequence_packing') && (argNum(m, 'micro_batch_size') ?? 1) !== 1 ? 'micro_batch_size' : undefined),
    message: () => '`--rl-use-sequence-packing` with a micro-batch above 1: packed sequences fill one micro-batch each, and Megatron-LM stops at startup ("micro_batch_size must be 1 when using sequence packing."). Use `--micro-batch-size 1` (raise the sequence length for more work per micro-batch).',
    formats: MLM_FLAG_FORMATS,
    since: '0.16.0',
  },
  ...['rl_persist_cuda_graphs', 'rl_training_cuda_graphs'].map(
    (dest): ArgCheck => ({
      when: (m) => (rl(m) && argOn(m, dest) && noGraphs(m) ? dest : undefined),
      message: () => `\`--${dest.replace(/_/g, '-')}\` without CUDA graphs (\`--cuda-graph-impl\` is \`none\`, its default): there are no graphs to ${dest === 'rl_persist_cuda_graphs' ? 'keep' : 'train with'}, and Megatron-LM stops at startup ("--${dest.replace(/_/g, '-')} is set but no CUDA graphs are being built."). Add \`--cuda-graph-impl local\`, or drop the flag.`,
      formats: MLM_FLAG_FORMATS,
      since: '0.17.0',
    }),
  ),
  {
    when: (m) => (rl(m) && offload(m) && argOff(m, 'rl_persist_cuda_graphs') ? 'rl_kv_cache_management_mode' : undefined),
    message: () => '`--rl-kv-cache-management-mode offload` without `--rl-persist-cuda-graphs`: recapturing the graphs would run dummy passes over the offloaded KV cache, and Megatron-LM stops at startup ("--rl-kv-cache-management-mode=offload requires --rl-persist-cuda-graphs"). Add `--rl-persist-cuda-graphs` (with CUDA graphs on), or use `persist` or `recompute`.',
    formats: MLM_FLAG_FORMATS,
    since: '0.17.0',
  },
  {
    when: (m) => (rl(m) && offload(m) && (argNum(m, 'inference_dynamic_batching_unified_memory_level') ?? 0) > 0 ? 'rl_kv_cache_management_mode' : undefined),
    message: () => '`--rl-kv-cache-management-mode offload` with unified memory (`--inference-dynamic-batching-unified-memory-level` above 0): unified memory already moves the KV cache, and Megatron-LM stops at startup ("--rl-kv-cache-management-mode=offload is incompatible with UVM"). Use `persist`, or level 0.',
    formats: MLM_FLAG_FORMATS,
    since: '0.17.0',
  },
  {
    when: (m) => (rl(m) && inflight(m) !== undefined && !argAbsent(m, 'rl_generation_lag') ? 'rl_max_inflight_requests' : undefined),
    message: () => '`--rl-max-inflight-requests` beside `--rl-generation-lag`: the request cap sets the lag itself, and Megatron-LM stops at startup ("--rl-generation-lag and --rl-max-inflight-requests are mutually exclusive."). Keep one of them.',
    formats: MLM_FLAG_FORMATS,
    since: '0.20.0',
  },
  {
    when: (m) => (rl(m) && (inflight(m) ?? 1) < 1 ? 'rl_max_inflight_requests' : undefined),
    message: (m) => `\`--rl-max-inflight-requests ${inflight(m)}\`: Megatron-LM stops at startup ("--rl-max-inflight-requests (${inflight(m)}) must be >= 1."). Give at least 1.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.20.0',
  },
  {
    when: (m) => {
      const cap = inflight(m);
      const prompts = grpo(m, 'grpo_prompts_per_step', 32);
      const group = grpo(m, 'grpo_group_size', 2);
      return rl(m) && cap !== undefined && prompts !== undefined && group !== undefined && cap > prompts * group && partialOff(m) ? 'rl_max_inflight_requests' : undefined;
    },
    message: (m) => `\`--rl-max-inflight-requests ${inflight(m)}\` above one training batch (\`--grpo-prompts-per-step\` × \`--grpo-group-size\` requests) without \`--rl-partial-rollouts\`: requests beyond a batch run into the next step, and Megatron-LM stops at startup ("--rl-max-inflight-requests above one training batch … requires --rl-partial-rollouts."). Add \`--rl-partial-rollouts\`, or lower the cap.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.20.0',
  },
  {
    when: (m) => (rl(m) && (lag(m) ?? 0) < -1 ? 'rl_generation_lag' : undefined),
    message: (m) => `\`--rl-generation-lag ${lag(m)}\`: Megatron-LM stops at startup ("--rl-generation-lag (${lag(m)}) must be >= -1."). Use -1 or more.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.20.0',
  },
  {
    // The --skip-train checks, after the RL block (@core_v0.17.0:1468-1471, @d98e8a6:1876-1879).
    when: (m) => (rl(m) && argOn(m, 'skip_train') && argOn(m, 'no_load_optim') && argOn(m, 'rl_offload_optimizer_during_inference') ? 'rl_offload_optimizer_during_inference' : undefined),
    message: () => '`--rl-offload-optimizer-during-inference` with `--skip-train` and `--no-load-optim`: an inference-only RL run without the optimizer state builds no optimizer, so there is nothing to offload, and Megatron-LM stops at startup ("--rl-offload-optimizer-during-inference is incompatible (no optimizer to offload)."). Drop `--rl-offload-optimizer-during-inference`, or `--no-load-optim`.',
    formats: MLM_FLAG_FORMATS,
    since: '0.17.0',
  },
  {
    // @core_v0.16.0:345-351 (0.17 on asks for torch_memory_saver instead, an installed package).
    when: (m) => (rl(m) && argOn(m, 'rl_offload_inference_model_weights_when_idle') && (argNum(m, 'rl_inference_model_unified_memory_level') ?? (argAbsent(m, 'rl_inference_model_unified_memory_level') ? 0 : 1)) !== 1 ? 'rl_offload_inference_model_weights_when_idle' : undefined),
    message: (m) => `\`--rl-offload-inference-model-weights-when-idle\` without unified memory for the inference model (\`--rl-inference-model-unified-memory-level\` ${argAbsent(m, 'rl_inference_model_unified_memory_level') ? '0, the default' : argNum(m, 'rl_inference_model_unified_memory_level')}): Megatron-LM 0.16 offloads the idle weights only from unified memory, and stops at startup ("--rl-offload-inference-model-weights-when-idle requires --rl-inference-model-unified-memory-level=1."). Add \`--rl-inference-model-unified-memory-level 1\`, or use Megatron Core 0.17 or later (with torch_memory_saver installed).`,
    formats: MLM_FLAG_FORMATS,
    since: '0.16.0',
    before: '0.17.0',
  },
  // From 0.17 the offload needs a separate inference model, which setup_model_and_optimizer builds only
  // for an `--rl-inference-*` parallel size (and, from 0.19, for CP above 1), and it raises otherwise:
  // training/training.py@core_v0.17.0:1034-1118, @core_v0.19.0:1332-1337, @d98e8a6:1838-1929.
  ...[
    { since: '0.17.0', before: '0.19.0', cp: false },
    { since: '0.19.0', before: undefined, cp: true },
  ].map(
    (r): ArgCheck => ({
      when: (m) => {
        if (!rl(m) || !argOn(m, 'rl_offload_inference_model_weights_when_idle')) return undefined;
        if (!INFERENCE_SIZES.every((d) => argAbsent(m, d))) return undefined;
        return !r.cp || argAbsent(m, 'context_parallel_size') || (argNum(m, 'context_parallel_size') ?? 2) <= 1 ? 'rl_offload_inference_model_weights_when_idle' : undefined;
      },
      message: () => `\`--rl-offload-inference-model-weights-when-idle\` without a separate inference model (no \`--rl-inference-tensor-model-parallel-size\`, \`--rl-inference-pipeline-model-parallel-size\`, \`--rl-inference-expert-model-parallel-size\` or \`--rl-inference-expert-tensor-model-parallel-size\`${r.cp ? ', and CP 1' : ''}): the inference model shares the training weights, so there is nothing to offload, and Megatron-LM stops when it sets up the model ("--rl-offload-inference-model-weights-when-idle requires a separate inference model."). Give the inference model its own parallel sizes, or drop the flag.`,
      formats: MLM_FLAG_FORMATS,
      since: r.since,
      ...(r.before ? { before: r.before } : {}),
    }),
  ),
];

const INFERENCE_SIZES = ['rl_inference_tensor_model_parallel_size', 'rl_inference_pipeline_model_parallel_size', 'rl_inference_expert_model_parallel_size', 'rl_inference_expert_tensor_model_parallel_size'];

/** A written argument with a value (argparse leaves an absent one None). */
const given = (m: MegatronModel, dest: string) => !argAbsent(m, dest) && argValue(m, dest) !== undefined && argValue(m, dest) !== null;

/**
 * Refusals of older RL flags, gone with the flags: the KV-cache switches of 0.15-0.16
 * (training/arguments.py@core_v0.15.0:389-393, @core_v0.16.0:331-344), the packing bin of 0.15
 * (@core_v0.15.0:414-416) and the parallel-generation counts of 0.17-0.18 (@core_v0.17.0:409-440,
 * @core_v0.18.0:516-547), which 0.19 folded into `--rl-generation-lag`.
 */
const OLDER_CHECKS: ArgCheck[] = [
  {
    // Outside the `--perform-rl-step` block, after the import of torch_memory_saver (its absence stops too).
    when: (m) => (argOn(m, 'rl_offload_kv_cache_during_training') && (argNum(m, 'inference_dynamic_batching_unified_memory_level') ?? 0) > 0 ? 'inference_dynamic_batching_unified_memory_level' : undefined),
    message: () => '`--rl-offload-kv-cache-during-training` with unified memory (`--inference-dynamic-batching-unified-memory-level` above 0): Megatron-LM 0.16 stops at startup ("The KV cache should not be instantiated in unified memory when it is offloaded during training."). Drop one of them.',
    formats: MLM_FLAG_FORMATS,
    since: '0.16.0',
    before: '0.17.0',
  },
  {
    when: (m) => (rl(m) && argOn(m, 'rl_remove_kv_cache_during_training') && argOn(m, 'rl_offload_kv_cache_during_training') ? 'rl_offload_kv_cache_during_training' : undefined),
    message: () => '`--rl-offload-kv-cache-during-training` beside `--rl-remove-kv-cache-during-training`: the KV cache is either moved off the GPU or dropped, and Megatron-LM stops at startup ("Cannot use both remove-kv-cache-during-training and offload-kv-cache-during-training"). Keep one of them.',
    formats: MLM_FLAG_FORMATS,
    since: '0.15.0',
    before: '0.17.0',
  },
  {
    when: (m) => (rl(m) && argOn(m, 'rl_partial_rollouts') && argOn(m, 'rl_remove_kv_cache_during_training') ? 'rl_remove_kv_cache_during_training' : undefined),
    message: () => '`--rl-remove-kv-cache-during-training` with `--rl-partial-rollouts`: partial rollouts resume from the KV cache, and Megatron-LM stops at startup ("Cannot use both partial-rollouts and remove-kv-cache-during-training"). Drop one of them.',
    formats: MLM_FLAG_FORMATS,
    since: '0.15.0',
    before: '0.17.0',
  },
  {
    when: (m) => {
      const bin = argAbsent(m, 'rl_sequence_packing_bin_size') ? 8192 : argNum(m, 'rl_sequence_packing_bin_size');
      const seq = argNum(m, 'seq_length');
      return rl(m) && argOn(m, 'rl_use_sequence_packing') && bin !== undefined && seq !== undefined && seq > bin ? 'seq_length' : undefined;
    },
    message: (m) => `\`--seq-length ${argNum(m, 'seq_length')}\` above the sequence-packing bin (\`--rl-sequence-packing-bin-size\`${argAbsent(m, 'rl_sequence_packing_bin_size') ? ', 8192 by default' : ` ${argNum(m, 'rl_sequence_packing_bin_size')}`}): Megatron-LM 0.15 stops at startup ("rl_sequence_packing_bin_size should be larger than or equal to seq_length"). Raise the bin size to the sequence length.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.15.0',
    before: '0.16.0',
  },
  {
    when: (m) => (rl(m) && given(m, 'rl_num_parallel_generations') && given(m, 'rl_parallel_generation_tasks') ? 'rl_parallel_generation_tasks' : undefined),
    message: () => '`--rl-parallel-generation-tasks` beside `--rl-num-parallel-generations`: the first is the deprecated form of the second, and Megatron-LM stops at startup ("Cannot specify both --rl-num-parallel-generations and --rl-parallel-generation-tasks."). Keep `--rl-num-parallel-generations`.',
    formats: MLM_FLAG_FORMATS,
    since: '0.17.0',
    before: '0.19.0',
  },
  {
    when: (m) => (rl(m) && (given(m, 'rl_num_parallel_generations') || given(m, 'rl_parallel_generation_tasks')) && given(m, 'rl_num_parallel_generation_batches') ? 'rl_num_parallel_generation_batches' : undefined),
    message: () => '`--rl-num-parallel-generation-batches` beside a number of parallel generations: Megatron-LM stops at startup ("--rl-num-parallel-generations and --rl-num-parallel-generation-batches are mutually exclusive."). Keep one of them.',
    formats: MLM_FLAG_FORMATS,
    since: '0.17.0',
    before: '0.19.0',
  },
  {
    when: (m) => (rl(m) && partialOff(m) ? ['rl_num_parallel_generations', 'rl_parallel_generation_tasks', 'rl_num_parallel_generation_batches'].find((d) => given(m, d)) : undefined),
    message: (m) => {
      const batches = !given(m, 'rl_num_parallel_generations') && !given(m, 'rl_parallel_generation_tasks');
      return `Parallel generation (${batches ? '`--rl-num-parallel-generation-batches`' : given(m, 'rl_num_parallel_generations') ? '`--rl-num-parallel-generations`' : '`--rl-parallel-generation-tasks`, carried over to `--rl-num-parallel-generations`'}) without \`--rl-partial-rollouts\`: Megatron-LM 0.17 and 0.18 stop at startup ("--rl-num-parallel-generation${batches ? '-batches' : 's'} requires --rl-partial-rollouts."). Add \`--rl-partial-rollouts\`.`;
    },
    formats: MLM_FLAG_FORMATS,
    since: '0.17.0',
    before: '0.19.0',
  },
  {
    when: (m) => {
      const n = argNum(m, 'rl_num_parallel_generations');
      const group = grpo(m, 'grpo_group_size', 2);
      return rl(m) && n !== undefined && group !== undefined && group > 0 && n % group !== 0 && !given(m, 'rl_parallel_generation_tasks') ? 'rl_num_parallel_generations' : undefined;
    },
    message: (m) => `\`--rl-num-parallel-generations ${argNum(m, 'rl_num_parallel_generations')}\` is not a multiple of the GRPO group size (${grpo(m, 'grpo_group_size', 2)}): Megatron-LM 0.17 and 0.18 stop at startup ("--rl-num-parallel-generations (…) must be divisible by --grpo-group-size (…)."). Use a multiple of the group size.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.17.0',
    before: '0.19.0',
  },
];

/** `--rl-max-inflight-requests` as a known number. */
function inflight(m: MegatronModel): number | undefined {
  const v = argValue(m, 'rl_max_inflight_requests');
  return typeof v === 'number' ? v : typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : undefined;
}

export default defineRule<MegatronModel>({
  id: 'rl-config-invalid',
  severity: 'error',
  formats: MLM_FLAG_FORMATS,
  docs: {
    summary: 'Reinforcement-learning arguments that Megatron-LM rejects together with `--perform-rl-step`: rollouts consumed one by one, groups consumed from whole-batch submissions, a generation lag or finer submission without `--rl-partial-rollouts`, a global batch or save/exit interval that does not fit the GRPO rounds, sequence packing with a micro-batch above 1, CUDA graph or KV-cache offload settings without the graphs they need, or an in-flight request cap that conflicts with the lag or the batch, or optimizer offload in an inference-only run without an optimizer; and the refusals of the KV-cache, packing-bin and parallel-generation flags of older releases.',
    why: 'With `--perform-rl-step`, Megatron-LM\'s argument checks (from Megatron Core 0.19, where these flags appeared) refuse `--rl-consumption-granularity R` ("not currently supported"), `--rl-consumption-granularity G` while the submission granularity is `B` (its default), a `--rl-generation-lag` above 0 without `--rl-partial-rollouts`, and `--rl-submission-granularity R` without it; from 0.20 `G` submission needs it too. From 0.15 the global batch must divide the samples of a GRPO round (prompts per step × group size × GRPO iterations) and `--save-interval`/`--exit-interval` must be multiples of the steps in a round; from 0.16 `--rl-use-sequence-packing` needs `--micro-batch-size 1`; from 0.17 `--rl-persist-cuda-graphs` and `--rl-training-cuda-graphs` need `--cuda-graph-impl`, and `--rl-kv-cache-management-mode offload` needs `--rl-persist-cuda-graphs` and no unified memory; from 0.20 `--rl-max-inflight-requests` excludes `--rl-generation-lag`, must be at least 1, and above one batch needs `--rl-partial-rollouts`, and the lag must be at least -1. From 0.17 an inference-only run (`--skip-train`) with `--no-load-optim` builds no optimizer, so `--rl-offload-optimizer-during-inference` is refused beside them. Older flags had their own refusals: in 0.15 and 0.16 `--rl-offload-kv-cache-during-training` beside `--rl-remove-kv-cache-during-training`, and the latter with `--rl-partial-rollouts`; in 0.16 the offload with unified memory (whether or not `--perform-rl-step` is on); in 0.15 a `--seq-length` above `--rl-sequence-packing-bin-size` (8192 by default) with packing; in 0.17 and 0.18 the parallel-generation counts (`--rl-num-parallel-generations`, its deprecated `--rl-parallel-generation-tasks`, `--rl-num-parallel-generation-batches`) given together or without `--rl-partial-rollouts`, and a number of parallel generations that the GRPO group size does not divide. In 0.16 `--rl-offload-inference-model-weights-when-idle` needs `--rl-inference-model-unified-memory-level 1`, and from 0.17 a separate inference model (an `--rl-inference-*` parallel size, or from 0.19 CP above 1), without which Megatron-LM stops when it sets up the model. Each stops the job at startup, before any GPU work. A `--yaml-cfg` file is not checked this way and is not judged.',
    bad: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --perform-rl-step: true\n  --rl-consumption-granularity: G\n',
    good: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --perform-rl-step: true\n  --rl-partial-rollouts: true\n  --rl-submission-granularity: G\n  --rl-consumption-granularity: G\n',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 train_rl.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64 \\\n    --perform-rl-step --rl-consumption-granularity G\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 train_rl.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64 \\\n    --perform-rl-step --rl-partial-rollouts --rl-submission-granularity G --rl-consumption-granularity G\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.19.0, `validate_args` under `--perform-rl-step`: generation lag, submission and consumption granularity', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.19.0/megatron/training/arguments.py#L526-L541' },
    ],
  },
  check(ctx) {
    runChecks(ctx, CHECKS);
    runChecks(ctx, BATCH_CHECKS);
    runChecks(ctx, OLDER_CHECKS);
  },
});
