/**
 * DeepSpeed JSON configs (`ds_config.json`): the file `deepspeed.initialize` reads, the one an
 * Accelerate config points at with `deepspeed_config_file`, or that the HF Trainer gets with
 * `--deepspeed`.
 */
import { lazySchema, lazyValidator } from '../../schema/compiled';
import type { JsonSchema } from '../../schema/types';
import type { SourceDoc } from '../../syntax/sourcedoc';
import type { Node } from '../../syntax/tree';
import { foreignMarkers, mapKeys, trainerArgumentsContradict, weigh, type Evidence, type EvidenceRules } from '../evidence';
import type { ShellDoc } from '../../syntax/shell';
import type { FormatSupport, ModelInput } from '../format';
import { everyLaunchStartsATrainer } from '../trainer/imports';
import { deepspeedModel, type DeepSpeedModel } from './model';
import { deepspeedPlan } from './plan';

/** Sections DeepSpeed reads as mappings. */
const SECTIONS = ['fp16', 'bf16', 'optimizer', 'scheduler', 'zero_optimization'];
/** Keys of DeepSpeed's that speak for it (two are enough); `zero_optimization` and the batch keys alone are. */
const KEYS = ['zero_optimization', 'train_batch_size', 'train_micro_batch_size_per_gpu', 'gradient_accumulation_steps', 'zero_allow_untested_optimizer', 'steps_per_print', 'wall_clock_breakdown', 'activation_checkpointing', 'gradient_clipping', 'prescale_gradients', 'communication_data_type'];
const DISTINCTIVE = ['train_batch_size', 'train_micro_batch_size_per_gpu'];

/** A section written as DeepSpeed writes it: a mapping with `enabled`, `type`, `params` or `stage`. */
function shaped(value: Node | undefined): boolean {
  return value?.kind === 'map' && value.entries.some((e) => e.key === 'enabled' || e.key === 'type' || e.key === 'params' || e.key === 'stage');
}

// Loaded when a file first looks like a DeepSpeed config.
const DEEPSPEED_SCHEMA = lazySchema(() => require('../../../../../schemas/deepspeed.schema.json') as JsonSchema);

const RULES: EvidenceRules = {
  what: 'a DeepSpeed config',
  owner: 'DeepSpeed',
  where: 'top-level keys',
  distinctive: (k, v) => DISTINCTIVE.includes(k) || (k === 'zero_optimization' && v?.kind === 'map'),
  telling: (k, v) => (KEYS.includes(k) && k !== 'zero_optimization') || (SECTIONS.includes(k) && shaped(v)),
  known: (k) => Object.prototype.hasOwnProperty.call(DEEPSPEED_SCHEMA.properties ?? {}, k),
  several: 2,
  // Unknown keys are ignored by DeepSpeed, but a file of mostly other keys is another program's.
  balance: 'two-thirds',
  spellings: () => Object.keys(DEEPSPEED_SCHEMA.properties ?? {}),
};

/**
 * A DeepSpeed config only on positive evidence (formats/evidence.ts): a ZeRO section or a DeepSpeed
 * batch key, or two DeepSpeed keys (sections written as DeepSpeed writes them), with at most one key
 * in three unknown to DeepSpeed, and nothing of another system (Accelerate's `distributed_type`,
 * Hydra, OmegaConf, Trainer arguments). Without a ZeRO section or a batch key, a section written
 * as a switch or a name (`bf16: true`, `optimizer: adamw_torch`) rules it out: a training recipe
 * (axolotl, TRL, the HF Trainer) that happens to hold `gradient_accumulation_steps` is not one.
 */
/** Where `key` is a setting of DeepSpeed's JSON config (a top-level key or one of `zero_optimization`), if it is one. */
export function deepspeedKeyPath(key: string): string[] | undefined {
  const top = DEEPSPEED_SCHEMA.properties ?? {};
  if (Object.prototype.hasOwnProperty.call(top, key)) return [key];
  const zero = top.zero_optimization?.properties ?? {};
  return Object.prototype.hasOwnProperty.call(zero, key) ? ['zero_optimization', key] : undefined;
}

