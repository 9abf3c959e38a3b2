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

const KEYS = ['zero_optimization', 'train_batch_size', 'train_micro_batch_size_per_gpu', 'gradient_accumulation_steps', 'zero_allow_untested_optimizer', 'steps_per_print', 'wall_clock_breakdown', 'activation_checkpointing', 'gradient_clipping', 'prescale_gradients', 'communication_data_type'];

export const deepspeedFormat: FormatSupport<DeepSpeedModel> = {
  id: 'deepspeed',
  title: 'DeepSpeed config',
  toolName: 'DeepSpeed',
  syntaxes: ['json', 'yaml'],
  tool: 'deepspeed',
  // Loaded when a DeepSpeed file is first seen.
  schema: { json: lazySchema(() => require('../../../../../schemas/deepspeed.schema.json') as JsonSchema), validate: lazyValidator(() => require('../../schema/generated/deepspeed').validate) },
  detect(doc: SourceDoc): number {
    const root = doc.root;
    if (!root || root.kind !== 'map') return 0;
    const keys = new Set(root.entries.map((e) => e.key));
    if (keys.has('distributed_type')) return 0;
    let score = KEYS.filter((k) => keys.has(k)).length;
    for (const k of ['fp16', 'bf16', 'optimizer', 'scheduler']) {
      const v = root.entries.find((e) => e.key === k)?.value;
      if (v?.kind === 'map' && v.entries.some((e) => e.key === 'enabled' || e.key === 'type' || e.key === 'params')) score++;
    }
    return score;
  },
  model({ doc, referrers }: ModelInput): DeepSpeedModel {
    return deepspeedModel(doc, referrers('accelerate'));
  },
  plan: deepspeedPlan,
};
