/**
 * trainer-deepspeed-option-refused: TrainingArguments that `Trainer.__init__` refuses together with
 * DeepSpeed, each from the release that added the check.
 */
import type { TrainerModel } from '../formats/trainer/model';
import { defineRule, type RuleContext } from './rule';

/** `save_only_model` with `load_best_model_at_end` under DeepSpeed: trainer.py@v4.38.0 (first), @v4.57.6:5541-5547, wheel 5.18.0:874-881. */
function saveOnlyModel(ctx: RuleContext<TrainerModel>): void {
  const m = ctx.model;
  const save = m.arg('save_only_model');
  const best = m.arg('load_best_model_at_end');
  if (save.value !== true || best.value !== true || !save.at || !best.at) return;
  if (!ctx.atLeast('4.38.0')) return;
  ctx.report({
    at: save.at,
    on: 'entry',
    related: [{ at: best.at, on: 'entry', message: `\`${best.spelled}\` is on here` }, ...(m.deepspeedSet ? [{ at: m.deepspeedSet, on: 'entry' as const, message: 'DeepSpeed is asked for here' }] : [])],
    message: `\`${save.spelled}\` with \`${best.spelled}\` under DeepSpeed stops \`Trainer.__init__\` once the model has loaded, from Transformers 4.38.0 ("DeepSpeed can't be used with \`save_only_model\` along with \`load_best_model_at_end\`"): a model-only checkpoint cannot be reloaded into the DeepSpeed engine. Turn one of them off.`,
  });
}

/**
 * `auto_find_batch_size` under DeepSpeed. Transformers PR #29058 (February 2024, so in 4.39.0 at the
 * latest) made `Trainer.__init__` refuse it at any ZeRO stage ("`DeepSpeed` doesn't support
 * `auto_find_batch_size`."); PR #31731 (July 2024, so not in 4.42.x) narrowed the refusal to ZeRO-3
 * ("`auto_find_batch_size` isn't supported yet with DeepSpeed Zero-3", trainer.py@v4.45.0,
 * @v4.57.6:5549-5557, wheel 5.18.0:883-890). Only the releases on which the answer is certain report:
 * ZeRO-3 from 4.39.0; ZeRO 0-2 from 4.39.0 to 4.42.x (4.38.x and 4.43-4.44 are not settled: silence).
 */
function autoFindBatchSize(ctx: RuleContext<TrainerModel>): void {
  const m = ctx.model;
  const auto = m.arg('auto_find_batch_size');
  const json = m.deepspeed?.model;
  if (auto.value !== true || !auto.at || !json || json.stage === undefined) return;
  if (!ctx.atLeast('4.39.0')) return;
  const anyStage = !ctx.atLeast('4.43.0');
  if (json.stage !== 3 && !anyStage) return;
  // 4.43 and 4.44 have one check or the other (which, is not settled): no message is quoted for them.
  const quoted = anyStage ? ' ("`DeepSpeed` doesn\'t support `auto_find_batch_size`.")' : ctx.atLeast('4.45.0') ? ' ("`auto_find_batch_size` isn\'t supported yet with DeepSpeed Zero-3")' : '';
  const range = anyStage ? 'from Transformers 4.39.0 to 4.42.x, at any ZeRO stage' : 'from Transformers 4.39.0 (at any ZeRO stage until 4.42.x, at ZeRO-3 since)';
  ctx.report({
    at: auto.at,
    on: 'entry',
    related: [{ at: json.where(['zero_optimization', 'stage']), on: 'value', message: `ZeRO stage ${json.stage} is set here`, other: { path: m.deepspeed!.linked!.path!, doc: m.deepspeed!.linked!.analysis!.doc } }],
    message: `\`${auto.spelled}\` under DeepSpeed with ZeRO stage ${json.stage} (${m.deepspeed!.ref}) stops \`Trainer.__init__\` once the model has loaded, ${range}${quoted}. Set the batch size yourself${json.stage === 3 ? ', or use ZeRO-2 on Transformers 4.43 or newer' : ''}.`,
  });
}

export default defineRule<TrainerModel>({
  id: 'trainer-deepspeed-option-refused',
  severity: 'error',
  formats: ['trainer'],
  docs: {
    summary: 'TrainingArguments the Transformers Trainer refuses under DeepSpeed: `save_only_model` with `load_best_model_at_end` (from 4.38.0), `auto_find_batch_size` (at any ZeRO stage in 4.39 to 4.42, with ZeRO-3 since).',
    why: '`Trainer.__init__` checks these once the model has loaded and stops with a ValueError: "DeepSpeed can\'t be used with `save_only_model` along with `load_best_model_at_end`" (transformers `trainer.py` from 4.38.0) and, for `auto_find_batch_size`, at any ZeRO stage from 4.39.0 (a NotImplementedError, "`DeepSpeed` doesn\'t support `auto_find_batch_size`.", transformers PR #29058), then only with ZeRO-3 once PR #31731 narrowed it (in 4.43 or 4.44; a ValueError, "isn\'t supported yet with DeepSpeed Zero-3", in 4.45.0). Older releases run them; where the answer at a release is not settled (4.38.x for the batch-size finder, ZeRO-2 on 4.43 and 4.44) nothing is reported. Without a named release (`--target transformers=<version>`, a pin) the newest is assumed and the finding is a warning that says so.',
    bad: '# shardwise: transformers=4.57.6\nmodel_name_or_path: gpt2\noutput_dir: out\nper_device_train_batch_size: 4\nsave_only_model: true\nload_best_model_at_end: true\ndeepspeed: ds.json\n',
    good: '# shardwise: transformers=4.57.6\nmodel_name_or_path: gpt2\noutput_dir: out\nper_device_train_batch_size: 4\nload_best_model_at_end: true\ndeepspeed: ds.json\n',
    files: { 'ds.json': '{\n  "train_micro_batch_size_per_gpu": "auto",\n  "zero_optimization": { "stage": 2 }\n}\n' },
  },
  check(ctx) {
    if (!ctx.model.deepspeedSet || ctx.model.ownLoop) return;
    // Whether the Trainer reads these arguments at all (a launched script's parser may only be assumed).
    if (!ctx.model.trainerReads.value) return;
    ctx.separately(() => saveOnlyModel(ctx));
    ctx.separately(() => autoFindBatchSize(ctx));
  },
});
