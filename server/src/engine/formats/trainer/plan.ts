/**
 * The Plan of a fine-tuning recipe that names a DeepSpeed JSON: plain data parallelism over the
 * launcher's processes with ZeRO from the JSON, the micro batch and accumulation as the Trainer
 * fills them (the JSON's explicit values, else the recipe's), the precision, and the model when the
 * recipe names a known one and trains all of its weights.
 */
import type { Field, Plan } from '../../plan/plan';
import { derived } from '../../plan/plan';
import type { ModelShape, Precision } from '../../plan/memory';
import type { Node } from '../../syntax/tree';
import type { AdapterMemory } from '../../plan/adapters';
import { loraTrainable } from '../../plan/adapters';
import { planHardware, planModel } from '../../plan/context';
import { modelPreset } from '../../plan/models';
import type { EngineSettings } from '../../settings';
import { deepspeedPlan } from '../deepspeed/plan';
import { recipeAdapter } from './adapters';
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
function adapterKeys(m: TrainerModel): string | undefined {
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

/** The model the recipe trains: a preset's checkpoint, or a folder whose config.json the repository holds. */
function recipeModel(m: TrainerModel, plan: Plan | undefined): { shape: Field<ModelShape>; family?: string } | undefined {
  if (plan?.model) return { shape: plan.model };
  if (m.modelConfig) return { shape: { value: m.modelConfig.shape, from: { kind: 'derived', formula: `the shape in ${m.modelConfig.ref}${m.modelConfig.notes.length ? ` (${m.modelConfig.notes.join('; ')})` : ''}` } }, family: m.modelConfig.family };
  for (const key of ['model_name_or_path', 'base_model', '--model_name_or_path']) {
    const n = m.doc.node([key]);
    if (n?.kind !== 'scalar' || typeof n.value !== 'string' || n.unknown) continue;
    const id = HUB_PRESETS.find(([re]) => re.test(n.value as string))?.[1];
    const preset = id ? modelPreset(id) : undefined;
    if (!preset) return undefined;
    return { shape: { value: preset.shape, from: { kind: 'derived', formula: `\`${key}: ${n.value}\` has the shape of the preset \`${preset.id}\` (${preset.title})` } }, family: id!.replace(/-.*$/, '').replace(/\d.*$/, '') };
  }
  return undefined;
}

/** PEFT's default LoRA targets for a model type (src/peft/utils/constants.py@v0.20.0:65-101, TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING). */
const PEFT_DEFAULT_TARGETS: Record<string, string[]> = { llama: ['q_proj', 'v_proj'], mistral: ['q_proj', 'v_proj'], mixtral: ['q_proj', 'v_proj'], qwen: ['q_proj', 'v_proj'], qwen2: ['q_proj', 'v_proj'] };

/** The adapters the recipe trains on the model, or why they cannot be counted. */
function adapterOf(m: TrainerModel, model: { shape: Field<ModelShape>; family?: string }): { adapter: Field<AdapterMemory> } | { why: string } | undefined {
  const spec = recipeAdapter(m.doc, m.recipeOf);
  if (!spec) {
    const keys = adapterKeys(m);
    return keys ? { why: `${keys}: the adapters are not read here` } : undefined;
  }
  const none = (why: string) => ({ why: `${spec.sign}: ${why}` });
  if (spec.unknown) return none(spec.unknown);
  if (!spec.rank) return none('the LoRA rank is not known (write `lora_r`/`lora_rank`)');
  if (!spec.modules) return none('the target modules are not known');
  if (spec.bits.from.kind === 'unknown') return none('the quantization is not known');
  let modules = spec.modules.value;
  let modulesFrom = spec.modules.from.kind === 'written' ? `\`${spec.modules.from.path.join('.')}\`` : spec.modules.from.kind === 'default' ? spec.modules.from.note : '';
  if (modules === 'peft-default') {
    const d = model.family ? PEFT_DEFAULT_TARGETS[model.family] : undefined;
    if (!d) return none(`no target modules are written, and PEFT's default for ${model.family ? `\`${model.family}\`` : 'this model'} is not known here`);
    modules = d;
    modulesFrom = `PEFT's default targets for \`${model.family}\` models (${d.join(', ')})`;
  }
  const count = loraTrainable(model.shape.value, spec.rank.value, modules);
  if ('unknown' in count) return none(count.unknown);
  const value: AdapterMemory = { trainable: count.count, frozenBits: spec.bits.value, targets: count.targets, rank: spec.rank.value };
  const formula = `${spec.sign}: rank ${spec.rank.value} (${spec.rank.from.kind === 'written' ? `\`${spec.rank.from.path.join('.')}\`` : spec.rank.from.kind === 'default' ? spec.rank.from.note : 'derived'}) × (inputs + outputs) of ${count.targets} (${modulesFrom}); base in ${spec.bits.value} bits`;
  return { adapter: derived(value, formula, [model.shape, spec.rank, spec.bits]) };
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
  const entry = (key: string) => root.entries.find((x) => x.key.replace(/^--/, '') === key);
  const truth = (v: Node | undefined) => (v?.kind !== 'scalar' || v.unknown ? undefined : v.value === true || (typeof v.value === 'string' && /^(true|yes|1)$/i.test(v.value)));
  // LLaMA-Factory checkpoints every trainable model unless `disable_gradient_checkpointing: true`
  // (model/model_utils/checkpointing.py, `use_gradient_checkpointing=True` before v0.5.0, extras/misc.py@v0.1.0:67-83).
  if (m.recipeOf === 'llama-factory') {
    const off = entry('disable_gradient_checkpointing');
    const disabled = truth(off?.value);
    if (disabled === undefined && off) return { value: 'full', from: { kind: 'assumed', note: '`disable_gradient_checkpointing` is not known here: LLaMA-Factory checkpoints unless it is true' } };
    if (!disabled) return { value: 'full', from: { kind: 'default', note: 'LLaMA-Factory turns gradient checkpointing on unless `disable_gradient_checkpointing: true`' } };
    return { value: 'none', from: { kind: 'written', path: [off!.key] } };
  }
  const e = entry('gradient_checkpointing');
  if (!e || truth(e.value) !== true) return undefined;
  return { value: 'full', from: { kind: 'written', path: [e.key] } };
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

/**
 * A recipe that names no DeepSpeed JSON and no FSDP: each process is taken to hold a whole replica
 * (plain DDP), which the Accelerate config of its launch may change, so the sharding is an assumption.
 */
function replicaPlan(m: TrainerModel, settings: EngineSettings): Plan {
  const one = (note: string): Field<number> => ({ value: 1, from: { kind: 'default', note } });
  const world = m.world;
  const plan: Plan = {
    runtime: 'the Transformers Trainer (no DeepSpeed or FSDP named)',
    style: 'data-parallel',
    world,
    nodes: settings.nodes ? { value: settings.nodes, from: { kind: 'setting', note: '`nodes` setting' } } : one('the node count is not in a recipe'),
    tp: one('no tensor parallelism'),
    pp: one('no pipeline parallelism'),
    cp: one('no context parallelism'),
    ep: one('no expert parallelism'),
    etp: one('no expert parallelism'),
    dpReplicate: world ? derived(world.value, `DDP over the ${world.value} processes`, [world]) : one('world size unknown'),
    dpShard: one('no sharding'),
    spDegree: one('no Ulysses sequence parallelism'),
    sp: { value: false, from: { kind: 'default', note: 'no Megatron-style sequence parallelism' } },
    precision: { value: 'bf16', from: { kind: 'assumed', note: 'the recipe does not say which 16-bit type it trains in' } },
    sharding: { value: { kind: 'none', group: 1 }, from: { kind: 'assumed', note: 'the recipe names no DeepSpeed JSON or FSDP, so each process holds a whole replica (DDP); an Accelerate config the launch names may shard instead' } },
    recompute: { value: 'none', from: { kind: 'default', note: 'no `gradient_checkpointing`' } },
    overlap: {},
    hardware: planHardware(settings),
    model: planModel(settings),
    knobs: {},
    notes: [],
  };
  if (world) plan.dp = derived(world.value, `DP = the ${world.value} processes`, [world]);
  return plan;
}

const MEGATRON_KEYS = ['tensor_model_parallel_size', 'pipeline_model_parallel_size', 'expert_model_parallel_size', 'use_distributed_optimizer'];

/** A preference or RL trainer (LLaMA-Factory's stage, axolotl's `rl`), when the recipe names one. */
function preference(m: TrainerModel): string | undefined {
  const stage = m.doc.node(['stage']);
  if (m.recipeOf === 'llama-factory' && stage?.kind === 'scalar' && ['rm', 'ppo', 'dpo', 'kto'].includes(String(stage.value))) return `\`stage: ${String(stage.value)}\``;
  const rl = m.doc.node(['rl']);
  if (m.recipeOf === 'axolotl' && rl?.kind === 'scalar' && rl.value) return `\`rl: ${String(rl.value)}\``;
  return undefined;
}

