/**
 * Hugging Face Accelerate config files (`accelerate launch --config_file`), YAML or JSON.
 */
import schemaJson from '../../../../../schemas/accelerate.schema.json';
import { validate } from '../../schema/generated/accelerate';
import type { JsonSchema } from '../../schema/types';
import type { InstanceView } from '../../schema/view';
import type { Path } from '../../types';
import type { SourceDoc } from '../../syntax/sourcedoc';
import { foreignMarkers, mapKeys, named, trainerArgumentsContradict, weigh, type Evidence, type EvidenceRules } from '../evidence';
import type { FormatSupport, LaunchCommand, ModelInput } from '../format';
import { everyLaunchStartsATrainer } from '../trainer/imports';
import type { AccelerateModel } from './model';
import { compareVersions } from '../../version';
import { since } from '../../schema/vocabulary';
import { acceleratePlan } from './plan';
import { launchSpellings } from './helpers';

export const ACCELERATE_SCHEMA = schemaJson as unknown as JsonSchema;

/** Keys only an Accelerate config has at its top level: one of them is evidence enough. */
const DISTINCTIVE = new Set(['distributed_type', 'compute_environment', 'main_training_function', 'downcast_bf16', 'deepspeed_config', 'megatron_lm_config', 'parallelism_config', 'fp8_config', 'dynamo_config', 'mpirun_config', 'ipex_config', 'ec2_instance_type', 'tpu_use_cluster', 'tpu_use_sudo']);
/** Keys Accelerate reads that many other files have too: they count for the balance, not as evidence. */
const GENERIC = new Set(['debug', 'use_cpu', 'fp16', 'gpu_ids', 'commands', 'command_file', 'profile', 'region', 'base_job_name', 'py_version']);
/** Top-level keys of a DeepSpeed config: without `distributed_type` the file is not an Accelerate config. */
const DEEPSPEED = ['zero_optimization', 'train_micro_batch_size_per_gpu', 'train_batch_size', 'optimizer', 'scheduler', 'gradient_accumulation_steps', 'bf16'];

let known: Set<string> | undefined;
function knownKeys(): Set<string> {
  return (known ??= new Set(Object.keys({ ...ACCELERATE_SCHEMA.definitions?.cluster?.properties, ...ACCELERATE_SCHEMA.definitions?.sagemaker?.properties })));
}

let everyKey: string[] | undefined;
/** The keys of an Accelerate config, top-level and in its sections (`fsdp_offload_params`; not the plain words, `backend`). */
function everyAccelerateKey(): string[] {
  const nested = Object.values(ACCELERATE_SCHEMA.definitions ?? {}).flatMap((d) => Object.keys(d.properties ?? {}).filter((k) => k.includes('_')));
  return (everyKey ??= [...new Set([...knownKeys(), ...nested])]);
}

const RULES: EvidenceRules = {
  what: 'an Accelerate config',
  owner: 'Accelerate',
  where: 'top-level keys',
  distinctive: (k) => DISTINCTIVE.has(k),
  telling: (k) => knownKeys().has(k) && !GENERIC.has(k),
  known: (k) => knownKeys().has(k),
  several: 2,
  // accelerate refuses a config with a top-level key it does not know.
  balance: 'most',
  spellings: everyAccelerateKey,
};

/**
 * An Accelerate config on positive evidence (formats/evidence.ts): an Accelerate key of its own or
 * two that it reads, most top-level keys its own, and nothing of another system: Hydra and
 * OmegaConf, the Transformers Trainer's arguments or its FSDP JSON (`fsdp` + `fsdp_config`),
 * DeepSpeed's own keys without `distributed_type`.
 */
export function accelerateEvidence(doc: SourceDoc): Evidence {
  const root = doc.root;
  const keys = mapKeys(root);
  const names = keys.map((k) => k.key);
  const has = (k: string) => names.includes(k);
  const markers = foreignMarkers(doc);
  const contradictions = [...markers.hydra, ...markers.interpolation, ...trainerArgumentsContradict(names)];
  if (has('fsdp') && has('fsdp_config') && !has('distributed_type')) contradictions.push('`fsdp` with `fsdp_config` and no `distributed_type` is the Transformers Trainer\'s FSDP setting');
  const ds = DEEPSPEED.filter(has);
  if (ds.length && !has('distributed_type')) contradictions.push(`${named(ds)} ${ds.length === 1 ? 'is a DeepSpeed key' : 'are DeepSpeed keys'}, and there is no \`distributed_type\``);
  return weigh({ keys, contradictions }, RULES);
}

export { MULTI_DEVICE } from './helpers';

function deepspeedFileOf(view: InstanceView, link: ModelInput['link']): AccelerateModel['deepspeedFile'] {
  const ref = view.str(['deepspeed_config', 'deepspeed_config_file']);
  if (view.str(['distributed_type']) !== 'DEEPSPEED' || !ref || !ref.trim()) return undefined;
  const at = view.source(['deepspeed_config', 'deepspeed_config_file']) ?? ['deepspeed_config', 'deepspeed_config_file'];
  const linked = link(ref.trim(), 'deepspeed');
  const lower = ref.trim().toLowerCase();
  const lowered = linked?.text !== undefined && lower !== ref.trim() ? link(lower, 'deepspeed') : undefined;
  return { ref: ref.trim(), at, linked, model: linked?.analysis?.model, ...(lowered ? { lowered } : {}) };
}

/** The launch passes `--option` (accelerate takes `--num-processes` for `--num_processes`). */
const passes = (l: LaunchCommand, option: string): boolean => launchSpellings(option).some((o) => l.args.has(o));

