/**
 * Fine-tuning recipes in YAML or JSON that end up as the Transformers Trainer's TrainingArguments:
 * TRL and alignment-handbook recipes (`TrlParser` / `HfArgumentParser` read the keys as the
 * dataclasses' fields), LLaMA-Factory configs (`llamafactory-cli train x.yaml`, read by
 * `HfArgumentParser.parse_dict`: src/llamafactory/hparams/parser.py@ff6d4d1:112-163) and axolotl
 * configs (mapped to TrainingArguments by src/axolotl/core/builders/base.py@v0.18.0:238-680).
 */
import type { SourceDoc } from '../../syntax/sourcedoc';
import type { Node } from '../../syntax/tree';
import { foreignMarkers, mapKeys, named, weigh, type Evidence, type EvidenceRules } from '../evidence';
import type { Program, TrainerValue } from './model';
import { FIELDS, shownDefault, type TrainerField } from './releases';

/**
 * TrainingArguments fields that speak for a recipe (src/transformers/training_args.py@v4.57.6): the
 * ones a training recipe writes and no launcher or DeepSpeed config has under these names.
 */
export const TRAINER_FIELDS = new Set([
  'output_dir', 'overwrite_output_dir', 'do_train', 'do_eval', 'do_predict', 'eval_strategy', 'evaluation_strategy', 'per_device_train_batch_size', 'per_device_eval_batch_size',
  'learning_rate', 'weight_decay', 'adam_beta1', 'adam_beta2', 'adam_epsilon', 'max_grad_norm', 'num_train_epochs', 'max_steps', 'lr_scheduler_type', 'lr_scheduler_kwargs', 'warmup_ratio', 'warmup_steps',
  'logging_dir', 'logging_strategy', 'logging_first_step', 'logging_steps', 'save_strategy', 'save_steps', 'save_total_limit', 'save_only_model', 'save_on_each_node', 'seed', 'data_seed',
  'bf16_full_eval', 'fp16_full_eval', 'tf32', 'dataloader_num_workers', 'eval_steps', 'run_name', 'remove_unused_columns', 'load_best_model_at_end', 'metric_for_best_model',
  'report_to', 'gradient_checkpointing', 'gradient_checkpointing_kwargs', 'hub_model_id', 'push_to_hub', 'hub_strategy', 'optim', 'ddp_timeout', 'auto_find_batch_size', 'torch_compile', 'resume_from_checkpoint',
  'per_device_eval_batch_size', 'eval_accumulation_steps', 'use_liger_kernel', 'hub_private_repo', 'ddp_find_unused_parameters', 'include_tokens_per_second', 'neftune_noise_alpha', 'log_level',
]);

/** TrainingArguments fields other programs share (a DeepSpeed JSON's accumulation, a switch): known, not telling. */
const SHARED_FIELDS = new Set(['gradient_accumulation_steps', 'fp16', 'bf16', 'deepspeed', 'fsdp', 'fsdp_config', 'local_rank', 'optim_args', 'disable_tqdm']);

/** LLaMA-Factory's stages and fine-tuning types (src/llamafactory/hparams/finetuning_args.py@ff6d4d1:460-466). */
const LF_STAGES = ['pt', 'sft', 'rm', 'ppo', 'dpo', 'kto'];
const LF_TYPES = ['lora', 'oft', 'freeze', 'full'];


export const PROGRAM_NAMES: Record<Program, string> = { 'llama-factory': 'LLaMA-Factory', axolotl: 'axolotl', trainer: 'the TrainingArguments of the training script' };

function str(v: Node | undefined): string | undefined {
  return v?.kind === 'scalar' && typeof v.value === 'string' ? v.value : undefined;
}

