/**
 * trainer-accelerate-precision: the mixed precision `accelerate launch` hands a Trainer recipe
 * (`--mixed_precision`, or the Accelerate config's `mixed_precision`) against the recipe's
 * `fp16`/`bf16`.
 */
import type { LaunchPrecision, TrainerModel, TrainerValue } from '../formats/trainer/model';
import type { Path } from '../types';
import { trainerChecks } from './helpers';
import { defineRule, type RelatedSpec, type RuleContext } from './rule';

/** The oldest Transformers release whose precision hand-over was read (training_args.py@v4.57.6:1872-1878, 2081-2099; 5.18.0:1580-1586, 1684-1689). */
const READ_FROM = '4.57.6';

/** The precision the recipe asks for, as TrainingArguments hands it on (`fp16` first, then `bf16`), or undefined when not known. */
function recipePrecision(fp16: TrainerValue, bf16: TrainerValue, fp16Eval: TrainerValue): 'fp16' | 'bf16' | 'none' | undefined {
  if (fp16.value === true) return 'fp16';
  if (fp16.value !== false) return undefined;
  if (bf16.value === true) return 'bf16';
  // The Trainer's DeepSpeed comparison takes fp16_full_eval with fp16 and bf16_full_eval with bf16
  // (integrations/deepspeed.py@v4.57.6:186-197); unasked() reads the bf16 one for a bf16 launch.
  return bf16.value === false && fp16Eval.value === false ? 'none' : undefined;
}

function relatedOf(p: LaunchPrecision): RelatedSpec {
  return { at: p.at, on: 'value', message: `the launch hands the Trainer \`${p.value}\` here`, ...(p.other ? { other: p.other } : {}) };
}

/** The recipe asks for one precision and the launch for another: the recipe's runs. */
function overridden(ctx: RuleContext<TrainerModel>, p: LaunchPrecision, mine: 'fp16' | 'bf16', v: TrainerValue): void {
  // Next to a DeepSpeed JSON Accelerate refuses the config's own `mixed_precision` (deepspeed-config-file-conflict).
  if (p.value === mine || !v.at || (p.jsonFile && p.fromConfig)) return;
  ctx.report({
    at: v.at,
    on: 'entry',
    related: [relatedOf(p)],
    severity: 'warning',
    message: `${ctx.model.name} asks for ${mine} (\`${v.spelled}\`), and ${p.said} asks for \`${p.value}\`: the recipe wins. TrainingArguments replace the precision Accelerate exports (ACCELERATE_MIXED_PRECISION) with their own when \`fp16\` or \`bf16\` is on, so the run trains in ${mine} and the launch's \`${p.value}\` is silently unused. Write the same precision in both places.`,
  });
}

/** The recipe asks for neither: the launch's precision is what runs (or, under DeepSpeed, what stops the run). */
function unasked(ctx: RuleContext<TrainerModel>, p: LaunchPrecision, at: Path, on: 'entry' | 'key'): void {
  const m = ctx.model;
  if (!['fp16', 'bf16', 'fp8'].includes(p.value) || p.deepspeed === undefined) return;
  const related = [relatedOf(p)];
  if (!p.deepspeed) {
    ctx.report({
      at,
      on,
      related,
      severity: 'warning',
      message: `${m.name} turns neither \`fp16\` nor \`bf16\` on, but ${p.said} asks for \`${p.value}\`: TrainingArguments keep the precision Accelerate exports when the recipe sets none, so the run trains in ${p.value} mixed precision, not in full precision as the recipe reads. Turn \`${p.value === 'fp16' ? 'fp16' : 'bf16'}\` on in the recipe, or set \`mixed_precision: no\` for full precision.`,
    });
    return;
  }
  // fp8 fills the plugin's bf16 section from Accelerate 0.34.0 (utils/dataclasses.py@v0.34.0; not @v0.33.0), and the Accelerate release is not resolved here: not settled.
  if (p.value === 'fp8') return;
  // The Trainer compares the section with `bf16 or bf16_full_eval` (`fp16 or fp16_full_eval`, which
  // recipePrecision has read): full-precision training with bf16 evaluation matches a bf16 launch.
  if (p.value === 'bf16' && m.arg('bf16_full_eval').value !== false) return;
  const json = m.deepspeed?.model;
  if (p.jsonFile) {
    // Accelerate refuses the config's own value next to a JSON; a JSON that decides the section itself is compared by trainer-deepspeed-mismatch.
    if (p.fromConfig || !json) return;
    const own = json.get([p.value, 'enabled']);
    const other = json.get([p.value === 'fp16' ? 'bf16' : 'fp16', 'enabled']);
    if ((own !== undefined && own !== 'auto') || String(other).toLowerCase() === 'true') return;
  }
  ctx.report({
    at,
    on,
    related,
    message: `${m.name} turns neither \`fp16\` nor \`bf16\` on, but ${p.said} asks for \`${p.value}\` under DeepSpeed: Accelerate's DeepSpeed plugin writes \`"${p.value}": {"enabled": true}\` into the DeepSpeed config (set_mixed_precision), and the Transformers Trainer compares that with the recipe's \`${p.value}\` (False) and stops when training starts ("Please correct the following DeepSpeed config values that mismatch TrainingArguments values"). Turn \`${p.value}\` on in the recipe, or hand the launch \`mixed_precision: no\`.`,
  });
}

