/**
 * fp16-and-bf16-enabled: both precision sections switched on.
 */
import type { DeepSpeedModel } from '../formats/deepspeed/model';
import { defineRule } from './rule';

export default defineRule<DeepSpeedModel>({
  id: 'fp16-and-bf16-enabled',
  severity: 'error',
  formats: ['deepspeed'],
  fixes: {
    'keep-one-precision': { applicability: 'unsafe', changes: 'the precision' },
  },
  docs: {
    summary: '`fp16.enabled` and `bf16.enabled` are both true.',
    why: 'DeepSpeed trains in one 16-bit format and stops when it reads a config that enables both ("bfloat16 and fp16 modes cannot be simultaneously enabled"). It usually comes from copying an fp16 template and adding a `bf16` section. Keep bf16 on Ampere or newer GPUs (no loss scaling); fp16 needs dynamic loss scaling.',
    bad: '{\n  "train_micro_batch_size_per_gpu": 4,\n  "fp16": { "enabled": true },\n  "bf16": { "enabled": true }\n}\n',
    good: '{\n  "train_micro_batch_size_per_gpu": 4,\n  "fp16": { "enabled": false },\n  "bf16": { "enabled": true }\n}\n',
    fix: 'Turns fp16 off (or bf16 off).',
  },
  check(ctx) {
    const m = ctx.model;
    const bf16Path = m.has(['bf16']) ? ['bf16', 'enabled'] : ['bfloat16', 'enabled'];
    if (m.bool(['fp16', 'enabled']) !== true || m.bool(bf16Path) !== true) return;
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
