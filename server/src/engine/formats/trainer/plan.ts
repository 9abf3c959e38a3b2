/**
 * The Plan of a fine-tuning recipe that names a DeepSpeed JSON: plain data parallelism over the
 * launcher's processes with ZeRO from the JSON, the micro batch and accumulation as the Trainer
 * fills them (the JSON's explicit values, else the recipe's), the precision, and the model when the
 * recipe names a known one and trains all of its weights.
 */
import type { Field, Plan } from '../../plan/plan';
import { derived } from '../../plan/plan';
import type { ModelShape, Precision } from '../../plan/memory';
import { modelPreset } from '../../plan/models';
import type { EngineSettings } from '../../settings';
import { deepspeedPlan } from '../deepspeed/plan';
import type { TrainerModel, TrainerValue } from './model';

/** Hub names of the models the presets describe (the base and instruct checkpoints share a shape). */
const HUB_PRESETS: [RegExp, string][] = [
  [/^meta-llama\/(meta-)?llama-3(\.1)?-8b(-instruct)?$/i, 'llama-3-8b'],
  [/^meta-llama\/(meta-)?llama-3(\.1|\.3)?-70b(-instruct)?$/i, 'llama-3-70b'],
  [/^meta-llama\/llama-3\.2-1b(-instruct)?$/i, 'llama-3.2-1b'],
  [/^meta-llama\/llama-3\.2-3b(-instruct)?$/i, 'llama-3.2-3b'],
  [/^qwen\/qwen2\.5-7b(-instruct)?$/i, 'qwen2.5-7b'],
  [/^qwen\/qwen2\.5-72b(-instruct)?$/i, 'qwen2.5-72b'],
  [/^mistralai\/mixtral-8x7b(-instruct)?-v0\.1$/i, 'mixtral-8x7b'],
];

/** Keys that say only adapters are trained (LoRA, QLoRA), so the full-training memory model does not apply. */
function adapters(m: TrainerModel): string | undefined {
  const root = m.doc.root;
  if (root?.kind !== 'map') return undefined;
  const get = (k: string) => root.entries.find((e) => e.key === k)?.value;
  const val = (k: string) => {
    const n = get(k);
    return n?.kind === 'scalar' ? n.value : n ? 'set' : undefined;
  };
  const ft = val('finetuning_type');
  if (ft !== undefined && ft !== 'full') return `\`finetuning_type: ${String(ft)}\``;
  if (val('adapter')) return `\`adapter: ${String(val('adapter'))}\``;
  if (val('use_peft') === true || val('--use_peft') === true) return '`use_peft`';
  if (root.entries.some((e) => /^(--)?lora_/.test(e.key))) return 'LoRA settings';
  return undefined;
}

/** The model the recipe trains, when it names a preset's checkpoint and trains every weight. */
function recipeModel(m: TrainerModel, plan: Plan): Field<ModelShape> | undefined {
  if (plan.model) return plan.model;
  for (const key of ['model_name_or_path', 'base_model', '--model_name_or_path']) {
    const n = m.doc.node([key]);
    if (n?.kind !== 'scalar' || typeof n.value !== 'string' || n.unknown) continue;
    const id = HUB_PRESETS.find(([re]) => re.test(n.value as string))?.[1];
    const preset = id ? modelPreset(id) : undefined;
    if (!preset || adapters(m)) return undefined;
    return { value: preset.shape, from: { kind: 'derived', formula: `\`${key}: ${n.value}\` has the shape of the preset \`${preset.id}\` (${preset.title})` } };
  }
  return undefined;
}

/** The sequence length the recipe trains at: LLaMA-Factory's `cutoff_len`, axolotl's `sequence_len`, TRL's `max_length`/`max_seq_length`, a script's `--model_max_length`. */
const SEQ_KEYS = ['cutoff_len', 'sequence_len', 'max_seq_length', 'max_length', 'model_max_length'];

