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
import { argNum, argWritten, bridgeField, type MegatronModel } from '../../formats/megatron/model';
import type { ArgCheck } from '../../formats/megatron/checks';
import type { RuleContext } from '../rule';

type Ctx = RuleContext<MegatronModel>;

/**
 * An integer the override writes for `dataset.<field>`, read tracked: one written as an
 * interpolation is unknown, and silences the comparison (which spelling wins is then not known).
 */
function written(m: MegatronModel, field: string): number | undefined {
  const v = bridgeField(m, `dataset.${field}`)?.value;
  return typeof v === 'number' && Number.isInteger(v) ? v : undefined;
}

/** The override writes `dataset.<field>`, whatever its value (which class the section is, not its value). */
const has = (m: MegatronModel, field: string): boolean => m.bridgeFields?.has(`dataset.${field}`) ?? false;

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
  const sft = has(m, 'dataset_root');
  const gpt = has(m, 'sequence_length') || has(m, 'blend') || has(m, 'blend_per_split');
  const seq = written(m, 'seq_length');
  const sequence = written(m, 'sequence_length');
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
