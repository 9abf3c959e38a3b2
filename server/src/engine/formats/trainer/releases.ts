/**
 * What the Transformers Trainer does with the DeepSpeed JSON it is given, by release: the keys its
 * `HfTrainerDeepSpeedConfig.trainer_config_process` fills when they are `"auto"` and compares with
 * the TrainingArguments when they are not (src/transformers/deepspeed.py@v4.30.0:133-190,
 * src/transformers/integrations/deepspeed.py@v4.57.6:133-205, the same in the 5.18.0 wheel less the
 * apex `amp` keys), and the two scheduler keys `trainer_config_finalize` fills and compares once the
 * number of training steps is known (v4.57.6:257-267, 5.18.0:241-253). Every mismatch is collected
 * and raised together, as one ValueError ("Please correct the following DeepSpeed config values that
 * mismatch TrainingArguments values"), in `trainer_config_finalize` when training starts
 * (v4.57.6:269-274). Pure data.
 */

/** The oldest Transformers release these facts were read at; older ones are not judged. */
export const TRANSFORMERS_OLDEST = '4.30.0';

/** The Trainer's reading of one TrainingArguments field: its default (undefined: the recipe's program decides it). */
export interface TrainerField {
  kind: 'int' | 'float' | 'bool' | 'str';
  /** TrainingArguments' own default, when no recipe framework is known to change it. */
  default?: number | boolean | string;
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
  // -1 (train for `num_train_epochs`): the steps then come from the dataset's length, not known here.
  max_steps: { kind: 'int' },
  // An int to 4.57.x, a float from 5.x (a value below 1 is then a ratio); warmup_ratio is gone in 5.18.0.
  warmup_steps: { kind: 'int', default: 0 },
  warmup_ratio: { kind: 'float', default: 0 },
  // Apex's settings (training_args.py@v4.57.6:1081-1089, 1437-1443; not in the 5.18.0 wheel).
  fp16_opt_level: { kind: 'str', default: 'O1', fixed: true },
  fp16_backend: { kind: 'str', default: 'auto', fixed: true },
};

/** One DeepSpeed key the Trainer fills and compares, and the TrainingArguments value it is held to. */
export interface Compared {
  /** The key's path in the DeepSpeed JSON (dotted, as the Trainer's message writes it). */
  key: string[];
  /** The TrainingArguments fields the value is computed from. */
  fields: string[];
  /** How the Trainer's message names the value ("hf per_device_train_batch_size"). */
  label: string;
  /**
   * The value the Trainer compares with (undefined: not computable). `get` reads a field's value as
   * the Trainer gets it (read only the fields the answer rests on), `atLeast` whether the
   * Transformers release is at least a version.
   */
  value(get: (field: string) => Value | undefined, world: number | undefined, atLeast: (version: string) => boolean, writes: (field: string) => boolean): Value | number[] | undefined;
  /** How the Trainer's own message names it, when `label` says more. */
  said?: string;
  /** Needs the world size (the launcher's process count). */
  world?: boolean;
  /** The JSON's value is a string the Trainer compares as it is (else a string is not compared here). */
  text?: boolean;
  /** The last release read that compares it, when later ones read do not (compared only up to it). */
  upTo?: string;
}

type Value = number | boolean | string;

const num = (x: Value | undefined): number | undefined => (typeof x === 'number' ? x : undefined);
/** A boolean field, or the OR of two. */
const bool = (x: Value | undefined): boolean | undefined => (typeof x === 'boolean' ? x : undefined);
const either = (a: Value | undefined, b: Value | undefined): boolean | undefined => (bool(a) === undefined || bool(b) === undefined ? undefined : bool(a) || bool(b));

/** The training steps the Trainer hands `trainer_config_finalize`: `max_steps` when positive, else the dataset's (not known here). */
function trainingSteps(get: (field: string) => Value | undefined): number | undefined {
  const n = num(get('max_steps'));
  return n !== undefined && Number.isInteger(n) && n > 0 ? n : undefined;
}

/**
 * The warm-up the Trainer compares with `warmup_num_steps`, from `args.get_warmup_steps(num_training_steps)`: to 4.57.x, `warmup_steps` when above 0, else
 * ceil(steps × `warmup_ratio`) (training_args.py@v4.57.6:2551-2558); in 5.18.0, `int(warmup_steps)`
 * when at least 1, else ceil(steps × `warmup_steps`) (training_args.py@5.18.0:2122-2129). Between the
 * two only a whole number of steps of at least 1 reads the same in both.
 */
function warmupSteps(get: (field: string) => Value | undefined, atLeast: (version: string) => boolean, writes: (field: string) => boolean): number | undefined {
  const s = num(get('warmup_steps'));
  if (s === undefined) return undefined;
  if (Number.isInteger(s) && s >= 1) return s;
  const scaled = (ratio: number): number | undefined => {
    if (ratio === 0) return 0;
    const n = trainingSteps(get);
    return n === undefined ? undefined : Math.ceil(n * ratio);
  };
  if (!atLeast('4.57.7')) {
    if (s > 0) return undefined;
    const r = num(get('warmup_ratio'));
    return r === undefined ? undefined : scaled(r);
  }
  // 5.18.0 has no warmup_ratio: a recipe that sets it is not read as this release reads it.
  if (!atLeast('5.18.0') || writes('warmup_ratio')) return undefined;
  // And it compares `max(1, get_warmup_steps(n))` (integrations/deepspeed.py@5.18.0:247-253), since
  // DeepSpeed 0.19.6 refuses a warm-up of no steps: 0 is compared as 1.
  const steps = s >= 1 ? Math.trunc(s) : s < 0 ? undefined : scaled(s);
  return steps === undefined ? undefined : Math.max(1, steps);
}