function seqLength(m: TrainerModel): Field<number> | undefined {
  const root = m.doc.root;
  if (root?.kind !== 'map') return undefined;
  for (const e of root.entries) {
    const key = e.key.replace(/^--/, '');
    const v = e.value;
    if (!SEQ_KEYS.includes(key) || v.kind !== 'scalar' || v.unknown || typeof v.value !== 'number' || !Number.isInteger(v.value) || v.value < 1) continue;
    return { value: v.value, from: v.assumed ? { kind: 'assumed', note: v.assumed, path: [e.key] } : { kind: 'written', path: [e.key] } };
  }
  return undefined;
}

/** `gradient_checkpointing` on (a recipe key, a flag): every layer's activations are recomputed. */
function checkpointing(m: TrainerModel): Field<'none' | 'selective' | 'full'> | undefined {
  const root = m.doc.root;
  if (root?.kind !== 'map') return undefined;
  const e = root.entries.find((x) => x.key.replace(/^--/, '') === 'gradient_checkpointing');
  const v = e?.value;
  if (!e || v?.kind !== 'scalar' || v.unknown) return undefined;
  const on = v.value === true || (typeof v.value === 'string' && /^(true|yes|1)$/i.test(v.value));
  return on ? { value: 'full', from: { kind: 'written', path: [e.key] } } : undefined;
}

function asField(v: TrainerValue): Field<number> | undefined {
  return typeof v.value === 'number' && Number.isInteger(v.value) && v.value >= 1 && v.from.kind !== 'unknown' ? { value: v.value, from: v.from } : undefined;
}

/**
 * The precision that runs: the JSON's when it writes it; else the recipe's, which the Trainer fills
 * into `"auto"` and Accelerate's DeepSpeedPlugin adds when the JSON has no section (set_mixed_precision).
 */
function precision(m: TrainerModel, plan: Plan): Field<Precision> {
  if (plan.precision.from.kind === 'written') return plan.precision;
  const bf = m.arg('bf16');
  const fp = m.arg('fp16');
  if (bf.value === true) return { value: 'bf16', from: bf.from };
  if (fp.value === true) return { value: 'fp16', from: fp.from };
  if (bf.value === false && fp.value === false) return { value: 'fp32', from: { kind: 'derived', formula: 'neither `bf16` nor `fp16` is on in the recipe' } };
  return plan.precision;
}

export function trainerPlan(m: TrainerModel, settings: EngineSettings): Plan | undefined {
  const json = m.deepspeed?.model;
  if (!json) return undefined;
  // DP and the ZeRO group over the launcher's processes, as for the JSON under any launcher (AutoTP and Ulysses SP divide it).
  const plan = deepspeedPlan(json, settings, m.world);
  plan.runtime = `the Transformers Trainer with DeepSpeed (${m.deepspeed!.ref})`;
  plan.notes = [];
  const world = plan.world;
  if (!plan.microBatch) plan.microBatch = asField(m.arg('per_device_train_batch_size'));
  if (!plan.gradAccum) plan.gradAccum = asField(m.arg('gradient_accumulation_steps'));
  plan.precision = precision(m, plan);
  plan.model = recipeModel(m, plan);
  plan.seqLength ??= seqLength(m);
  const ckpt = checkpointing(m);
  if (ckpt) plan.recompute = ckpt;
  if (world) {
    const dp = plan.dp;
    if (!plan.globalBatch && dp && plan.microBatch && plan.gradAccum) {
      const g = dp.value * plan.microBatch.value * plan.gradAccum.value;
      plan.globalBatch = derived(g, `global batch = DP ${dp.value} × micro batch ${plan.microBatch.value} × accumulation ${plan.gradAccum.value}`, [dp, plan.microBatch, plan.gradAccum]);
    }
  } else plan.notes.push('The world size comes from the launcher (torchrun `--nproc_per_node`, `deepspeed --num_gpus`, `NPROC_PER_NODE`…), which this file does not show: set `world_size: <n>` in .shardwise.yaml or `# shardwise: world_size=<n>` here.');
  const adapted = adapters(m);
  if (adapted) plan.notes.push(`${adapted}: only adapter weights are trained, so no full-training memory estimate is made.`);
  return plan;
}