export default defineRule<TrainerModel>({
  id: 'trainer-accelerate-precision',
  severity: 'error',
  formats: ['trainer'],
  docs: {
    summary: 'A recipe launched with `accelerate launch` (its config\'s `mixed_precision`, or `--mixed_precision`) whose `fp16`/`bf16` ask for another precision.',
    why: '`accelerate launch` exports the precision it is given (ACCELERATE_MIXED_PRECISION). The Transformers TrainingArguments replace it with `fp16` or `bf16` when the recipe turns one on, and keep it when the recipe turns neither on (transformers `training_args.py`, from 4.57.6 to 5.18.0, the releases read). So a recipe with `bf16: true` launched with `mixed_precision: fp16` trains in bf16, and the launch\'s value is silently unused (a warning); a recipe with neither trains in the launch\'s precision, not in full precision (a warning), and under DeepSpeed through Accelerate\'s plugin it stops: the plugin writes the launch\'s precision into the DeepSpeed config, and the Trainer compares it with the recipe\'s `fp16`/`bf16` (each taken together with its `_full_eval` switch: full-precision training with bf16 evaluation matches a bf16 launch) ("Please correct the following DeepSpeed config values that mismatch TrainingArguments values"; an error). Transformers releases before 4.57.6 are not judged. Write the same precision in both places.',
    bad: 'model_name_or_path: Qwen/Qwen2.5-7B\noutput_dir: out\nper_device_train_batch_size: 4\nlearning_rate: 2.0e-5\nfp16: false\nbf16: false\n',
    good: 'model_name_or_path: Qwen/Qwen2.5-7B\noutput_dir: out\nper_device_train_batch_size: 4\nlearning_rate: 2.0e-5\nfp16: false\nbf16: true\n',
    files: { 'zero2.yaml': 'compute_environment: LOCAL_MACHINE\ndistributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_stage: 2\nmixed_precision: bf16\nnum_machines: 1\nnum_processes: 8\n' },
    referrers: { 'train.sh': '#!/bin/bash\naccelerate launch --config_file zero2.yaml sft.py --config example.yaml\n' },
  },
  check(ctx) {
    const m = ctx.model;
    const p = m.precision;
    if (!p || m.ownLoop || !trainerChecks(ctx) || !ctx.atLeast(READ_FROM)) return;
    const fp16 = m.arg('fp16');
    const bf16 = m.arg('bf16');
    const mine = recipePrecision(fp16, bf16, m.arg('fp16_full_eval'));
    if (mine === undefined) return;
    if (mine !== 'none') {
      overridden(ctx, p, mine, mine === 'fp16' ? fp16 : bf16);
      return;
    }
    const first = m.doc.root?.kind === 'map' ? m.doc.root.entries[0]?.key : undefined;
    const at = bf16.at ?? fp16.at ?? (first !== undefined ? [first] : undefined);
    if (at) unasked(ctx, p, at, bf16.at ?? fp16.at ? 'entry' : 'key');
  },
});
