/**
 * trainer-deepspeed-mismatch: a value of the DeepSpeed JSON a fine-tuning recipe names that the
 * Transformers Trainer compares with its TrainingArguments, and that differs from the recipe's.
 */
import type { TrainerModel, TrainerValue } from '../formats/trainer/model';
import { COMPARED, FIELDS, pyEqual, pyShown, type Compared } from '../formats/trainer/releases';
import { trainerChecks } from './helpers';
import type { Path, Span } from '../types';
import { describeProvenance } from '../plan/plan';
import { defineRule, type RelatedSpec } from './rule';

/** The JSON's value, when the Trainer compares it: present, not `"auto"`, a number, a boolean or a list of numbers. */
function comparable(v: unknown): v is number | boolean | number[] {
  return typeof v === 'number' || typeof v === 'boolean' || (Array.isArray(v) && v.every((x) => typeof x === 'number'));
}

export default defineRule<TrainerModel>({
  id: 'trainer-deepspeed-mismatch',
  severity: 'error',
  formats: ['trainer'],
  docs: {
    summary: 'A value in the DeepSpeed JSON a fine-tuning recipe names (`deepspeed: ds.json`, `--deepspeed ds.json`) that differs from the recipe\'s TrainingArguments: micro batch, accumulation, `train_batch_size`, gradient clipping, optimizer and scheduler parameters, fp16/bf16.',
    why: 'The Transformers Trainer (directly, or under TRL, LLaMA-Factory, axolotl or a `train.py --deepspeed` launch) fills the JSON\'s `"auto"` values from its TrainingArguments and compares the explicit ones: `train_micro_batch_size_per_gpu` with `per_device_train_batch_size`, `gradient_accumulation_steps`, `train_batch_size` with world size × micro batch × accumulation, `gradient_clipping` with `max_grad_norm`, the optimizer\'s `lr`, `betas`, `eps`, `weight_decay`, the scheduler\'s `warmup_max_lr` with `learning_rate`, and `fp16.enabled`/`bf16.enabled` with `fp16`/`bf16`. Every difference is collected and raised together once training starts, after the model has loaded ("Please correct the following DeepSpeed config values that mismatch TrainingArguments values"; transformers `integrations/deepspeed.py`, 4.30 to 5.x). `train_batch_size` is checked only when the launcher says how many processes run. Write the same value in both files, or `"auto"` in the JSON so the recipe decides.',
    bad: 'stage: sft\nfinetuning_type: full\nmodel_name_or_path: Qwen/Qwen2.5-7B\nper_device_train_batch_size: 4\ngradient_accumulation_steps: 8\ndeepspeed: ds_z3_config.json\n',
    good: 'stage: sft\nfinetuning_type: full\nmodel_name_or_path: Qwen/Qwen2.5-7B\nper_device_train_batch_size: 2\ngradient_accumulation_steps: 8\ndeepspeed: ds_z3_config.json\n',
    files: { 'ds_z3_config.json': '{\n  "train_micro_batch_size_per_gpu": 2,\n  "gradient_accumulation_steps": "auto",\n  "zero_optimization": { "stage": 3 }\n}\n' },
  },
  check(ctx) {
    const m = ctx.model;
    const ds = m.deepspeed;
    const json = ds?.model;
    const jsonDoc = ds?.linked?.analysis?.doc;
    const jsonPath = ds?.linked?.path;
    if (!ds || !json || !jsonDoc || jsonPath === undefined) return;
    // The fill-and-compare table is the same from 4.30 (the oldest read) to 5.x.
    if (!trainerChecks(ctx)) return;
    const other = { path: jsonPath, doc: jsonDoc };
    ctx.each(COMPARED, (c: Compared) => {
      // The Trainer skips a key whose section is missing, `"auto"` it fills, and an absent or null one.
      if (c.key.length > 1 && !json.has(c.key.slice(0, -1))) return;
      const ds_ = json.get(c.key);
      if (!comparable(ds_)) return;
      // The deprecated `fp16_backend: apex` turns the Trainer's fp16 value off (integrations/deepspeed.py@v4.57.6:172-190): not read here.
      if (c.key[0] === 'fp16' && m.writes('fp16_backend')) return;
      const args: Record<string, number | boolean> = {};
      const read: TrainerValue[] = [];
      for (const f of c.fields) {
        const a = m.arg(f);
        if (a.value === undefined) return;
        args[f] = a.value;
        read.push(a);
      }
      const world = c.world ? m.world : undefined;
      if (c.world && world?.value === undefined) return;
      const hf = c.value(args, world?.value);
      if (hf === undefined || pyEqual(ds_, hf)) return;
      const written = read.find((a) => a.at);
      const at: Path | Span = written?.at ?? ds.at;
      const key = c.key.join('.');
      // Python prints a float field's whole value as `1.0`.
      const shownValue = (a: TrainerValue) => pyShown(a.value, FIELDS[c.fields[read.indexOf(a)]]?.kind === 'float');
      const hfShown = pyShown(hf, c.fields.every((f) => FIELDS[f]?.kind === 'float'));
      const one = (a: TrainerValue) => (a.at ? `\`${a.spelled}\` is ${shownValue(a)}` : `\`${a.spelled}\` is not set (default ${shownValue(a)})`);
      // The values written are named; an unset one only when none is written.
      const shown = read.some((a) => a.at) ? read.filter((a) => a.at) : read.slice(0, 1);
      const recipeSide = c.fields.length === 1 && !world ? `${one(read[0])} here` : `${shown.map(one).join(' and ')}${world ? `, with ${world.value} processes (${describeProvenance(world.from)}),` : ','} so ${c.said ?? c.label} is ${hfShown}`;
      const related: RelatedSpec[] = [{ at: json.where(c.key), on: 'value', message: `\`${key}\` is ${pyShown(ds_)} here`, other }];
      // Where the JSON is named: the Accelerate config's `deepspeed_config_file` for a recipe launched through it.
      if (ds.named) related.push({ at: ds.named.at, on: 'value', message: `${ds.ref} is named here, and the Trainer takes it from Accelerate's DeepSpeed plugin`, other: ds.named.other });
      else if (written && at !== ds.at) related.push({ at: ds.at, on: 'value', message: ds.via ? `${ds.via} names ${ds.ref}` : `${ds.ref} is named here` });
      ctx.report({
        at,
        // Nothing written here: the recipe's first key stands for it.
        on: !written && ds.named ? 'key' : 'value',
        related,
        message: `${m.name} and ${ds.ref} disagree: ${recipeSide}, but ${ds.ref} sets \`${key}\` to ${pyShown(ds_)}. The Transformers Trainer compares the DeepSpeed values it does not fill and stops when training starts ("Please correct the following DeepSpeed config values that mismatch TrainingArguments values: - ds ${key}=${pyShown(ds_)} vs hf ${c.said ?? c.label}=${hfShown}"). Write the same value in both files, or \`"auto"\` in ${ds.ref} so the recipe decides.`,
      });
    });
  },
});