/** v4.57.6:139-197, 257-267 (v4.30.0:119-180; wheel 5.18.0:139-181, 241-253): the keys compared. */
export const COMPARED: readonly Compared[] = [
  { key: ['train_micro_batch_size_per_gpu'], fields: ['per_device_train_batch_size'], label: 'per_device_train_batch_size', value: (get) => num(get('per_device_train_batch_size')) },
  { key: ['gradient_accumulation_steps'], fields: ['gradient_accumulation_steps'], label: 'gradient_accumulation_steps', value: (get) => num(get('gradient_accumulation_steps')) },
  {
    key: ['train_batch_size'],
    fields: ['per_device_train_batch_size', 'gradient_accumulation_steps'],
    label: 'world size × per_device_train_batch_size × gradient_accumulation_steps',
    said: 'train_batch_size (calculated)',
    world: true,
    value: (get, world) => {
      if (world === undefined) return undefined;
      const m = num(get('per_device_train_batch_size'));
      const g = m === undefined ? undefined : num(get('gradient_accumulation_steps'));
      return m !== undefined && g !== undefined ? world * m * g : undefined;
    },
  },
  { key: ['gradient_clipping'], fields: ['max_grad_norm'], label: 'max_grad_norm', value: (get) => num(get('max_grad_norm')) },
  { key: ['optimizer', 'params', 'lr'], fields: ['learning_rate'], label: 'learning_rate', value: (get) => num(get('learning_rate')) },
  {
    key: ['optimizer', 'params', 'betas'],
    fields: ['adam_beta1', 'adam_beta2'],
    label: 'adam_beta1+adam_beta2',
    value: (get) => {
      const b1 = num(get('adam_beta1'));
      const b2 = b1 === undefined ? undefined : num(get('adam_beta2'));
      return b1 !== undefined && b2 !== undefined ? [b1, b2] : undefined;
    },
  },
  { key: ['optimizer', 'params', 'eps'], fields: ['adam_epsilon'], label: 'adam_epsilon', value: (get) => num(get('adam_epsilon')) },
  { key: ['optimizer', 'params', 'weight_decay'], fields: ['weight_decay'], label: 'weight_decay', value: (get) => num(get('weight_decay')) },
  { key: ['scheduler', 'params', 'warmup_max_lr'], fields: ['learning_rate'], label: 'learning_rate', value: (get) => num(get('learning_rate')) },
  // Without the deprecated `fp16_backend: apex` (the rule does not judge fp16 then), amp is the backend.
  { key: ['fp16', 'enabled'], fields: ['fp16', 'fp16_full_eval'], label: 'fp16|fp16_full_eval', value: (get) => (bool(get('fp16')) === undefined ? undefined : either(get('fp16'), get('fp16_full_eval'))) },
  // Apex's amp section, compared to 4.57.x (v4.57.6:192-195); the 5.18.0 wheel neither fills nor compares it.
  { key: ['amp', 'enabled'], fields: ['fp16_backend'], label: 'fp16+fp16_backend(apex)', upTo: '4.57.6', value: (get) => {
      const b = get('fp16_backend');
      return typeof b === 'string' && b !== 'apex' ? false : undefined;
    } },
  { key: ['amp', 'opt_level'], fields: ['fp16_opt_level'], label: 'fp16_opt_level', upTo: '4.57.6', text: true, value: (get) => get('fp16_opt_level') },
  { key: ['bf16', 'enabled'], fields: ['bf16', 'bf16_full_eval'], label: 'bf16|bf16_full_eval', value: (get) => (bool(get('bf16')) === undefined ? undefined : either(get('bf16'), get('bf16_full_eval'))) },
  // Filled and compared by `trainer_config_finalize` with the steps `_inner_training_loop` hands it (trainer.py@v4.57.6:2429, 5675).
  { key: ['scheduler', 'params', 'total_num_steps'], fields: ['max_steps'], label: 'max_steps', said: 'num_training_steps (calculated)', value: (get) => trainingSteps(get) },
  { key: ['scheduler', 'params', 'warmup_num_steps'], fields: ['warmup_steps', 'warmup_ratio', 'max_steps'], label: 'warmup_steps', value: (get, _w, atLeast, writes) => warmupSteps(get, atLeast, writes) },
];

/** Python's `==` on the values a JSON and a recipe hold (`1 == 1.0`, `True == 1`, lists item by item). */
export function pyEqual(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => pyEqual(x, b[i]));
  const n = (x: unknown): unknown => (typeof x === 'boolean' ? Number(x) : x);
  return n(a) === n(b);
}
