/**
 * batch-size-mismatch: train_batch_size ≠ micro batch × gradient accumulation × data-parallel ranks.
 */
import { deepspeedReader } from './duplicate-key';
import { DS_BATCH_KEYS, ELASTICITY_SINCE, elasticBatch, type DeepSpeedModel } from '../formats/deepspeed/model';
import { layoutFits } from '../plan/layout';
import type { Path } from '../types';
import { defineRule, type FixSpec, type RelatedSpec, type RuleContext } from './rule';

export default defineRule<DeepSpeedModel>({
  id: 'batch-size-mismatch',
  severity: 'error',
  formats: ['deepspeed'],
  fixes: {
    'set-train-batch': { applicability: 'unsafe', changes: 'the batch size' },
    'set-accumulation': { applicability: 'unsafe', changes: 'gradient accumulation' },
  },
  docs: {
    summary: '`train_batch_size` is not `train_micro_batch_size_per_gpu` × `gradient_accumulation_steps` × the data-parallel ranks.',
    why: 'DeepSpeed asserts the batch identity when it reads the config ("Check batch related parameters. train_batch_size is not equal to micro_batch_per_gpu * gradient_acc_step * world_size"). Given two of the three it derives the third by integer division, so a global batch that does not divide silently truncates and then fails the same check. The data-parallel ranks are the world size divided by the sequence-parallel degree (from 0.17.0, when DeepSpeed is handed the config as a dict, as Accelerate and the Trainer do; a JSON path it opens itself counts every rank up to 0.18.5, so there for a file nothing names either count passes, and from 0.18.6 it loads the path into a dict first); AutoTP does not reduce them, since DeepSpeed checks the batch before it builds the tensor-parallel groups; Shardwise takes the world size from `world_size` in `.shardwise.yaml` or from the Accelerate configs that launch with the file, and without it checks what no world size could satisfy. Under an Accelerate config with Ulysses sequence parallelism (`parallelism_config_sp_size` above 1, Accelerate 1.12 on), Accelerate writes `train_batch_size` itself from its data-parallel size and hands DeepSpeed the sequence-parallel groups, so the file\'s value is not checked. With `elasticity.enabled` (DeepSpeed 0.3.9 on) DeepSpeed computes the three batch keys itself before the check: with `ignore_non_elastic_batch_info` true the file\'s values are overwritten and not checked; without it a batch key in the file stops DeepSpeed ("One or more batch related parameters were found in your ds_config …"), and so does a `micro_batch_sizes` entry above `max_train_batch_size`, a `min_gpus` above `max_gpus` (from 0.3.10, each key with its default) or a `model_parallel_size` above 1 with elasticity `version` 0.1.',
    bad: '{\n  "train_batch_size": 30,\n  "train_micro_batch_size_per_gpu": 4,\n  "gradient_accumulation_steps": 2,\n  "zero_optimization": { "stage": 2 }\n}\n',
    good: '{\n  "train_batch_size": 32,\n  "train_micro_batch_size_per_gpu": 4,\n  "gradient_accumulation_steps": 2,\n  "zero_optimization": { "stage": 2 }\n}\n',
    fix: 'Sets `train_batch_size` to the product, or `gradient_accumulation_steps` to the quotient when that is a whole number.',
    upstream: [
      { label: 'DeepSpeed v0.19.5, `runtime/config.py`: `train_batch_size` must equal micro batch × accumulation × world size', url: 'https://github.com/deepspeedai/DeepSpeed/blob/v0.19.5/deepspeed/runtime/config.py#L912-L927' },
    ],
  },
  check(ctx) {
    const m = ctx.model;
    const p = ctx.plan;
    // runtime/config.py (0.3.9 on): elasticity replaces the batch keys before the batch check.
    const elastic = ctx.atLeast(ELASTICITY_SINCE) ? elasticBatch(m) : undefined;
    if (elastic === 'refused') {
      const key = DS_BATCH_KEYS.find((k) => m.has([k]))!;
      ctx.report({
        at: m.where([key]),
        on: 'entry',
        related: [{ at: ['elasticity', 'enabled'], on: 'entry', message: 'elasticity is enabled here' }],
        message: `\`${key}\` is written while \`elasticity.enabled\` is on: elastic training computes the batch keys itself, and without \`elasticity.ignore_non_elastic_batch_info: true\` DeepSpeed stops when it reads the config ("One or more batch related parameters were found in your ds_config …"). Remove the batch keys, or set \`ignore_non_elastic_batch_info\` to true to have them overwritten.`,
      });
    }
    if (elastic) {
      elasticMicroAboveMax(ctx);
      elasticCrossChecks(ctx);
      return;
    }
    // Accelerate with Ulysses sequence parallelism (its `parallelism_config_sp_size` above 1, from
    // 1.12) rewrites `train_batch_size` from its own data-parallel size and hands DeepSpeed the SP
    // groups, so the file's value is never checked (accelerator.py@v1.14.0:2351-2356, 2385-2422).
    if (m.referrers.some((r) => r.spSize === 'unknown' || (r.spSize ?? 1) > 1)) return;
    const micro = positive(m, ['train_micro_batch_size_per_gpu']);
    const gas = positive(m, ['gradient_accumulation_steps']);
    const train = positive(m, ['train_batch_size']);
    // DP of a layout that does not fill its world is of GPUs that do not exist (plan/layout.ts).
    const fits = !p || layoutFits(p);
    let dp = fits ? p?.dp?.value : undefined;
    let dpWhy = p?.dp?.from.kind === 'derived' ? ` (${p.dp.from.formula}${p.world?.from.kind === 'derived' ? `; ${p.world.from.formula}` : ''})` : '';
    // deepspeed/__init__.py: the config (and its batch assertion) is built before the engine makes the
    // AutoTP groups, with no mpu, so the AutoTP degree does not reduce the ranks the check counts.
    const tp = p?.tp?.value ?? 1;
    if (dp !== undefined && tp > 1) {
      dp *= tp;
      dpWhy = ` (AutoTP ${tp} does not reduce them: DeepSpeed checks the batch before it builds the tensor-parallel groups)`;
    }
    // runtime/config.py: DeepSpeed divides the world by `sequence_parallel_size` only from 0.17.0;
    // before, without an mpu or a `data_parallel_size` mesh, every rank counts.
    const sp = p?.spDegree?.value ?? 1;
    if (dp !== undefined && sp > 1 && m.get(['data_parallel_size']) === undefined && !ctx.atLeast('0.17.0')) {
      dp *= sp;
      dpWhy = ` (every rank: DeepSpeed ${ctx.versionLabel ?? 'before 0.17.0'} does not divide the world by \`sequence_parallel_size\`)`;
    }
    // From 0.17.0 the division is `"sequence_parallel_size" in config`, where config is what DeepSpeed
    // was given: a key test for a dict (Accelerate, the Trainer), and up to 0.18.5 a substring test on
    // the path of a JSON file DeepSpeed opens itself (every rank counts). Which one runs is not known
    // for a file nothing names: a batch that adds up either way is not called wrong. From 0.18.6
    // deepspeed.initialize loads a path into a dict first (__init__.py@v0.18.6:179-180), so the world
    // is divided either way.
    const both = dp !== undefined && sp > 1 && m.get(['data_parallel_size']) === undefined && ctx.atLeast('0.17.0') && !ctx.atLeast('0.18.6') && deepspeedReader(ctx) === 'deepspeed' ? dp * sp : undefined;
    const trainAt = m.where(['train_batch_size']);
    if (train !== undefined && micro !== undefined && gas !== undefined) {
      const per = micro * gas;
      if (dp !== undefined) {
        if (train === per * dp || (both !== undefined && train === per * both)) return;
        const fixes: FixSpec[] = [{ kind: 'set-train-batch', title: `Set train_batch_size to ${per * dp}`, edits: [{ op: 'set', path: trainAt, value: per * dp }], recommended: true }];
        if (train % (micro * dp) === 0) fixes.push({ kind: 'set-accumulation', title: `Set gradient_accumulation_steps to ${train / (micro * dp)}`, edits: [{ op: 'set', path: m.where(['gradient_accumulation_steps']), value: train / (micro * dp) }] });
        ctx.report({
          at: trainAt,
          on: 'value',
          related: batchLines(m),
          message: `train_batch_size ${train} ≠ micro batch ${micro} × gradient accumulation ${gas} × ${dp} data-parallel rank${dp === 1 ? '' : 's'}${dpWhy} = ${per * dp}: DeepSpeed stops when it reads the config ("train_batch_size is not equal to micro_batch_per_gpu * gradient_acc_step * world_size"). Make it ${per * dp}, or change the micro batch or accumulation.`,
          fixes,
        });
      } else if (train % per !== 0 && fits) {
        ctx.report({
          at: trainAt,
          on: 'value',
          related: batchLines(m),
          message: `train_batch_size ${train} is not a multiple of micro batch ${micro} × gradient accumulation ${gas} = ${per}, so no number of data-parallel ranks satisfies DeepSpeed's batch check (it stops at startup). Use a multiple of ${per} (the world size is not known here: set \`world_size\` in .shardwise.yaml, or open the Accelerate config that uses this file, to check the exact value).`,
          fixes: [{ kind: 'set-train-batch', title: `Set train_batch_size to ${Math.max(per, Math.round(train / per) * per)}`, edits: [{ op: 'set', path: trainAt, value: Math.max(per, Math.round(train / per) * per) }], recommended: true }],
        });
      }
      return;
    }
    // Two of the three: DeepSpeed derives the third by integer division.
    if (dp === undefined || train === undefined) return;
    if (micro !== undefined && gas === undefined && train % (micro * dp) !== 0) {
      ctx.report({
        at: trainAt,
        on: 'value',
        message: `train_batch_size ${train} is not divisible by micro batch ${micro} × ${dp} data-parallel ranks${dpWhy}: DeepSpeed derives gradient accumulation as ${train} // ${micro * dp} = ${Math.floor(train / (micro * dp))} and then fails its batch check. Use a multiple of ${micro * dp}.`,
        fixes: [{ kind: 'set-train-batch', title: `Set train_batch_size to ${Math.max(1, Math.round(train / (micro * dp))) * micro * dp}`, edits: [{ op: 'set', path: trainAt, value: Math.max(1, Math.round(train / (micro * dp))) * micro * dp }], recommended: true }],
      });
    } else if (gas !== undefined && micro === undefined && train % (gas * dp) !== 0) {
      ctx.report({
        at: trainAt,
        on: 'value',
        message: `train_batch_size ${train} is not divisible by gradient accumulation ${gas} × ${dp} data-parallel ranks${dpWhy}: DeepSpeed derives the micro batch as ${train} // ${gas * dp} = ${Math.floor(train / (gas * dp))} and then fails its batch check. Use a multiple of ${gas * dp}.`,
      });
    } else if (micro === undefined && gas === undefined && train % dp !== 0) {
      ctx.report({
        at: trainAt,
        on: 'value',
        message: `train_batch_size ${train} is not divisible by the ${dp} data-parallel ranks${dpWhy}: DeepSpeed derives the micro batch as ${train} // ${dp} = ${Math.floor(train / dp)} and then fails its batch check. Use a multiple of ${dp}.`,
      });
    }
  },
});

