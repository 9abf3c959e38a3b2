/**
 * Megatron Bridge's own refusals of fields an override file writes, made when it validates the
 * config (ConfigContainer.validate and the `finalize()` of each section it calls, in
 * src/megatron/bridge/training/config.py), on fields Bridge alone has (`profiling`,
 * `nvrx_straggler`, `logger`, `checkpoint`). Every input is a value the file writes:
 * a field it leaves out is the recipe's, and nothing is concluded from it; one written as an
 * OmegaConf interpolation is not known here. A field that is a Megatron argument (the schema's
 * `x-bridge`) is read as that argument, the others with `bridgeField`; a check names a field of the
 * second kind by its dotted path. Releases are Bridge's, as the Megatron Core release each Bridge
 * release runs (Bridge 0.N on Megatron Core 0.(N+13)).
 */
import { argNum, argOn, argValue, argWritten, bridgeField, type MegatronModel } from '../../formats/megatron/model';
import type { ArgCheck } from '../../formats/megatron/checks';

const BRIDGE = ['megatron-bridge'] as const;
const STOPS = 'Megatron Bridge stops when it validates the config';
/** A Megatron argument the override writes on. */
const on = (m: MegatronModel, dest: string): boolean => argWritten(m, dest) && argOn(m, dest);
/** A number the override writes for a Megatron argument. */
const num = (m: MegatronModel, dest: string): number | undefined => (argWritten(m, dest) ? argNum(m, dest) : undefined);
/** A Bridge field written with exactly this value (`null` included: Bridge's "is None"). */
const is = (m: MegatronModel, dotted: string, value: unknown): boolean => {
  const f = bridgeField(m, dotted);
  return f !== undefined && f.value === value;
};
/** A number the override writes for a Bridge field. */
const fieldNum = (m: MegatronModel, dotted: string): number | undefined => {
  const v = bridgeField(m, dotted)?.value;
  return typeof v === 'number' ? v : undefined;
};

const PROFILED_STEPS = ['profile_step_start', 'profile_step_end'] as const;
const STRAGGLER_LIMITS = [
  ['report_time_interval', (v: number) => v <= 0, 'report_time_interval must be positive.', 'Give a positive interval in seconds.'],
  ['gpu_relative_perf_threshold', (v: number) => v < 0 || v > 1, 'gpu_relative_perf_threshold must be between 0.0 and 1.0.', 'Give a fraction between 0 and 1.'],
  ['gpu_individual_perf_threshold', (v: number) => v < 0 || v > 1, 'gpu_individual_perf_threshold must be between 0.0 and 1.0.', 'Give a fraction between 0 and 1.'],
] as const;

export const BRIDGE_LOGGING_CHECKS: ArgCheck[] = [
  {
    // ProfilingConfig.finalize at every release (@v0.1.0rc4, @067f987:757-759).
    when: (m) => (on(m, 'use_pytorch_profiler') && is(m, 'profiling.use_nsys_profiler', true) ? 'profiling.use_nsys_profiler' : undefined),
    formats: BRIDGE,
    message: () => `\`profiling.use_pytorch_profiler\` and \`profiling.use_nsys_profiler\` are both on: ${STOPS} ("Exactly one of pytorch or nsys profiler should be enabled, not both…"). Keep one.`,
  },
  ...PROFILED_STEPS.map(
    (field): ArgCheck => ({
      // ProfilingConfig.finalize from v0.2.0 (@067f987:760-761), whether a profiler is on or not.
      when: (m) => ((num(m, field) ?? 0) < 0 ? field : undefined),
      formats: BRIDGE,
      since: '0.15.0',
      message: (m) => `\`profiling.${field}: ${String(argValue(m, field))}\` is negative: ${STOPS} ("${field} must be >= 0"). Give an iteration number of 0 or more.`,
    }),
  ),
  {
    // ProfilingConfig.finalize from v0.2.0 (@067f987:762-764).
    when: (m) => {
      const start = num(m, 'profile_step_start');
      const end = num(m, 'profile_step_end');
      return start !== undefined && end !== undefined && start >= 0 && end >= 0 && end < start ? 'profile_step_end' : undefined;
    },
    formats: BRIDGE,
    since: '0.15.0',
    message: (m) => `\`profiling.profile_step_end: ${String(argValue(m, 'profile_step_end'))}\` is before \`profiling.profile_step_start: ${String(argValue(m, 'profile_step_start'))}\`: ${STOPS} ("profile_step_end (…) must be >= profile_step_start (…)"). Swap them.`,
  },
  ...STRAGGLER_LIMITS.map(
    ([field, bad, quote, advice]): ArgCheck => ({
      // NVRxStragglerDetectionConfig.finalize at every release, when enabled (@v0.1.0rc4, @067f987:883-897).
      when: (m) => {
        const v = fieldNum(m, `nvrx_straggler.${field}`);
        return v !== undefined && bad(v) && is(m, 'nvrx_straggler.enabled', true) ? `nvrx_straggler.${field}` : undefined;
      },
      formats: BRIDGE,
      message: (m) => `\`nvrx_straggler.${field}: ${String(fieldNum(m, `nvrx_straggler.${field}`))}\` with straggler detection enabled: ${STOPS} ("${quote}"). ${advice}`,
    }),
  ),
  {
    when: (m) => (is(m, 'nvrx_straggler.enabled', true) && is(m, 'nvrx_straggler.calc_relative_gpu_perf', false) && is(m, 'nvrx_straggler.calc_individual_gpu_perf', false) ? 'nvrx_straggler.enabled' : undefined),
    formats: BRIDGE,
    message: () => `Straggler detection is enabled with both \`nvrx_straggler.calc_relative_gpu_perf\` and \`calc_individual_gpu_perf\` off, so it has nothing to measure: ${STOPS} ("At least one of calc_relative_gpu_perf or calc_individual_gpu_perf must be True…"). Turn one on.`,
  },
  {
    // LoggerConfig.finalize from Bridge 0.3 (@v0.3.0, @067f987:686-687).
    when: (m) => {
      const exp = bridgeField(m, 'logger.mlflow_experiment')?.value;
      return typeof exp === 'string' && exp !== '' && (is(m, 'logger.mlflow_run_name', null) || is(m, 'logger.mlflow_run_name', '')) ? 'logger.mlflow_run_name' : undefined;
    },
    formats: BRIDGE,
    since: '0.16.0',
    message: () => `\`logger.mlflow_experiment\` with an empty \`logger.mlflow_run_name\`: ${STOPS} ("Set logger.mlflow_run_name when enabling MLFlow logging."). Name the run.`,
  },
];

