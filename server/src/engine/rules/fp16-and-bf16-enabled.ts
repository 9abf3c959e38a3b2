/**
 * fp16-and-bf16-enabled: both 16-bit precisions switched on (DeepSpeed's `fp16` and `bf16`
 * sections, Megatron's `--fp16` and `--bf16`).
 */
import type { DeepSpeedModel } from '../formats/deepspeed/model';
import { inFormat } from '../formats/megatron/checks';
import { argOn, MEGATRON_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { argumentChecks } from '../formats/megatron/runtime';
import type { TrainerModel } from '../formats/trainer/model';
import { keyAtRelease, trainerChecks } from './helpers';
import { defineRule, type RuleContext } from './rule';

/**
 * A Trainer recipe: `fp16` with `bf16` (or `fp16_full_eval` with `bf16_full_eval`) stops
 * TrainingArguments.__post_init__ (training_args.py@v4.30.0:1301-1305, @v4.57.6:1750-1754, wheel 5.18.0:1753).
 */
function trainer(ctx: RuleContext<TrainerModel>): void {
  const m = ctx.model;
  if (!trainerChecks(ctx)) return;
  for (const [fp, bf, what] of [['fp16', 'bf16', ''], ['fp16_full_eval', 'bf16_full_eval', ' for full evaluation']] as const) {
    ctx.separately(() => {
      const a = m.arg(fp);
      const b = m.arg(bf);
      if (a.value !== true || b.value !== true || !a.at || !b.at) return;
      ctx.report({
        at: a.at,
        on: 'entry',
        related: [{ at: b.at, on: 'entry', message: `\`${b.spelled}\` is on here too` }],
        message: `\`${a.spelled}\` and \`${b.spelled}\` are both on: the Transformers TrainingArguments stop before the model loads ("At most one of fp16 and bf16 can be True${what ? ' for full eval' : ''}, but not both"). Keep one: bf16 on Ampere or newer GPUs, fp16 on older ones.`,
      });
    });
  }
}

/**
 * Megatron: `--fp16` with `--bf16`. TransformerConfig.__post_init__ raises at every release
 * (transformer_config.py@core_v0.4.0:199, @d98e8a6:1432), for every format that builds it (a NeMo
 * model config's `fp16`/`bf16` take priority over its precision, megatron_base_model.py@v2.4.0:1249);
 * validate_args asserts it first in Megatron-LM, with no message (arguments.py@core_v0.4.0:176-180, @core_v0.15.0:724).
 */
function megatron(ctx: RuleContext<MegatronModel>): void {
  const m = ctx.model;
  if (!argOn(m, 'fp16') || !argOn(m, 'bf16')) return;
  ctx.report({
    at: m.args.get('fp16')?.path ?? [],
    related: m.args.get('bf16') ? [{ at: m.args.get('bf16')!.path, on: 'entry', message: inFormat(m, ctx.format, '`--bf16` is given here too') }] : [],
    // Megatron-LM's argument checks stop first, on an assert with no message; Bridge and NeMo meet TransformerConfig's.
    message: inFormat(m, ctx.format, argumentChecks(ctx.format, m) === 'validate_args' ? '`--fp16` and `--bf16` are exclusive: Megatron-LM stops at startup (an `assert not args.bf16` in its argument checks, with no message). Keep one (BF16 on Ampere and newer: no loss scaling needed).' : '`--fp16` and `--bf16` are exclusive: Megatron stops at startup ("Only one of self.fp16 … and self.bf16 … should be True"). Keep one (BF16 on Ampere and newer: no loss scaling needed).'),
  });
}

export default defineRule<DeepSpeedModel | MegatronModel | TrainerModel>({
  id: 'fp16-and-bf16-enabled',
  severity: 'error',
  formats: ['deepspeed', ...MEGATRON_FORMATS, 'trainer'],
  fixes: {
    'keep-one-precision': { applicability: 'unsafe', changes: 'the precision' },
  },
  docs: {
    summary: 'Both 16-bit precisions are on: `fp16.enabled` and `bf16.enabled` in a DeepSpeed config, `--fp16` and `--bf16` for Megatron, or `fp16` and `bf16` in a Transformers Trainer recipe.',
    why: 'DeepSpeed trains in one 16-bit format and stops when it reads a config that enables both ("bfloat16 and fp16 modes cannot be simultaneously enabled"). Megatron stops at startup on `--fp16` with `--bf16` the same way, and the Transformers TrainingArguments on `fp16` with `bf16` ("At most one of fp16 and bf16 can be True"). It usually comes from copying an fp16 template and adding bf16. Keep bf16 on Ampere or newer GPUs (no loss scaling); fp16 needs dynamic loss scaling.',
    bad: '{\n  "train_micro_batch_size_per_gpu": 4,\n  "fp16": { "enabled": true },\n  "bf16": { "enabled": true }\n}\n',
    good: '{\n  "train_micro_batch_size_per_gpu": 4,\n  "fp16": { "enabled": false },\n  "bf16": { "enabled": true }\n}\n',
    fix: 'Turns fp16 off (or bf16 off).',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 2 --sequence-parallel --fp16 --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 2 --sequence-parallel --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.15.3, `fused_softmax.py`: FP16 and BF16 cannot be active at the same time', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.15.3/megatron/core/fusions/fused_softmax.py#L205-L209' },
    ],
  },
  check(ctx) {
    if (ctx.format === 'trainer') return trainer(ctx as RuleContext<TrainerModel>);
    if (ctx.format !== 'deepspeed') return megatron(ctx as RuleContext<MegatronModel>);
    const m = ctx.model as DeepSpeedModel;
    const bf16Path = m.has(['bf16']) ? ['bf16', 'enabled'] : ['bfloat16', 'enabled'];
    if (m.bool(['fp16', 'enabled']) !== true || m.bool(bf16Path) !== true) return;
    // A release without bf16 mode (before 0.5.5, or 0.5.x for `bf16`) does not read the section.
    if (!keyAtRelease(ctx, [bf16Path[0]])) return;
    ctx.report({
      at: ['fp16', 'enabled'],
      on: 'value',
      related: [{ at: bf16Path, on: 'value', message: `\`${bf16Path[0]}\` is enabled here too` }],
      message: 'fp16 and bf16 are both enabled: DeepSpeed stops when it reads the config ("bfloat16 and fp16 modes cannot be simultaneously enabled"). Keep one: bf16 on Ampere or newer GPUs, fp16 (with loss scaling) on older ones.',
      fixes: [
        { kind: 'keep-one-precision', title: 'Turn fp16 off (keep bf16)', edits: [{ op: 'set', path: ['fp16', 'enabled'], value: false }], recommended: true },
        { kind: 'keep-one-precision', title: 'Turn bf16 off (keep fp16)', edits: [{ op: 'set', path: bf16Path, value: false }] },
      ],
    });
  },
});
