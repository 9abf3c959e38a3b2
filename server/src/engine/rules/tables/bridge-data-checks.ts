/**
 * Megatron Bridge's own checks of an override file's `dataset` section against the model, made by
 * ConfigContainer.validate (src/megatron/bridge/training/config.py) before training.
 *
 * The sequence length is written twice in a Bridge config, `model.seq_length` and the dataset's, and
 * validate() asserts they are equal ("Please ensure sequence length configuration in model config
 * and dataset config match.") at every release (@v0.1.0rc4:1076-1087, @v0.4.2, @067f987:1628-1648),
 * but only for its own dataset configs:
 *   - v0.1: any dataset (a fine-tuning config's `seq_length`, otherwise `sequence_length`);
 *   - v0.2 to v0.5: GPTDatasetConfig (`sequence_length`; `seq_length` is its other name from v0.3,
 *     Megatron Core 0.16) and FinetuningDatasetConfig (`seq_length`);
 *   - Bridge 0.6 on: GPTDatasetConfig, GPTSFTDatasetConfig (FinetuningDatasetConfig's base), the direct
 *     Hugging Face SFT, Energon and mock VLM SFT configs.
 * Which class the `dataset` section is belongs to the recipe the file is merged onto. A field only
 * those configs have (the blend, a fine-tuning `dataset_root`, the GPT dataset's `sequence_length`)
 * settles it; otherwise the finding is a warning that names the assumption.
 */
import { argNum, argWritten, type MegatronModel } from '../../formats/megatron/model';
import type { ArgCheck } from '../../formats/megatron/checks';
import type { RuleContext } from '../rule';
import { untracked } from '../certain';

type Ctx = RuleContext<MegatronModel>;

/** A number the file writes at this path of the override (nested or dotted spelling), untracked. */
function written(ctx: Ctx, section: string, field: string): number | undefined {
  const doc = untracked(ctx.doc);
  const v = doc.value([section, field]) ?? doc.value([`${section}.${field}`]);
  return typeof v === 'number' && Number.isInteger(v) ? v : undefined;
}

function has(ctx: Ctx, section: string, field: string): boolean {
  const doc = untracked(ctx.doc);
  return doc.value([section, field]) !== undefined || doc.value([`${section}.${field}`]) !== undefined;
}

interface Mismatch {
  model: number;
  data: number;
  /** The dataset field compared (`seq_length` or `sequence_length`). */
  field: string;
  /** The section's fields show it is one of Bridge's own dataset configs. */
  known: boolean;
}

/** The mismatch validate() stops on, when the file writes both lengths; undefined otherwise. */
function mismatch(m: MegatronModel, ctx: Ctx): Mismatch | undefined {
  if (!argWritten(m, 'seq_length')) return undefined;
  const model = argNum(m, 'seq_length');
  if (model === undefined) return undefined;
  const sft = has(ctx, 'dataset', 'dataset_root');
  const gpt = has(ctx, 'dataset', 'sequence_length') || has(ctx, 'dataset', 'blend') || has(ctx, 'dataset', 'blend_per_split');
  const seq = written(ctx, 'dataset', 'seq_length');
  const sequence = written(ctx, 'dataset', 'sequence_length');
  // Before Bridge 0.3 (Megatron Core 0.16) the GPT dataset config has only `sequence_length`, and a
  // fine-tuning config only `seq_length`: a spelling is compared only for the class that has it.
  const alias = ctx.atLeast('0.16.0');
  let data: number | undefined;
  let field = 'seq_length';
  if (seq !== undefined && (alias || sft)) data = seq;
  else if (sequence !== undefined && !sft) {
    data = sequence;
    field = 'sequence_length';
  }
  if (data === undefined || data === model) return undefined;
  return { model, data, field, known: sft || gpt };
}

const message = (x: Mismatch, assumed: boolean): string =>
  `\`model.seq_length: ${x.model}\` and \`dataset.${x.field}: ${x.data}\` differ: the model's positions and the samples the data loader cuts must be the same length, and Megatron Bridge stops when it validates the config ("Please ensure sequence length configuration in model config and dataset config match.")${assumed ? ' when the recipe\'s dataset is one of its own GPT or fine-tuning dataset configs, as in its GPT pretraining and fine-tuning recipes (a custom dataset provider is not checked)' : ''}. Give both the same length.`;

/** The mismatch `when` found, for the message (which is not given the context). */
const FOUND = new WeakMap<MegatronModel, Mismatch>();
function found(m: MegatronModel, ctx: Ctx, known: boolean): string | undefined {
  const x = mismatch(m, ctx);
  if (!x || x.known !== known) return undefined;
  FOUND.set(m, x);
  return 'seq_length';
}

export const BRIDGE_DATA_CHECKS: ArgCheck[] = [
  {
    when: (m, _p, ctx) => found(m, ctx, true),
    formats: ['megatron-bridge'],
    message: (m) => message(FOUND.get(m)!, false),
  },
  {
    when: (m, _p, ctx) => found(m, ctx, false),
    formats: ['megatron-bridge'],
    severity: 'warning',
    message: (m) => message(FOUND.get(m)!, true),
  },
];
