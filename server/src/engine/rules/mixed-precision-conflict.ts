/**
 * mixed-precision-conflict: accelerate's `mixed_precision` against the DeepSpeed JSON's fp16/bf16.
 */
import type { AccelerateModel } from '../formats/accelerate/model';
import { linkedJson, src, deepspeedFileRead } from '../formats/accelerate/helpers';
import type { PathEdit } from '../syntax/sourcedoc';
import type { Path } from '../types';
import { defineRule, type FixSpec } from './rule';

/**
 * Trains in the precision `mixed_precision` asks for, the way Accelerate accepts it: the JSON enables
 * that precision (and turns the other off) and `mixed_precision` goes, since Accelerate from 0.16.0
 * refuses it next to a DeepSpeed file whatever its value, and before that ignored it. Only for fp16 and
 * bf16, which the JSON can say; a JSON that spells bf16 as `bfloat16` is left to the user.
 */
function trainInFix(m: AccelerateModel, at: Path, want: string, other: 'fp16' | 'bf16'): FixSpec[] {
  const file = m.deepspeedFile;
  const doc = file?.linked?.analysis?.doc;
  if ((want !== 'fp16' && want !== 'bf16') || !file?.linked?.path || !doc || !file.model || file.model.has(['bfloat16'])) return [];
  const edits: PathEdit[] = [
    { op: 'set', path: [other, 'enabled'], value: false },
    { op: 'set', path: [want, 'enabled'], value: true },
  ];
  return [{ kind: 'train-in', title: `Train in ${want}: enable it in ${file.ref} and remove mixed_precision`, edits: [{ op: 'remove', path: at }], other: { path: file.linked.path, doc, edits } }];
}

export default defineRule<AccelerateModel>({
  id: 'mixed-precision-conflict',
  severity: 'warning',
  formats: ['accelerate'],
  fixes: {
    'train-in': { applicability: 'unsafe', changes: 'the precision the run trains in' },
    remove: { applicability: 'unsafe', changes: 'the file: the JSON still decides the precision' },
  },
  docs: {
    summary: "`mixed_precision` disagrees with the precision the DeepSpeed JSON enables (bf16/fp8 with the JSON's fp16, fp16 with its bf16).",
    why: 'Next to a `deepspeed_config_file`, the JSON decides the precision: Accelerate before 0.16.0 only fills a section the JSON lacks (`set_mixed_precision`) and ignores this key otherwise; from 0.16.0 it refuses a config file that sets `mixed_precision` together with a DeepSpeed file at all (`deepspeed-config-file-conflict`). Either way a `mixed_precision` that disagrees with the JSON\'s `fp16`/`bf16` says one precision while the run trains in the other, and removing it (as the refusal asks) keeps the JSON\'s. Shardwise reads the JSON the config points at, so the disagreement shows up as you edit either file. (`accelerate launch --mixed_precision` on the command line against the JSON stops: "`--mixed_precision` arg cannot be set to `bf16` when `fp16` is set in the DeepSpeed config file".)',
    bad: 'distributed_type: DEEPSPEED\nnum_processes: 8\nmixed_precision: bf16\ndeepspeed_config:\n  deepspeed_config_file: ds_fp16.json\n',
    good: 'distributed_type: DEEPSPEED\nnum_processes: 8\ndeepspeed_config:\n  deepspeed_config_file: ds_fp16.json\n',
    fix: 'Removes `mixed_precision` (the JSON decides; Accelerate from 0.16.0 refuses it next to a DeepSpeed file whatever its value), or trains in the precision it asks for: enables that precision in the JSON, turns the other off and removes `mixed_precision`. Neither keeps `mixed_precision` beside the JSON, and the JSON is never set to `"auto"` here, which Accelerate before 0.16.0 does not fill for an existing section.',
    files: { 'ds_fp16.json': '{\n  "train_micro_batch_size_per_gpu": "auto",\n  "fp16": { "enabled": true },\n  "zero_optimization": { "stage": 2 }\n}\n' },
  },
  check(ctx) {
    const m = ctx.model;
    const ds = deepspeedFileRead(ctx)?.model;
    const mp = m.mixedPrecision;
    if (!ds || !mp) return;
    const fp16 = ds.bool(['fp16', 'enabled']) === true;
    const bf16 = (ds.bool(['bf16', 'enabled']) ?? ds.bool(['bfloat16', 'enabled'])) === true;
    let other: 'fp16' | 'bf16' | undefined;
    if ((mp === 'bf16' || mp === 'fp8') && fp16) other = 'fp16';
    else if (mp === 'fp16' && bf16) other = 'bf16';
    if (!other) return;
    const at = src(m, ['mixed_precision']);
    const json = linkedJson(m);
    const enabled = other === 'bf16' && ds.bool(['bf16', 'enabled']) === undefined ? ['bfloat16', 'enabled'] : [other, 'enabled'];
    ctx.report({
      at,
      on: 'value',
      related: json ? [{ at: enabled, on: 'value', message: `\`${other}\` is enabled here`, other: json }] : undefined,
      severity: 'warning',
      message: `\`mixed_precision: ${mp}\` disagrees with ${m.deepspeedFile!.ref}, which enables \`${other}\`: the JSON's precision is what DeepSpeed runs, so the run trains in ${other}, not ${mp} (Accelerate before 0.16.0 ignores this key next to a DeepSpeed file; from 0.16.0 it refuses the pair, which deepspeed-config-file-conflict reports). Enable the precision you want in the JSON and remove \`mixed_precision\` here.`,
      fixes: [
        { kind: 'remove', title: 'Remove mixed_precision (the JSON decides)', edits: [{ op: 'remove', path: at }], recommended: true },
        ...trainInFix(m, at, mp, other),
      ],
    });
  },
});