function positive(m: DeepSpeedModel, path: Path): number | undefined {
  const v = m.num(path);
  return v !== undefined && Number.isInteger(v) && v >= 1 ? v : undefined;
}

/** Where the micro batch and the gradient accumulation are written (the other two factors). */
function batchLines(m: DeepSpeedModel): RelatedSpec[] {
  return (['train_micro_batch_size_per_gpu', 'gradient_accumulation_steps'] as const).map((k) => ({ at: m.where([k]), on: 'entry' as const, message: `${k} is ${String(m.get([k]))} here` }));
}

/**
 * The other checks between two elasticity keys that DeepSpeed makes when it reads the config with
 * elasticity on: `min_gpus` above `max_gpus` (each with its default, 1 and 10000: elasticity/config.py
 * @v0.3.10:89, @v0.19.5:83-85; DeepSpeed 0.3.9 does not compare them), and a `model_parallel_size`
 * above 1 with version 0.1, which has no model-parallel logic (elasticity/elasticity.py@v0.7.0, where
 * both keys arrive, @v0.19.5:291-294).
 */
function elasticCrossChecks(ctx: RuleContext<DeepSpeedModel>): void {
  const m = ctx.model;
  // Each on its own: what one reads does not weigh on the other's finding.
  ctx.separately(() => {
    // Only a written `min_gpus` can exceed a `max_gpus` of 1 or more (its default is 1).
    if (!ctx.atLeast('0.3.10') || !m.has(['elasticity', 'min_gpus'])) return;
    const min = m.num(['elasticity', 'min_gpus']);
    const max = m.has(['elasticity', 'max_gpus']) ? m.num(['elasticity', 'max_gpus']) : 10000;
    if (min === undefined || max === undefined || max < 1 || min <= max) return;
    ctx.report({
      at: ['elasticity', 'min_gpus'],
      message: `\`elasticity.min_gpus\` ${min} is above \`max_gpus\` ${max}${m.has(['elasticity', 'max_gpus']) ? '' : ' (its default)'}: no GPU count lies between them, and with elasticity on DeepSpeed stops when it reads the config ("Elasticity min_gpus cannot be greater than max_gpus"). Lower \`min_gpus\` or raise \`max_gpus\`.`,
    });
  });
  ctx.separately(() => {
    const mp = m.num(['elasticity', 'model_parallel_size']);
    if (!ctx.atLeast('0.7.0') || mp === undefined || mp <= 1 || m.num(['elasticity', 'version']) !== 0.1) return;
    ctx.report({
      at: ['elasticity', 'model_parallel_size'],
      message: `\`elasticity.model_parallel_size\` ${mp} with \`version\` 0.1: only elasticity version 0.2 takes model parallelism into account, and DeepSpeed stops when it computes the elastic batch ("Elasticity V0.1 does not support model-parallel training"). Use \`version\` 0.2 (the default from DeepSpeed 0.7.0), or a model-parallel size of 1.`,
    });
  });
}

/**
 * Elastic training sizes the batch from `micro_batch_sizes` up to `max_train_batch_size`, and
 * refuses a micro-batch above that bound when it reads the config (elasticity/elasticity.py
 * `_get_compatible_gpus_v01`, which versions 0.1 and 0.2 both run: @v0.3.9:150-153, @v0.19.5:107-109).
 */
function elasticMicroAboveMax(ctx: RuleContext<DeepSpeedModel>): void {
  const m = ctx.model;
  const max = m.num(['elasticity', 'max_train_batch_size']);
  const micros = m.get(['elasticity', 'micro_batch_sizes']);
  if (max === undefined || !Array.isArray(micros) || !micros.every((v) => typeof v === 'number')) return;
  const above = (micros as number[]).filter((v) => v > max);
  if (!above.length) return;
  ctx.report({
    at: ['elasticity', 'max_train_batch_size'],
    message: `\`elasticity.micro_batch_sizes\` has ${above.join(', ')}, above \`max_train_batch_size\` ${max}: elastic training builds its batch from those micro-batches up to that bound, and DeepSpeed stops when it reads the config ("All micro batches must be less than or equal to max_acceptable_batch_size"). Raise \`max_train_batch_size\`, or drop the larger micro-batches.`,
  });
}