/** The program a recipe's keys belong to, with the sign that says so. */
export function recipeProgram(keys: readonly { key: string; value?: Node }[]): { program: Program; sign?: string } {
  const get = (k: string) => keys.find((e) => e.key === k)?.value;
  const stage = str(get('stage'));
  const type = str(get('finetuning_type'));
  if (stage && type && LF_STAGES.includes(stage) && LF_TYPES.includes(type)) return { program: 'llama-factory', sign: `\`stage: ${stage}\` with \`finetuning_type: ${type}\` is a LLaMA-Factory recipe` };
  const axolotl = ['micro_batch_size', 'sequence_len', 'datasets', 'num_epochs'].filter((k) => get(k) !== undefined);
  if (get('base_model') !== undefined && axolotl.length) return { program: 'axolotl', sign: `\`base_model\` with ${named(axolotl)} is an axolotl config` };
  return { program: 'trainer' };
}

/** Keys of a Megatron model configuration that no Trainer recipe has (`tensor_model_parallel_size` with one of the others). */
const MEGATRON_MODEL_KEYS = ['tensor_model_parallel_size', 'pipeline_model_parallel_size', 'num_layers', 'encoder_seq_length', 'num_attention_heads', 'mcore_gpt'];

const RULES: EvidenceRules = {
  what: 'a Transformers Trainer recipe',
  owner: 'Transformers Trainer',
  where: 'top-level keys',
  noun: 'argument',
  distinctive: () => false,
  telling: (k) => TRAINER_FIELDS.has(k),
  known: (k) => TRAINER_FIELDS.has(k) || SHARED_FIELDS.has(k),
  several: 3,
  balance: { open: 'the program that reads the recipe takes arguments of its own', share: 0.2 },
};

/**
 * A fine-tuning recipe by weight of evidence (formats/evidence.ts): a LLaMA-Factory or axolotl
 * sign, or three TrainingArguments fields a recipe writes; nothing of another system (Hydra and
 * OmegaConf interpolations, Accelerate's `distributed_type`, a DeepSpeed `zero_optimization` section).
 */
export function recipeEvidence(doc: SourceDoc): Evidence {
  const keys = mapKeys(doc.root);
  const names = keys.map((k) => k.key);
  const { sign } = recipeProgram(keys);
  const markers = foreignMarkers(doc);
  const contradictions = [...markers.hydra, ...markers.interpolation];
  if (names.includes('distributed_type')) contradictions.push('`distributed_type` is an Accelerate key');
  const zero = keys.find((k) => k.key === 'zero_optimization');
  if (zero?.value.kind === 'map') contradictions.push('`zero_optimization` is a DeepSpeed section');
  if (names.includes('train_micro_batch_size_per_gpu')) contradictions.push('`train_micro_batch_size_per_gpu` is a DeepSpeed key');
  // A Megatron model section written flat (NeMo's `model:` keys at the top, as MLPerf's NeMo
  // implementations keep them): `seed`, `optim` and the like are shared names, not a recipe.
  const megatron = MEGATRON_MODEL_KEYS.filter((k) => names.includes(k));
  if (names.includes('tensor_model_parallel_size') && megatron.length >= 2) contradictions.push(`${named(megatron)} are Megatron model settings (a NeMo or Megatron model section written flat)`);
  return weigh({ keys, signs: sign ? [sign] : [], contradictions }, RULES);
}

/** A recipe's scalar as the program gets it: numbers written as strings read as numbers (argparse and OmegaConf convert them). */
function scalar(v: Node | undefined): number | boolean | string | null | undefined {
  if (v?.kind !== 'scalar') return undefined;
  if (typeof v.value === 'string' && /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(v.value.trim())) return Number(v.value);
  return v.value;
}

