/**
 * DeepSpeed JSON configs (`ds_config.json`). Detected now so that they are never mistaken for
 * another format; their schema and rules come with the DeepSpeed support.
 */
import type { SourceDoc } from '../../syntax/sourcedoc';
import type { FormatSupport } from '../format';

const KEYS = ['zero_optimization', 'train_batch_size', 'train_micro_batch_size_per_gpu', 'gradient_accumulation_steps', 'zero_allow_untested_optimizer', 'steps_per_print', 'wall_clock_breakdown', 'activation_checkpointing', 'gradient_clipping', 'prescale_gradients', 'communication_data_type'];

export const deepspeedFormat: FormatSupport = {
  id: 'deepspeed',
  title: 'DeepSpeed config',
  toolName: 'DeepSpeed',
  syntaxes: ['json', 'yaml'],
  tool: 'deepspeed',
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
};
