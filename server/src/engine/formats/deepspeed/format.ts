/**
 * DeepSpeed JSON configs (`ds_config.json`): the file `deepspeed.initialize` reads, the one an
 * Accelerate config points at with `deepspeed_config_file`, or that the HF Trainer gets with
 * `--deepspeed`.
 */
import { lazySchema, lazyValidator } from '../../schema/compiled';
import type { JsonSchema } from '../../schema/types';
import type { SourceDoc } from '../../syntax/sourcedoc';
import type { FormatSupport, ModelInput } from '../format';
import { deepspeedModel, type DeepSpeedModel } from './model';
import { deepspeedPlan } from './plan';

/** Sections DeepSpeed reads as mappings. */
const SECTIONS = ['fp16', 'bf16', 'optimizer', 'scheduler', 'zero_optimization'];

const KEYS = ['zero_optimization', 'train_batch_size', 'train_micro_batch_size_per_gpu', 'gradient_accumulation_steps', 'zero_allow_untested_optimizer', 'steps_per_print', 'wall_clock_breakdown', 'activation_checkpointing', 'gradient_clipping', 'prescale_gradients', 'communication_data_type'];

// Loaded when a file first looks like a DeepSpeed config.
const DEEPSPEED_SCHEMA = lazySchema(() => require('../../../../../schemas/deepspeed.schema.json') as JsonSchema);

export const deepspeedFormat: FormatSupport<DeepSpeedModel> = {
  id: 'deepspeed',
  title: 'DeepSpeed config',
  toolName: 'DeepSpeed',
  syntaxes: ['json', 'yaml'],
  tool: 'deepspeed',
  schema: { json: DEEPSPEED_SCHEMA, validate: lazyValidator(() => require('../../schema/generated/deepspeed').validate) },
  /**
   * A DeepSpeed config only on positive evidence: a ZeRO section or a DeepSpeed batch key, or at
   * least two DeepSpeed keys, with most of the file's keys DeepSpeed's own and none that contradict it
   * (`optimizer: adamw_torch`, `bf16: true`: DeepSpeed wants sections there). A training recipe
   * (axolotl, TRL, the HF Trainer) that happens to hold `gradient_accumulation_steps` is not one.
   */
  detect(doc: SourceDoc): number {
    const root = doc.root;
    if (!root || root.kind !== 'map') return 0;
    const keys = new Set(root.entries.map((e) => e.key));
    if (keys.has('distributed_type')) return 0;
    let evidence = KEYS.filter((k) => keys.has(k)).length;
    let contradictions = 0;
    for (const k of SECTIONS) {
      const v = root.entries.find((e) => e.key === k)?.value;
      if (!v) continue;
      if (v.kind === 'map' && v.entries.some((e) => e.key === 'enabled' || e.key === 'type' || e.key === 'params' || e.key === 'stage')) evidence++;
      else if (v.kind !== 'map' && !(v.kind === 'scalar' && v.value === null)) contradictions++;
    }
    if (evidence === 0) return 0;
    const zero = root.entries.find((e) => e.key === 'zero_optimization')?.value.kind === 'map';
    const strong = zero || keys.has('train_micro_batch_size_per_gpu') || keys.has('train_batch_size');
    if (!strong && (evidence < 2 || contradictions > 0)) return 0;
    // Mostly DeepSpeed's own keys: at most one in three unknown to it.
    const known = DEEPSPEED_SCHEMA.properties ?? {};
    const unknown = [...keys].filter((k) => !Object.prototype.hasOwnProperty.call(known, k)).length;
    if (unknown * 2 > keys.size - unknown) return 0;
    return evidence;
  },
  model({ doc, referrers }: ModelInput): DeepSpeedModel {
    const launchers = referrers('accelerate').flatMap(({ path, analysis: { model } }) => (model ? [{ path, distributedType: model.distributedType, numProcesses: model.numProcesses }] : []));
    return deepspeedModel(doc, launchers);
  },
  plan: deepspeedPlan,
};
