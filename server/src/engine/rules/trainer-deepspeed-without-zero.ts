/**
 * trainer-deepspeed-without-zero: the DeepSpeed JSON a fine-tuning recipe names has no
 * `zero_optimization` section.
 */
import type { TrainerModel } from '../formats/trainer/model';
import { trainerChecks } from './helpers';
import { defineRule } from './rule';

export default defineRule<TrainerModel>({
  id: 'trainer-deepspeed-without-zero',
  severity: 'error',
  formats: ['trainer'],
  docs: {
    summary: 'The DeepSpeed JSON a fine-tuning recipe names (`deepspeed: ds.json`, `--deepspeed ds.json`) has no `zero_optimization` section.',
    why: 'Plain DeepSpeed runs without one (ZeRO stage 0), but the Transformers Trainer hands the JSON to Accelerate\'s `DeepSpeedPlugin` while it builds its TrainingArguments, and that stops: "Please specify the ZeRO optimization config in the DeepSpeed config." (accelerate `utils/dataclasses.py`, 0.10 to 1.14; transformers `training_args.py`, 4.30 to 5.x). Add a `zero_optimization` section, with `"stage": 0` to keep plain data parallelism.',
    bad: 'model_name_or_path: gpt2\noutput_dir: out\nper_device_train_batch_size: 4\nlearning_rate: 1.0e-5\ndeepspeed: ds.json\n',
    good: 'model_name_or_path: gpt2\noutput_dir: out\nper_device_train_batch_size: 4\nlearning_rate: 1.0e-5\ndeepspeed: ds_zero2.json\n',
    files: { 'ds.json': '{\n  "train_micro_batch_size_per_gpu": "auto",\n  "bf16": { "enabled": "auto" }\n}\n', 'ds_zero2.json': '{\n  "train_micro_batch_size_per_gpu": "auto",\n  "bf16": { "enabled": "auto" },\n  "zero_optimization": { "stage": 2 }\n}\n' },
  },
  check(ctx) {
    const m = ctx.model;
    const ds = m.deepspeed;
    const doc = ds?.linked?.analysis?.doc;
    if (!ds || !ds.model || !doc || ds.linked?.path === undefined || doc.root?.kind !== 'map') return;
    // A JSON an Accelerate config names for a recipe is judged on that config (deepspeed-config-file-invalid).
    if (ds.named && m.recipeOf !== undefined) return;
    if (doc.root.entries.some((e) => e.key === 'zero_optimization')) return;
    // TrainingArguments build Accelerate's DeepSpeedPlugin from 4.30 (the oldest read, training_args.py@v4.30.0:1563-1570);
    // the plugin refuses a config without ZeRO in every Accelerate release from 0.10.0 to 1.14.0 (utils/dataclasses.py@v0.10.0, @v1.14.0:1274-1275; absent @v0.9.0).
    if (!trainerChecks(ctx)) return;
    ctx.report({
      at: ds.at,
      on: 'value',
      message: `${ds.ref} has no \`zero_optimization\` section, and the Transformers Trainer's TrainingArguments stop on that before the model loads (Accelerate's DeepSpeedPlugin: "Please specify the ZeRO optimization config in the DeepSpeed config."). Add \`"zero_optimization": { "stage": 0 }\` (or the ZeRO stage you want) to ${ds.ref}.`,
    });
  },
});
