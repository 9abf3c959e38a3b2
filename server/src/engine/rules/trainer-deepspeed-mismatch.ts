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
import { compareVersions } from '../version';

/** The JSON's value, when the Trainer compares it: present, not `"auto"`, a number, a boolean, a list of numbers, or a string where the Trainer's value is one. */
function comparable(v: unknown, c: Compared): v is number | boolean | string | number[] {
  if (c.text) return typeof v === 'string' && v !== 'auto';
  return typeof v === 'number' || typeof v === 'boolean' || (Array.isArray(v) && v.every((x) => typeof x === 'number'));
}

/**
 * When the recipe turns on one half precision and the JSON enables the other (`"enabled": true`), the
 * run stops before the Trainer's own comparison is raised: TrainingArguments hand the recipe's
 * precision to Accelerate (training_args.py@v4.57.6:1872-1878, 2092-2099; 5.18.0:1580-1586, trainer.py
 * @5.18.0:732), and the Accelerator that `Trainer.__init__` creates (trainer.py@v4.57.6:458, 5512)
 * calls the DeepSpeed plugin's `set_mixed_precision`, which refuses the pair (at every accelerate tag from 0.26.0 to 1.14.0:
 * accelerator.py@v0.26.0:305-309, state.py@v1.10.0:964-967 and @v1.14.0:975; the raise in
 * utils/dataclasses.py@v0.26.0:791, @v1.14.0:1438). Transformers 4.57.6 needs Accelerate 0.26.0 or later
 * and 5.18.0 needs 1.1.0 (utils/import_utils.py ACCELERATE_MIN_VERSION), so from 4.57.6 every
 * Accelerate it runs with does this; older Transformers releases were not read for it.
 */
function precisionRefusal(release: string | undefined, c: Compared, ds: unknown, m: TrainerModel): string | undefined {
  if (c.key[1] !== 'enabled' || (c.key[0] !== 'fp16' && c.key[0] !== 'bf16') || ds !== true) return undefined;
  if (release !== undefined && compareVersions(release, '4.57.6') < 0) return undefined;
  const fp16 = m.arg('fp16').value;
  const handed = fp16 === true ? 'fp16' : fp16 === false && m.arg('bf16').value === true ? 'bf16' : undefined;
  if (!handed || handed === c.key[0]) return undefined;
  return `The run stops before training, when \`Trainer.__init__\` creates its Accelerator: the Trainer hands Accelerate \`${handed}\` as the mixed precision, and Accelerate refuses it beside an enabled \`${c.key[0]}\` section ("\`--mixed_precision\` arg cannot be set to \`${handed}\` when \`${c.key[0]}\` is set in the DeepSpeed config file."); past it, the Trainer's own comparison would stop the run too.`;
}

/** The release after `version` (`4.57.6` → `4.57.7`): "later than" as `atLeast` asks it. */
function nextPatch(version: string): string {
  const p = version.split('.');
  p[p.length - 1] = String(Number(p[p.length - 1]) + 1);
  return p.join('.');
}