export const BRIDGE_CHECKPOINT_CHECKS: ArgCheck[] = [
  {
    // CheckpointConfig.finalize at every release (@v0.1.0rc4, @067f987:598-599).
    when: (m) => (on(m, 'load_main_params_from_ckpt') && is(m, 'checkpoint.load_optim', true) ? 'checkpoint.load_optim' : undefined),
    formats: BRIDGE,
    message: () => `\`checkpoint.load_main_params_from_ckpt\` with \`checkpoint.load_optim: true\`: ${STOPS} ("load_main_params_from_ckpt must be used with load_optim=False"). Set \`load_optim: false\`.`,
  },
  {
    // CheckpointConfig.finalize at every release (@v0.1.0rc4, @067f987:601-602).
    when: (m) => (on(m, 'async_save') && is(m, 'checkpoint.save', null) ? 'checkpoint.save' : undefined),
    formats: BRIDGE,
    message: () => `\`checkpoint.async_save\` with \`checkpoint.save: null\`: ${STOPS} ("async_save is enabled, but save is not set…"). Give a save directory, or turn \`async_save\` off.`,
  },
  {
    // CheckpointConfig.finalize from v0.2.0 (@067f987:617-622).
    when: (m) => (argWritten(m, 'ckpt_step') && is(m, 'checkpoint.load', null) ? 'ckpt_step' : undefined),
    formats: BRIDGE,
    since: '0.15.0',
    message: () => `\`checkpoint.ckpt_step\` with \`checkpoint.load: null\`: the step picks an iteration of the checkpoint to load, and ${STOPS} ("ckpt_step=… specified but checkpoint.load is None."). Give \`checkpoint.load\`.`,
  },
  {
    // CheckpointConfig.finalize from Bridge 0.6 (@v0.6.0, @067f987:604-614).
    when: (m) => (is(m, 'checkpoint.also_save_hf_checkpoint', true) && argWritten(m, 'ckpt_format') && argValue(m, 'ckpt_format') === 'fsdp_dtensor' ? 'checkpoint.also_save_hf_checkpoint' : undefined),
    formats: BRIDGE,
    since: '0.19.0',
    message: () => `\`checkpoint.also_save_hf_checkpoint\` with \`checkpoint.ckpt_format: fsdp_dtensor\`: ${STOPS} ("also_save_hf_checkpoint=True is not supported together with ckpt_format='fsdp_dtensor'…"). Use \`ckpt_format: torch_dist\`, or turn the Hugging Face export off.`,
  },
  {
    when: (m) => (is(m, 'checkpoint.also_save_hf_checkpoint', true) && argWritten(m, 'non_persistent_ckpt_type') && argValue(m, 'non_persistent_ckpt_type') === 'local' ? 'checkpoint.also_save_hf_checkpoint' : undefined),
    formats: BRIDGE,
    since: '0.19.0',
    message: () => `\`checkpoint.also_save_hf_checkpoint\` with \`checkpoint.non_persistent_ckpt_type: local\`: ${STOPS} ("also_save_hf_checkpoint=True is not compatible with local non-persistent checkpoints…"). Use \`non_persistent_ckpt_type: global\`, or turn the Hugging Face export off.`,
  },
];