function typed(kind: TrainerField['kind'], v: unknown): number | boolean | string | undefined {
  if (kind === 'str') return typeof v === 'string' ? v : undefined;
  if (kind === 'bool') {
    if (typeof v === 'boolean') return v;
    if (typeof v === 'string' && /^(true|false)$/i.test(v)) return v.toLowerCase() === 'true';
    return undefined;
  }
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** Keys of PPO recipes (LLaMA-Factory's `stage: ppo`, TRL's PPOConfig): their trainers run their own loop, which never calls the Trainer's DeepSpeed check. */
const PPO_KEYS = ['reward_model_path', 'sft_model_path', 'num_ppo_epochs', 'kl_coef', 'ppo_epochs', 'ppo_buffer_size', 'ppo_target'];

/** Why the recipe's trainer may not run the Trainer's DeepSpeed comparison, if it may not. */
export function ownLoop(doc: SourceDoc): string | undefined {
  const root = doc.root;
  if (root?.kind !== 'map') return undefined;
  const stage = root.entries.find((e) => e.key === 'stage')?.value;
  if (stage?.kind === 'scalar' && stage.value === 'ppo') return '`stage: ppo` trains with a PPO trainer whose own loop does not run the Trainer\'s DeepSpeed check';
  const ppo = root.entries.find((e) => PPO_KEYS.includes(e.key));
  return ppo ? `\`${ppo.key}\` is a PPO setting, and PPO trainers run their own loop, not the Trainer's DeepSpeed check` : undefined;
}

/** What axolotl writes for each TrainingArguments field it maps (core/builders/base.py@v0.18.0:271-278, 624-668). */
const AXOLOTL_NAMES: Record<string, string> = { per_device_train_batch_size: 'micro_batch_size' };

/**
 * A TrainingArguments field as the recipe's program hands it to the Trainer: written, the
 * Trainer's default (assumed: the program may set its own), or unknown (axolotl's values it
 * computes, a default a framework is known to change).
 */
export function recipeArg(doc: SourceDoc, program: Program, name: string): TrainerValue {
  const field = FIELDS[name];
  const own = ownLoop(doc);
  if (own) return { value: undefined, from: { kind: 'unknown', note: own }, spelled: name };
  const spelled = program === 'axolotl' ? (AXOLOTL_NAMES[name] ?? name) : name;
  const node = doc.node([spelled]);
  const unknown = (note: string): TrainerValue => ({ value: undefined, from: { kind: 'unknown', note }, spelled });
  if (!field) return unknown(`\`${name}\` is not read here`);
  if (program === 'axolotl') {
    const axo = axolotlArg(doc, name);
    if (axo) return axo;
  }
  if (node && !(node.kind === 'scalar' && node.value === null)) {
    const v = typed(field.kind, scalar(node));
    if (v === undefined) return unknown(`\`${spelled}\` is not a value Shardwise reads as ${field.kind === 'bool' ? 'a boolean' : field.kind === 'str' ? 'a string' : 'a number'}`);
    return { value: v, from: { kind: 'written', path: [spelled] }, at: [spelled], spelled };
  }
  if (program === 'axolotl') return unknown(`the recipe does not set \`${spelled}\`, and the program that reads it decides its default`);
  return unsetArg(field, spelled, `the recipe does not set \`${spelled}\``, 'the program that reads it');
}

/**
 * A field the file does not set, as the Trainer gets it: TrainingArguments' default when no program
 * that reads recipes changes it, else that default assumed (or `assumed`, when the reading itself
 * is), or unknown when the program decides it. `unset` says what the file does not do, `reader` who
 * may set another default.
 */
export function unsetArg(field: TrainerField, spelled: string, unset: string, reader: string, assumed?: string): TrainerValue {
  if (field.default === undefined) return { value: undefined, from: { kind: 'unknown', note: `${unset}, and ${reader} decides its default` }, spelled };
  if (field.fixed && !assumed) return { value: field.default, from: { kind: 'default', note: `${unset}: TrainingArguments' default ${shownDefault(field)}` }, spelled };
  return { value: field.default, from: { kind: 'assumed', note: assumed ?? `${unset}, so the Trainer's default ${shownDefault(field)} is taken (${reader} may set another)` }, spelled };
}

/** axolotl's own readings: precision, and accumulation from `batch_size` (utils/config/__init__.py@v0.18.0:199-230). */
function axolotlArg(doc: SourceDoc, name: string): TrainerValue | undefined {
  const val = (k: string) => scalar(doc.node([k]));
  const has = (k: string) => val(k) !== undefined && val(k) !== null;
  if (name === 'bf16' || name === 'fp16' || name === 'bf16_full_eval') {
    const bf = has('bf16') ? val('bf16') : val('bfloat16');
    if (bf === 'auto') return { value: undefined, from: { kind: 'unknown', note: '`bf16: auto` is decided by the GPU axolotl runs on' }, spelled: 'bf16' };
    if (bf !== undefined && bf !== null && typeof bf !== 'boolean' && bf !== 'full') return { value: undefined, from: { kind: 'unknown', note: '`bf16` is not a value Shardwise reads' }, spelled: 'bf16' };
    const at = has('bf16') ? ['bf16'] : has('bfloat16') ? ['bfloat16'] : undefined;
    const bfOn = bf === true;
    if (name === 'bf16_full_eval') return { value: bf === 'full', from: at ? { kind: 'written', path: at } : { kind: 'default', note: 'axolotl sets it only for `bf16: full`' }, at, spelled: 'bf16' };
    if (name === 'bf16') return { value: bfOn, from: at ? { kind: 'written', path: at } : { kind: 'default', note: 'axolotl passes `bf16: false` when the config does not set it' }, at, spelled: 'bf16' };
    const fp = val('fp16');
    if (fp !== undefined && fp !== null && typeof fp !== 'boolean') return { value: undefined, from: { kind: 'unknown', note: '`fp16` is not a value Shardwise reads' }, spelled: 'fp16' };
    // fp16 = (fp16 and not bf16) or False (core/builders/base.py@v0.18.0:271).
    const on = fp === true && !(bfOn || bf === 'full');
    return { value: on, from: has('fp16') ? { kind: 'written', path: ['fp16'] } : { kind: 'default', note: 'axolotl passes `fp16: false` when the config does not set it' }, at: has('fp16') ? ['fp16'] : undefined, spelled: 'fp16' };
  }
  // axolotl computes it: on only with an evaluation set, `save_steps` and `eval_steps`, the one a multiple of the other (core/builders/causal.py@v0.18.0:248-260).
  if (name === 'load_best_model_at_end') return { value: undefined, from: { kind: 'unknown', note: 'axolotl turns `load_best_model_at_end` on only with an evaluation set and `save_steps` a multiple of `eval_steps`' }, spelled: name };
  // axolotl computes the warmup it hands the Trainer: from `warmup_ratio` and its own step count, 3% of
  // the steps (at most 100) when neither is set, 2 for a written 1 (core/builders/base.py@v0.18.0:235-268).
  if (name === 'fp16_opt_level' || name === 'fp16_backend') return { value: undefined, from: { kind: 'unknown', note: `how axolotl hands \`${name}\` to the Trainer is not read here` }, spelled: name };
  if (name === 'warmup_ratio') return { value: undefined, from: { kind: 'unknown', note: 'axolotl turns `warmup_ratio` into steps of its own count' }, spelled: name };
  if (name === 'warmup_steps') {
    const w = val('warmup_steps');
    if (typeof w === 'number' && Number.isInteger(w) && w >= 1) return { value: w === 1 ? 2 : w, from: w === 1 ? { kind: 'derived', formula: 'axolotl hands the Trainer 2 for `warmup_steps: 1`' } : { kind: 'written', path: ['warmup_steps'] }, at: ['warmup_steps'], spelled: name };
    return { value: undefined, from: { kind: 'unknown', note: 'axolotl computes the warmup steps unless `warmup_steps` is a whole number of at least 1' }, spelled: name };
  }
  if (name === 'gradient_accumulation_steps' && !has('gradient_accumulation_steps')) {
    const b = val('batch_size');
    const m = val('micro_batch_size');
    if (typeof b === 'number' && typeof m === 'number' && m > 0) return { value: Math.floor(b / m), from: { kind: 'derived', formula: `batch_size ${b} // micro_batch_size ${m}` }, at: ['batch_size'], spelled: 'batch_size' };
  }
  return undefined;
}

/** A `deepspeed` value as the path of a JSON to follow: a known, non-empty string that is not a JSON text. */
export function deepspeedPath(v: Node | undefined, at: string[]): { ref: string; at: string[] } | undefined {
  if (v?.kind !== 'scalar' || v.unknown || typeof v.value !== 'string') return undefined;
  const ref = v.value.trim();
  return ref && !ref.startsWith('{') ? { ref, at } : undefined;
}
