/**
 * Megatron Bridge's own refusals of fields an override file writes, made when it validates the
 * config (ConfigContainer.validate and the `finalize()` of each section it calls, in
 * src/megatron/bridge/training/config.py), on fields Bridge alone has (`profiling`,
 * `nvrx_straggler`, `logger`, `checkpoint`). Every input is a value the file writes:
 * a field it leaves out is the recipe's, and nothing is concluded from it. Releases are Bridge's, as
 * the Megatron Core release each Bridge release runs (Bridge 0.N on Megatron Core 0.(N+13)).
 */
import type { MegatronModel } from '../../formats/megatron/model';
import type { Path } from '../../types';
import type { RuleContext } from '../rule';
import { untracked } from '../certain';

type Ctx = RuleContext<MegatronModel>;
export type BridgeGroup = 'checkpoint' | 'logging';

/** What the file writes at `section.field` (nested or dotted), and where; undefined when it does not write it. */
interface Written {
  value: unknown;
  path: Path;
}
type Get = (dotted: string) => Written | undefined;

export interface BridgeFieldCheck {
  group: BridgeGroup;
  /** The field reported on, when the check fails (`section.field`). */
  when(get: Get): string | undefined;
  message(get: Get): string;
  since?: string;
  before?: string;
}

const STOPS = 'Megatron Bridge stops when it validates the config';
const num = (w: Written | undefined): number | undefined => (typeof w?.value === 'number' ? w.value : undefined);
const isTrue = (w: Written | undefined): boolean => w?.value === true;
const isFalse = (w: Written | undefined): boolean => w?.value === false;
const show = (get: Get, f: string): string => JSON.stringify(get(f)?.value);

