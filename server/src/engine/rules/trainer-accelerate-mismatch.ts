/**
 * trainer-accelerate-mismatch: a recipe launched with `accelerate launch --config_file acc.yaml
 * train.py recipe.yaml` whose Accelerate DeepSpeed plugin (no DeepSpeed JSON) sets a value the
 * Transformers Trainer compares with the recipe's TrainingArguments, and the two differ.
 */
import { versionAtLeast } from '../version';
import { launchSpellings } from '../formats/accelerate/helpers';
import type { TrainerModel, TrainerValue } from '../formats/trainer/model';
import { pyShown } from '../formats/trainer/releases';
import { trainerChecks } from './helpers';
import { defineRule } from './rule';

/**
 * The plugin values the Trainer compares: DeepSpeedPlugin writes `gradient_accumulation_steps` into
 * the config it builds (an integer when the YAML gives one; `auto` when absent from 0.23.0, 1 before)
 * and `gradient_clipping` when it is set and not 0 (accelerate utils/dataclasses.py@v1.10.0:1261-1282,
 * the launcher exporting both from the YAML: utils/launch.py@v1.10.0:506-509).
 */
const COMPARED = [
  { key: 'gradient_accumulation_steps', field: 'gradient_accumulation_steps', option: '--gradient_accumulation_steps', valid: (v: unknown) => Number.isInteger(v) },
  { key: 'gradient_clipping', field: 'max_grad_norm', option: '--gradient_clipping', valid: (v: unknown) => typeof v === 'number' && v !== 0 },
] as const;

export default defineRule<TrainerModel>({
  id: 'trainer-accelerate-mismatch',
  severity: 'error',
  formats: ['trainer'],
  docs: {
    summary: 'A recipe launched through `accelerate launch --config_file acc.yaml train.py recipe.yaml` whose Accelerate DeepSpeed plugin sets `gradient_accumulation_steps` or `gradient_clipping` to another value than the recipe\'s.',
    why: 'With a DeepSpeed plugin and no DeepSpeed JSON, Accelerate builds the DeepSpeed config from the plugin\'s keys (accelerate `utils/dataclasses.py`, DeepSpeedPlugin), and the Transformers Trainer checks it against its TrainingArguments as it checks a JSON (`propagate_args_to_deepspeed`, then `HfTrainerDeepSpeedConfig.trainer_config_process`): `gradient_accumulation_steps` against the recipe\'s, `gradient_clipping` against `max_grad_norm`. A difference stops the run once training starts ("Please correct the following DeepSpeed config values that mismatch TrainingArguments values", transformers `integrations/deepspeed.py`, 4.30 to 5.x). Write the same value in both files, or remove the key from the Accelerate config so the recipe decides.',
    bad: 'model_name_or_path: Qwen/Qwen2.5-7B\noutput_dir: out\nper_device_train_batch_size: 4\ngradient_accumulation_steps: 8\nlearning_rate: 2.0e-5\nbf16: true\n',
    good: 'model_name_or_path: Qwen/Qwen2.5-7B\noutput_dir: out\nper_device_train_batch_size: 4\ngradient_accumulation_steps: 1\nlearning_rate: 2.0e-5\nbf16: true\n',
    files: { 'zero3.yaml': 'compute_environment: LOCAL_MACHINE\ndistributed_type: DEEPSPEED\ndeepspeed_config:\n  gradient_accumulation_steps: 1\n  zero_stage: 3\nnum_machines: 1\nnum_processes: 8\n' },
    referrers: { 'train.sh': '#!/bin/bash\naccelerate launch --config_file zero3.yaml sft.py --config example.yaml\n' },
  },
  check(ctx) {
    const m = ctx.model;
    const acc = m.accelerate;
    // A recipe that names its own JSON is checked against it (trainer-deepspeed-mismatch); a plugin with a JSON file builds nothing from its keys.
    if (!acc || m.deepspeedSet || acc.open || acc.model.distributedType !== 'DEEPSPEED' || acc.model.deepspeedFile) return;
    if (acc.model.view.get(['deepspeed_config', 'deepspeed_config_file']) !== undefined) return;
    // The Trainer builds and compares the plugin's config from 4.30 (the oldest read; trainer.py then
    // `create_accelerator_and_postprocess`) to 5.x (`propagate_args_to_deepspeed`).
    if (!trainerChecks(ctx)) return;
    // Accelerate before 0.23.0 writes `gradient_accumulation_steps: 1` into the config when its plugin
    // has none (utils/dataclasses.py DeepSpeedPlugin.__post_init__, the env default), not "auto": known
    // only where the Accelerate release is named.
    const accRelease = ctx.settings.targetVersions?.accelerate;
    const oneWhenAbsent = accRelease !== undefined && !versionAtLeast(accRelease, '0.23.0');
    ctx.each(COMPARED, (c) => {
      const path = ['deepspeed_config', c.key];
      const absent = c.key === 'gradient_accumulation_steps' && oneWhenAbsent && acc.model.view.get(path) === undefined;
      const v = absent ? 1 : acc.model.view.get(path);
      // The command's own option wins over the file's (accelerate commands/launch.py).
      if (!c.valid(v) || launchSpellings(c.option).some((o) => acc.options.includes(o))) return;
      const a: TrainerValue = m.arg(c.field);
      if (typeof a.value !== 'number' || a.value === v) return;
      const where = acc.model.view.source(path) ?? path;
      const float = c.field === 'max_grad_norm';
      // An unset value has no place here: the finding goes on the recipe's first key.
      const first = m.doc.root?.kind === 'map' ? m.doc.root.entries[0]?.key : undefined;
      if (!a.at && first === undefined) return;
      const shown = a.at ? `\`${a.spelled}\` is ${pyShown(a.value, float)}` : `\`${a.spelled}\` is not set (default ${pyShown(a.value, float)})`;
      ctx.report({
        at: a.at ?? [first!],
        on: a.at ? 'value' : 'key',
        related: absent ? undefined : [{ at: where, on: 'value', message: `\`${c.key}\` is ${pyShown(v as number, float)} here`, other: { path: acc.path, doc: acc.doc } }],
        message: `${m.name} and ${acc.ref} disagree: ${shown} here, but ${acc.ref} (the Accelerate config ${acc.script} launches this recipe with) ${absent ? `has no \`deepspeed_config.${c.key}\`, which Accelerate ${accRelease} (before 0.23.0) writes as 1` : `sets \`deepspeed_config.${c.key}\` to ${pyShown(v as number, float)}`}. With no DeepSpeed JSON, Accelerate builds the DeepSpeed config from that plugin and the Transformers Trainer compares it with the recipe, stopping when training starts ("Please correct the following DeepSpeed config values that mismatch TrainingArguments values: - ds ${c.key}=${pyShown(v as number, float)} vs hf ${c.field}=${pyShown(a.value, float)}"). Write the same value in both files${oneWhenAbsent && c.key === 'gradient_accumulation_steps' ? '' : `, or remove \`${c.key}\` from ${acc.ref} so the recipe decides`}.`,
      });
    });
  },
});
