/**
 * What the Transformers Trainer does with the DeepSpeed JSON it is given, by release: the keys its
 * `HfTrainerDeepSpeedConfig.trainer_config_process` fills when they are `"auto"` and compares with
 * the TrainingArguments when they are not (src/transformers/deepspeed.py@v4.30.0:133-190,
 * src/transformers/integrations/deepspeed.py@v4.57.6:133-205, the same in the 5.18.0 wheel). Every
 * mismatch is collected and raised together, as one ValueError ("Please correct the following
 * DeepSpeed config values that mismatch TrainingArguments values"), in `trainer_config_finalize`
 * when training starts (v4.57.6:269-274). Pure data.
 */

/** The oldest Transformers release these facts were read at; older ones are not judged. */
export const TRANSFORMERS_OLDEST = '4.30.0';

/** The Trainer's reading of one TrainingArguments field: its default (undefined: the recipe's program decides it). */
export interface TrainerField {
  kind: 'int' | 'float' | 'bool';
  /** TrainingArguments' own default, when no recipe framework is known to change it. */
  default?: number | boolean;
  /** No program that reads recipes changes this default: an unset field has it (else it is an assumption). */
  fixed?: boolean;
}

/** A value as Python prints it (`True`, `[0.9, 0.95]`, `1e-05`), a float field's whole number as `1.0`. */
export function pyShown(v: unknown, float = false): string {
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (Array.isArray(v)) return `[${v.map((x) => pyShown(x, float)).join(', ')}]`;
  if (typeof v === 'number') {
    if (Number.isInteger(v)) return float ? `${v}.0` : String(v);
    if (Math.abs(v) >= 1e-4) return String(v);
    return v.toExponential().replace(/e-(\d)$/, 'e-0$1');
  }
  return String(v);
}

/** A field's default as Python prints it (`1.0` for a float, `False`, `1e-08`). */
export function shownDefault(f: TrainerField): string {
  return pyShown(f.default, f.kind === 'float');
}

export const FIELDS: Record<string, TrainerField> = {
  per_device_train_batch_size: { kind: 'int', default: 8 },
  gradient_accumulation_steps: { kind: 'int', default: 1 },
  max_grad_norm: { kind: 'float', default: 1.0 },
  // TRL's configs change the learning rate's default (SFTConfig 2e-5, DPOConfig 1e-6): not assumed.
  learning_rate: { kind: 'float' },
  adam_beta1: { kind: 'float', default: 0.9 },
  adam_beta2: { kind: 'float', default: 0.999 },
  adam_epsilon: { kind: 'float', default: 1e-8 },
  weight_decay: { kind: 'float', default: 0 },
  fp16: { kind: 'bool', default: false, fixed: true },
  // TRL flips bf16's default to `not fp16` (trl/trainer/sft_config.py@v0.24.0:261): not assumed.
  bf16: { kind: 'bool' },
  fp16_full_eval: { kind: 'bool', default: false, fixed: true },
  bf16_full_eval: { kind: 'bool', default: false, fixed: true },
  save_only_model: { kind: 'bool', default: false, fixed: true },
  load_best_model_at_end: { kind: 'bool', default: false, fixed: true },
  auto_find_batch_size: { kind: 'bool', default: false, fixed: true },
};

/** One DeepSpeed key the Trainer fills and compares, and the TrainingArguments value it is held to. */
export interface Compared {
  /** The key's path in the DeepSpeed JSON (dotted, as the Trainer's message writes it). */
  key: string[];
  /** The TrainingArguments fields the value is computed from. */
  fields: string[];
  /** How the Trainer's message names the value ("hf per_device_train_batch_size"). */
  label: string;
  /** The value the Trainer compares with, from the fields' values (undefined: not computable). */
  value(v: Record<string, number | boolean>, world?: number): number | boolean | number[] | undefined;
  /** How the Trainer's own message names it, when `label` says more. */
  said?: string;
  /** Needs the world size (the launcher's process count). */
  world?: boolean;
}

const num = (x: number | boolean | undefined): number | undefined => (typeof x === 'number' ? x : undefined);

/** v4.57.6:139-197 (v4.30.0:119-180; wheel 5.18.0:139-181): the keys compared at TrainingArguments creation. */
export const COMPARED: readonly Compared[] = [
  { key: ['train_micro_batch_size_per_gpu'], fields: ['per_device_train_batch_size'], label: 'per_device_train_batch_size', value: (v) => num(v.per_device_train_batch_size) },
  { key: ['gradient_accumulation_steps'], fields: ['gradient_accumulation_steps'], label: 'gradient_accumulation_steps', value: (v) => num(v.gradient_accumulation_steps) },
  {
    key: ['train_batch_size'],
    fields: ['per_device_train_batch_size', 'gradient_accumulation_steps'],
    label: 'world size × per_device_train_batch_size × gradient_accumulation_steps',
    said: 'train_batch_size (calculated)',
    world: true,
    value: (v, world) => {
      const m = num(v.per_device_train_batch_size);
      const g = num(v.gradient_accumulation_steps);
      return world !== undefined && m !== undefined && g !== undefined ? world * m * g : undefined;
    },
  },
  { key: ['gradient_clipping'], fields: ['max_grad_norm'], label: 'max_grad_norm', value: (v) => num(v.max_grad_norm) },
  { key: ['optimizer', 'params', 'lr'], fields: ['learning_rate'], label: 'learning_rate', value: (v) => num(v.learning_rate) },
  {
    key: ['optimizer', 'params', 'betas'],
    fields: ['adam_beta1', 'adam_beta2'],
    label: 'adam_beta1+adam_beta2',
    value: (v) => (num(v.adam_beta1) !== undefined && num(v.adam_beta2) !== undefined ? [num(v.adam_beta1)!, num(v.adam_beta2)!] : undefined),
  },
  { key: ['optimizer', 'params', 'eps'], fields: ['adam_epsilon'], label: 'adam_epsilon', value: (v) => num(v.adam_epsilon) },
  { key: ['optimizer', 'params', 'weight_decay'], fields: ['weight_decay'], label: 'weight_decay', value: (v) => num(v.weight_decay) },
  { key: ['scheduler', 'params', 'warmup_max_lr'], fields: ['learning_rate'], label: 'learning_rate', value: (v) => num(v.learning_rate) },
  // Without the deprecated `fp16_backend: apex` (not read here: it makes the key unknown), amp is the backend.
  { key: ['fp16', 'enabled'], fields: ['fp16', 'fp16_full_eval'], label: 'fp16|fp16_full_eval', value: (v) => (typeof v.fp16 === 'boolean' && typeof v.fp16_full_eval === 'boolean' ? v.fp16 || v.fp16_full_eval : undefined) },
  { key: ['bf16', 'enabled'], fields: ['bf16', 'bf16_full_eval'], label: 'bf16|bf16_full_eval', value: (v) => (typeof v.bf16 === 'boolean' && typeof v.bf16_full_eval === 'boolean' ? v.bf16 || v.bf16_full_eval : undefined) },
];

/** Python's `==` on the values a JSON and a recipe hold (`1 == 1.0`, `True == 1`, lists item by item). */
export function pyEqual(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => pyEqual(x, b[i]));
  const n = (x: unknown): unknown => (typeof x === 'boolean' ? Number(x) : x);
  return n(a) === n(b);
}