/** What the known `accelerate launch` commands of this config pass for `--key`, or the assumption that they pass nothing. */
function commandLine(launches: readonly LaunchCommand[], key: string): { passed: boolean; via?: string; assumed?: string } {
  if (!launches.length) return { passed: false, assumed: `the \`accelerate launch\` command passes no \`--${key}\` (a command-line option overrides the file)` };
  const names = (ls: readonly LaunchCommand[]) => ls.map((l) => `\`${l.path.split(/[\\/]/).pop()}\``).join(', ');
  const passing = launches.filter((l) => passes(l, key));
  if (passing.length) return { passed: true, via: names(passing) };
  // A command with words not known here (`$EXTRA_ARGS`) may pass it: still an assumption.
  const open = launches.find((l) => l.open);
  if (open) return { passed: false, assumed: `${names([open])} passes no \`--${key}\` ${open.open}` };
  return { passed: false, via: names(launches) };
}

/**
 * The `accelerate launch` option that stands for a key of the file: a top-level key by its name, a
 * key of a section by the name the launcher copies it to (`fsdp_config.version` is `--fsdp_version`),
 * as commands/launch.py copies the file's values onto the options the command line did not set.
 * The compute environment and the distributed type are read when the file loads, whatever the
 * command line says; other sections are not copied that way.
 */
function launchOption(path: Path): string | undefined {
  const [first, key] = path;
  if (typeof first !== 'string') return undefined;
  if (path.length === 1) return first === 'compute_environment' || first === 'distributed_type' ? undefined : first;
  if (path.length !== 2 || typeof key !== 'string') return undefined;
  const prefix: Record<string, string> = { deepspeed_config: '', megatron_lm_config: '', fsdp_config: 'fsdp_', fp8_config: 'fp8_', dynamo_config: 'dynamo_' };
  const p = prefix[first];
  if (p === undefined) return undefined;
  return !p || key.startsWith(p) ? key : p + key;
}

/** The known launches all pass `--option`: the scripts, in words; undefined when one does not, or none is known. */
function everyLaunchPasses(launches: readonly LaunchCommand[], option: string): string | undefined {
  if (!launches.length) return undefined;
  if (!launches.every((l) => passes(l, option))) return undefined;
  return launches.map((l) => `\`${l.path.split(/[\\/]/).pop()}\``).join(', ');
}

/**
 * The oldest release that loads the file: every top-level key must be one the release has, since
 * the config loader refuses unknown top-level keys (commands/config/config_args.py, `extra_keys`),
 * so an older release stops on the file anyway.
 */
function releaseFloor(doc: SourceDoc): string | undefined {
  const root = doc.root;
  if (root?.kind !== 'map') return undefined;
  const sagemaker = root.entries.some((e) => e.key === 'compute_environment' && e.value?.kind === 'scalar' && e.value.value === 'AMAZON_SAGEMAKER');
  const props = ACCELERATE_SCHEMA.definitions?.[sagemaker ? 'sagemaker' : 'cluster']?.properties ?? {};
  let floor: string | undefined;
  for (const e of root.entries) {
    const arrived = since(props[e.key]);
    if (arrived && (!floor || compareVersions(arrived, floor) > 0)) floor = arrived;
  }
  return floor;
}

export const accelerateFormat: FormatSupport<AccelerateModel> = {
  id: 'accelerate',
  title: 'Accelerate config',
  toolName: 'accelerate',
  syntaxes: ['yaml', 'json'],
  tool: 'accelerate',
  schema: { json: ACCELERATE_SCHEMA, validate },
  detect: accelerateEvidence,
  model({ view, link, launches }: ModelInput): AccelerateModel {
    const sagemaker = view.get(['compute_environment']) === 'AMAZON_SAGEMAKER';
    const types = ACCELERATE_SCHEMA.definitions?.[sagemaker ? 'sagemaker' : 'cluster']?.properties?.distributed_type?.enum ?? [];
    const dt = view.str(['distributed_type']);
    const fsdpVersion = Number(view.get(['fsdp_config', 'fsdp_version']) ?? 1);
    return {
      view,
      sagemaker,
      distributedType: dt !== undefined && types.includes(dt) ? dt : undefined,
      fsdpVersion: Number.isFinite(fsdpVersion) ? fsdpVersion : 1,
      numProcesses: view.num(['num_processes']),
      numMachines: view.num(['num_machines']) ?? 1,
      machineRank: view.num(['machine_rank']) ?? 0,
      // The loader reads the old `fp16: true` as `mixed_precision: fp16` when that key is absent (config_args.py process_config).
      mixedPrecision: view.str(['mixed_precision']) ?? (view.has(['mixed_precision']) ? undefined : legacyFp16(view.get(['fp16']))),
      commandLine: (key) => commandLine(launches?.() ?? [], key),
      // On SageMaker the file's values are handed to the job as they are.
      overriddenBy: (path) => {
        const option = sagemaker ? undefined : launchOption(path);
        return option ? everyLaunchPasses(launches?.() ?? [], option) : undefined;
      },
      hasSection: (section) => view.keys([section]).length > 0,
      deepspeedFile: deepspeedFileOf(view, link),
      trainerLaunch: () => everyLaunchStartsATrainer(launches?.() ?? []),
    };
  },
  overridden: (m: AccelerateModel, path: Path) => m.overriddenBy(path),
  releaseFloor,
  links(m: AccelerateModel) {
    const f = m.deepspeedFile;
    return f ? [{ ref: f.ref, at: f.at, target: f.linked?.text !== undefined ? f.linked.path : undefined }] : [];
  },
  plan: acceleratePlan,
};

/** The precision the old top-level `fp16` key stands for: `fp16` when its value is true to Python (config_args.py@v1.14.0:113-114). */
function legacyFp16(v: unknown): string | undefined {
  return v !== undefined && v !== null && v !== false && v !== 0 && v !== '' ? 'fp16' : undefined;
}