export function trainerPlan(m: TrainerModel, settings: EngineSettings): Plan | undefined {
  const json = m.deepspeed?.model;
  let plan: Plan;
  let model: ReturnType<typeof recipeModel>;
  let adapted: ReturnType<typeof adapterOf>;
  if (json) {
    // DP and the ZeRO group over the launcher's processes, as for the JSON under any launcher (AutoTP and Ulysses SP divide it).
    plan = deepspeedPlan(json, settings, m.world);
    plan.runtime = `the Transformers Trainer with DeepSpeed (${m.deepspeed!.ref})`;
    plan.notes = [];
    model = recipeModel(m, plan);
    adapted = model && adapterOf(m, model);
  } else {
    // Without a DeepSpeed JSON, the Plan is drawn for adapter training on a known model (the fine-tuner's "will it fit").
    if (m.deepspeedSet || m.fsdp) return undefined;
    // A launch through an Accelerate config that shards (FSDP, DeepSpeed, Megatron-LM) is not the replicas drawn here.
    const shards = m.accelerate?.model.distributedType;
    if (shards && shards !== 'NO' && shards !== 'MULTI_GPU') return undefined;
    // LLaMA-Factory's Megatron path (`tensor_model_parallel_size`…) is not the Trainer's data parallelism.
    if (MEGATRON_KEYS.some((k) => m.doc.node([k]) !== undefined)) return undefined;
    model = recipeModel(m, undefined);
    adapted = model && adapterOf(m, model);
    if (!model || !adapted || !('adapter' in adapted)) return undefined;
    plan = replicaPlan(m, settings);
  }
  const world = plan.world;
  if (!plan.microBatch) plan.microBatch = asField(m.arg('per_device_train_batch_size'));
  if (!plan.gradAccum) plan.gradAccum = asField(m.arg('gradient_accumulation_steps'));
  plan.precision = precision(m, plan);
  plan.model = adapted && 'why' in adapted ? undefined : model?.shape;
  if (adapted && 'adapter' in adapted) plan.adapter = adapted.adapter;
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
  if (adapted && 'why' in adapted) plan.notes.push(`${adapted.why}, so no memory estimate is made.`);
  const rl = preference(m);
  if (rl && plan.adapter) plan.notes.push(`${rl} runs more than one sequence per example (chosen and rejected answers, or generations): the activations counted are those of one sequence per micro-batch, so the real peak is higher.`);
  // LLaMA-Factory trains only with `do_train: true` (TrainingArguments' default is false); its predict and eval recipes load the adapters to generate.
  const doTrain = m.doc.node(['do_train']);
  if (m.recipeOf === 'llama-factory' && !(doTrain?.kind === 'scalar' && doTrain.value === true)) plan.notTraining = 'the LLaMA-Factory recipe does not set `do_train: true`, so it does not train';
  return plan;
}