export function deepspeedEvidence(doc: SourceDoc): Evidence {
  const keys = mapKeys(doc.root);
  const names = keys.map((k) => k.key);
  const markers = foreignMarkers(doc);
  const contradictions = [...markers.hydra, ...markers.interpolation, ...trainerArgumentsContradict(names)];
  if (names.includes('distributed_type')) contradictions.push('`distributed_type` is an Accelerate key');
  const doubts: string[] = [];
  for (const { key, value } of keys) {
    if (SECTIONS.includes(key) && value && value.kind !== 'map' && !(value.kind === 'scalar' && value.value === null)) doubts.push(`\`${key}\` is written as a ${value.kind === 'scalar' && typeof value.value === 'boolean' ? 'switch' : 'value'} where DeepSpeed reads a section`);
  }
  return weigh({ keys, contradictions, doubts }, RULES);
}

export const deepspeedFormat: FormatSupport<DeepSpeedModel> = {
  id: 'deepspeed',
  title: 'DeepSpeed config',
  toolName: 'DeepSpeed',
  syntaxes: ['json', 'yaml'],
  tool: 'deepspeed',
  schema: { json: DEEPSPEED_SCHEMA, validate: lazyValidator(() => require('../../schema/generated/deepspeed').validate) },
  detect: deepspeedEvidence,
  model({ doc, referrers, launchesOf, megatronDeepSpeed }: ModelInput): DeepSpeedModel {
    const base = (p: string) => p.split(/[\\/]/).pop();
    // Launch scripts that start a Trainer with an Accelerate config that names this file (the host
    // hands over the files that launch a referrer too): the program that config starts is a Trainer.
    const starters = referrers('trainer').flatMap(({ path, analysis: { doc: script, model } }) => {
      const config = script.syntax === 'shell' && model?.trainerReads.value ? (script as ShellDoc).accelerateConfig()?.ref : undefined;
      return config ? [{ config: base(config), why: `\`${base(path)}\` starts it with ${model!.program}${model!.trainerReads.from.kind === 'assumed' ? ` (flags of the Trainer's TrainingArguments: ${model!.trainerReads.from.note})` : ''}` }] : [];
    });
    const launchers = referrers('accelerate').flatMap(({ path, analysis: { model } }) => {
      if (!model) return [];
      const started = starters.find((s) => s.config === base(path));
      // Or every script handed here that launches that config starts a program that builds a Trainer.
      const launched = started ? undefined : (model.trainerLaunch() ?? everyLaunchStartsATrainer(launchesOf?.(path) ?? []));
      const program = started ? { trainer: started.why } : launched ? { trainer: launched } : { assumed: `the program \`accelerate launch\` starts with \`${base(path)}\` is not a Transformers Trainer (the Trainer fills its placeholders before Accelerate reads them)` };
      const sp = model.hasSection('parallelism_config') ? model.view.get(['parallelism_config', 'parallelism_config_sp_size']) : undefined;
      const spSize: number | 'unknown' = sp === undefined || sp === null ? 1 : typeof sp === 'number' ? sp : 'unknown';
      return [{ path, distributedType: model.distributedType, numProcesses: model.numProcesses, program, spSize }];
    });
    const trainers = referrers('trainer').flatMap(({ path, analysis: { model } }) => (model?.deepspeed ? [{ path }] : []));
    const m = deepspeedModel(doc, launchers, trainers);
    const mds = launchers.length || trainers.length ? undefined : megatronDeepSpeed?.();
    if (mds?.all) m.ownOptimizer = `\`${base(mds.path)}\` runs Megatron-DeepSpeed, which loads this file with json.load and passes deepspeed.initialize its own optimizer and learning-rate scheduler`;
    return m;
  },
  plan: deepspeedPlan,
};