export const BRIDGE_FIELD_CHECKS: BridgeFieldCheck[] = [
  {
    // ProfilingConfig.finalize at every release (@v0.1.0rc4, @067f987:757-759).
    group: 'logging',
    when: (get) => (isTrue(get('profiling.use_pytorch_profiler')) && isTrue(get('profiling.use_nsys_profiler')) ? 'profiling.use_nsys_profiler' : undefined),
    message: () => `\`profiling.use_pytorch_profiler\` and \`profiling.use_nsys_profiler\` are both on: ${STOPS} ("Exactly one of pytorch or nsys profiler should be enabled, not both…"). Keep one.`,
  },
  ...(['profile_step_start', 'profile_step_end'] as const).map(
    (field): BridgeFieldCheck => ({
      // ProfilingConfig.finalize from v0.2.0 (@067f987:760-761), whether a profiler is on or not.
      group: 'logging',
      when: (get) => ((num(get(`profiling.${field}`)) ?? 0) < 0 ? `profiling.${field}` : undefined),
      message: (get) => `\`profiling.${field}: ${show(get, `profiling.${field}`)}\` is negative: ${STOPS} ("${field} must be >= 0"). Give an iteration number of 0 or more.`,
      since: '0.15.0',
    }),
  ),
  {
    // ProfilingConfig.finalize from v0.2.0 (@067f987:762-764).
    group: 'logging',
    when: (get) => {
      const start = num(get('profiling.profile_step_start'));
      const end = num(get('profiling.profile_step_end'));
      return start !== undefined && end !== undefined && start >= 0 && end >= 0 && end < start ? 'profiling.profile_step_end' : undefined;
    },
    message: (get) => `\`profiling.profile_step_end: ${show(get, 'profiling.profile_step_end')}\` is before \`profiling.profile_step_start: ${show(get, 'profiling.profile_step_start')}\`: ${STOPS} ("profile_step_end (…) must be >= profile_step_start (…)"). Swap them.`,
    since: '0.15.0',
  },
  ...(
    [
      ['report_time_interval', (v: number) => v <= 0, 'report_time_interval must be positive.', 'Give a positive interval in seconds.'],
      ['gpu_relative_perf_threshold', (v: number) => v < 0 || v > 1, 'gpu_relative_perf_threshold must be between 0.0 and 1.0.', 'Give a fraction between 0 and 1.'],
      ['gpu_individual_perf_threshold', (v: number) => v < 0 || v > 1, 'gpu_individual_perf_threshold must be between 0.0 and 1.0.', 'Give a fraction between 0 and 1.'],
    ] as const
  ).map(
    ([field, bad, quote, advice]): BridgeFieldCheck => ({
      // NVRxStragglerDetectionConfig.finalize at every release, when enabled (@v0.1.0rc4, @067f987:883-897).
      group: 'logging',
      when: (get) => {
        const v = num(get(`nvrx_straggler.${field}`));
        return isTrue(get('nvrx_straggler.enabled')) && v !== undefined && bad(v) ? `nvrx_straggler.${field}` : undefined;
      },
      message: (get) => `\`nvrx_straggler.${field}: ${show(get, `nvrx_straggler.${field}`)}\` with straggler detection enabled: ${STOPS} ("${quote}"). ${advice}`,
    }),
  ),
  {
    group: 'logging',
    when: (get) => (isTrue(get('nvrx_straggler.enabled')) && isFalse(get('nvrx_straggler.calc_relative_gpu_perf')) && isFalse(get('nvrx_straggler.calc_individual_gpu_perf')) ? 'nvrx_straggler.enabled' : undefined),
    message: () => `Straggler detection is enabled with both \`nvrx_straggler.calc_relative_gpu_perf\` and \`calc_individual_gpu_perf\` off, so it has nothing to measure: ${STOPS} ("At least one of calc_relative_gpu_perf or calc_individual_gpu_perf must be True…"). Turn one on.`,
  },
  {
    // LoggerConfig.finalize from Bridge 0.3 (@v0.3.0, @067f987:686-687).
    group: 'logging',
    when: (get) => {
      const exp = get('logger.mlflow_experiment')?.value;
      const run = get('logger.mlflow_run_name');
      return typeof exp === 'string' && exp !== '' && run && (run.value === null || run.value === '') ? 'logger.mlflow_run_name' : undefined;
    },
    message: () => `\`logger.mlflow_experiment\` with an empty \`logger.mlflow_run_name\`: ${STOPS} ("Set logger.mlflow_run_name when enabling MLFlow logging."). Name the run.`,
    since: '0.16.0',
  },
  {
    // CheckpointConfig.finalize at every release (@v0.1.0rc4, @067f987:598-599).
    group: 'checkpoint',
    when: (get) => (isTrue(get('checkpoint.load_main_params_from_ckpt')) && isTrue(get('checkpoint.load_optim')) ? 'checkpoint.load_optim' : undefined),
    message: () => `\`checkpoint.load_main_params_from_ckpt\` with \`checkpoint.load_optim: true\`: ${STOPS} ("load_main_params_from_ckpt must be used with load_optim=False"). Set \`load_optim: false\`.`,
  },
  {
    // CheckpointConfig.finalize at every release (@v0.1.0rc4, @067f987:601-602).
    group: 'checkpoint',
    when: (get) => (isTrue(get('checkpoint.async_save')) && get('checkpoint.save')?.value === null ? 'checkpoint.save' : undefined),
    message: () => `\`checkpoint.async_save\` with \`checkpoint.save: null\`: ${STOPS} ("async_save is enabled, but save is not set…"). Give a save directory, or turn \`async_save\` off.`,
  },
  {
    // CheckpointConfig.finalize from v0.2.0 (@067f987:617-622).
    group: 'checkpoint',
    when: (get) => {
      const step = get('checkpoint.ckpt_step');
      return step && step.value !== null && get('checkpoint.load')?.value === null ? 'checkpoint.ckpt_step' : undefined;
    },
    message: () => `\`checkpoint.ckpt_step\` with \`checkpoint.load: null\`: the step picks an iteration of the checkpoint to load, and ${STOPS} ("ckpt_step=… specified but checkpoint.load is None."). Give \`checkpoint.load\`.`,
    since: '0.15.0',
  },
  {
    // CheckpointConfig.finalize from Bridge 0.6 (@v0.6.0, @067f987:604-614).
    group: 'checkpoint',
    when: (get) => (isTrue(get('checkpoint.also_save_hf_checkpoint')) && get('checkpoint.ckpt_format')?.value === 'fsdp_dtensor' ? 'checkpoint.also_save_hf_checkpoint' : undefined),
    message: () => `\`checkpoint.also_save_hf_checkpoint\` with \`checkpoint.ckpt_format: fsdp_dtensor\`: ${STOPS} ("also_save_hf_checkpoint=True is not supported together with ckpt_format='fsdp_dtensor'…"). Use \`ckpt_format: torch_dist\`, or turn the Hugging Face export off.`,
    since: '0.19.0',
  },
  {
    group: 'checkpoint',
    when: (get) => (isTrue(get('checkpoint.also_save_hf_checkpoint')) && get('checkpoint.non_persistent_ckpt_type')?.value === 'local' ? 'checkpoint.also_save_hf_checkpoint' : undefined),
    message: () => `\`checkpoint.also_save_hf_checkpoint\` with \`checkpoint.non_persistent_ckpt_type: local\`: ${STOPS} ("also_save_hf_checkpoint=True is not compatible with local non-persistent checkpoints…"). Use \`non_persistent_ckpt_type: global\`, or turn the Hugging Face export off.`,
    since: '0.19.0',
  },
];

/** Runs the group's checks on a Bridge override, each on its own, reporting at the field the file writes. */
export function runBridgeFieldChecks(ctx: Ctx, group: BridgeGroup, checks: readonly BridgeFieldCheck[] = BRIDGE_FIELD_CHECKS): void {
  if (ctx.format !== 'megatron-bridge') return;
  const doc = untracked(ctx.doc);
  const get: Get = (dotted) => {
    const [section, field] = dotted.split('.');
    for (const path of [[section, field], [dotted]]) {
      const value = doc.value(path);
      if (value !== undefined) return { value, path };
    }
    return undefined;
  };
  for (const c of checks) {
    if (c.group !== group) continue;
    ctx.separately(() => {
      const at = c.when(get);
      if (!at) return;
      if ((c.since && !ctx.atLeast(c.since)) || (c.before && ctx.atLeast(c.before))) return;
      ctx.report({ at: get(at)!.path, message: c.message(get) });
    });
  }
}