export default defineRule<TrainerModel>({
  id: 'trainer-deepspeed-mismatch',
  severity: 'error',
  formats: ['trainer'],
  docs: {
    summary: 'A value in the DeepSpeed JSON a fine-tuning recipe names (`deepspeed: ds.json`, `--deepspeed ds.json`) that differs from the recipe\'s TrainingArguments: micro batch, accumulation, `train_batch_size`, gradient clipping, optimizer and scheduler parameters, the scheduler\'s step counts, fp16/bf16 (and Apex\'s amp, to 4.57).',
    why: 'The Transformers Trainer (directly, or under TRL, LLaMA-Factory, axolotl or a `train.py --deepspeed` launch) fills the JSON\'s `"auto"` values from its TrainingArguments and compares the explicit ones: `train_micro_batch_size_per_gpu` with `per_device_train_batch_size`, `gradient_accumulation_steps`, `train_batch_size` with world size × micro batch × accumulation, `gradient_clipping` with `max_grad_norm`, the optimizer\'s `lr`, `betas`, `eps`, `weight_decay`, the scheduler\'s `warmup_max_lr` with `learning_rate`, `fp16.enabled`/`bf16.enabled` with `fp16`/`bf16`, and up to 4.57 Apex\'s `amp.enabled` (off unless `fp16_backend: apex`) and `amp.opt_level` with `fp16_opt_level` (default O1); once training starts it also compares the scheduler\'s `total_num_steps` with the steps it trains (`max_steps` when set) and `warmup_num_steps` with its warmup (`warmup_steps`; to 4.57 with `warmup_steps` 0 it is the steps × `warmup_ratio`, rounded up, and in 5.x a `warmup_steps` below 1 is that ratio). Every difference is collected and raised together once training starts, after the model has loaded ("Please correct the following DeepSpeed config values that mismatch TrainingArguments values"; transformers `integrations/deepspeed.py`, 4.30 to 5.x). `train_batch_size` is checked only when the launcher says how many processes run, and the step counts only when `max_steps` says how many steps run (otherwise they come from the dataset\'s length). Write the same value in both files, or `"auto"` in the JSON so the recipe decides.',
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
      if (!comparable(ds_, c)) return;
      // The deprecated `fp16_backend: apex` turns the Trainer's fp16 value off (integrations/deepspeed.py@v4.57.6:172-190): not read here.
      if ((c.key[0] === 'fp16' || c.key[0] === 'amp') && m.writes('fp16_backend')) return;
      // A key compared only up to a release: a later one (or one not named) does not.
      if (c.upTo && ctx.atLeast(nextPatch(c.upTo))) return;
      // `auto_find_batch_size` makes the Trainer fill the batch keys without comparing them
      // (integrations/deepspeed.py@v4.57.6:124-160, `must_match = not auto_find_batch_size`).
      // Read on its own: a program that may set it (axolotl) leaves it unknown, and only a known true skips.
      if ((c.key[0] === 'train_micro_batch_size_per_gpu' || c.key[0] === 'train_batch_size') && ctx.separately(() => m.arg('auto_find_batch_size').value === true)) return;
      // Only the fields the Trainer's value rests on are read, each once.
      const read: TrainerValue[] = [];
      const names: string[] = [];
      const get = (f: string) => {
        const i = names.indexOf(f);
        if (i >= 0) return read[i].value;
        const a = m.arg(f);
        names.push(f);
        read.push(a);
        return a.value;
      };
      const world = c.world ? m.world : undefined;
      if (c.world && world?.value === undefined) return;
      const hf = c.value(get, world?.value, (v) => ctx.atLeast(v), (f) => m.writes(f));
      if (hf === undefined || pyEqual(ds_, hf)) return;
      // Wording only, read on its own so it weighs on nothing: which refusal the run meets first.
      const refusal = ctx.separately(() => precisionRefusal(ctx.schemaVersion, c, ds_, m));
      // Written here, or set by the command that launches the recipe (then the key it replaces, if any).
      const isSet = (a: TrainerValue) => a.at !== undefined || a.over !== undefined;
      const written = read.find(isSet);
      const at: Path | Span = written?.at ?? ds.at;
      const key = c.key.join('.');
      // How the Trainer's message names its value; to 4.57.x fp16's says the amp backend (v4.57.6:186-190). Wording only: not a judgement on the release.
      const said = c.key[0] === 'fp16' && ctx.schemaVersion !== undefined && compareVersions(ctx.schemaVersion, '4.57.6') <= 0 ? 'fp16|fp16_full_eval+fp16_backend(amp)' : (c.said ?? c.label);
      // Python prints a float field's whole value as `1.0`.
      const shownValue = (a: TrainerValue) => pyShown(a.value, FIELDS[names[read.indexOf(a)]]?.kind === 'float');
      const hfShown = pyShown(hf, names.every((f) => FIELDS[f]?.kind === 'float'));
      const one = (a: TrainerValue) => (a.by ? `\`${a.spelled}\` is ${shownValue(a)} (${a.by})` : a.at ? `\`${a.spelled}\` is ${shownValue(a)}` : `\`${a.spelled}\` is not set (default ${shownValue(a)})`);
      // The values written are named; an unset one only when none is written.
      const shown = read.some(isSet) ? read.filter(isSet) : read.slice(0, 1);
      const recipeSide = read.length === 1 && names[0] === c.label && !c.said && !world && pyEqual(read[0].value, hf) ? `${one(read[0])}${read[0].by ? '' : ' here'}` : `${shown.map(one).join(' and ')}${world ? `, with ${world.value} processes (${describeProvenance(world.from)}),` : ','} so ${c.said ?? c.label} is ${hfShown}`;
      const related: RelatedSpec[] = [{ at: json.where(c.key), on: 'value', message: `\`${key}\` is ${pyShown(ds_)} here`, other }];
      // The command line that sets the value the Trainer gets, over the recipe's.
      for (const a of read) if (a.over && a.by) related.push({ at: a.over.span, message: `${a.by}, over ${m.name}`, other: { path: a.over.path, doc: a.over.doc } });
      // Where the JSON is named: the Accelerate config's `deepspeed_config_file` for a recipe launched through it.
      if (ds.named) related.push({ at: ds.named.at, on: 'value', message: `${ds.ref} is named here, and the Trainer takes it from Accelerate's DeepSpeed plugin`, other: ds.named.other });
      else if (written?.at && at !== ds.at) related.push({ at: ds.at, on: 'value', message: ds.via ? `${ds.via} names ${ds.ref}` : `${ds.ref} is named here` });
      ctx.report({
        at,
        // Nothing written here: the recipe's first key stands for it.
        on: !written?.at && ds.named ? 'key' : 'value',
        related,
        message: `${m.name} and ${ds.ref} disagree: ${recipeSide}, but ${ds.ref} sets \`${key}\` to ${pyShown(ds_)}. ${refusal ?? `The Transformers Trainer compares the DeepSpeed values it does not fill and stops when training starts ("Please correct the following DeepSpeed config values that mismatch TrainingArguments values: - ds ${key}=${pyShown(ds_)} vs hf ${said}=${hfShown}").`} Write the same value in both files, or \`"auto"\` in ${ds.ref} so the recipe decides.`,
      });
    });
  },
});
