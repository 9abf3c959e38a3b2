/**
 * deepspeed-config-file-conflict: Accelerate keys that a DeepSpeed JSON replaces, set next to it.
 */
import type { AccelerateModel } from '../formats/accelerate/model';
import { linkedJson, src, deepspeedFileRead } from '../formats/accelerate/helpers';
import type { PathEdit } from '../syntax/sourcedoc';
import type { Path } from '../types';
import { defineRule, type FixSpec } from './rule';

/** The accelerate keys a `deepspeed_config_file` replaces, with where the JSON holds the setting. */
const REPLACED: Record<string, string[]> = {
  gradient_accumulation_steps: ['gradient_accumulation_steps'],
  gradient_clipping: ['gradient_clipping'],
  zero_stage: ['zero_optimization', 'stage'],
  offload_optimizer_device: ['zero_optimization', 'offload_optimizer', 'device'],
  offload_param_device: ['zero_optimization', 'offload_param', 'device'],
  offload_param_nvme_path: ['zero_optimization', 'offload_param', 'nvme_path'],
  offload_optimizer_nvme_path: ['zero_optimization', 'offload_optimizer', 'nvme_path'],
  zero3_save_16bit_model: ['zero_optimization', 'stage3_gather_16bit_weights_on_model_save'],
};

/** A fix that moves the value into the linked JSON (when it was read and does not set it already). */
function moveFix(m: AccelerateModel, at: Path, key: string, jsonPath: string[], value: unknown): FixSpec | undefined {
  const file = m.deepspeedFile;
  const doc = file?.linked?.analysis?.doc;
  if (!file?.linked?.path || !doc || file.model?.has(jsonPath) || value === undefined || value === null) return undefined;
  const shown = typeof value === 'string' ? value : JSON.stringify(value);
  return { kind: 'move-into-json', title: `Move ${key}: ${shown} into ${file.ref} (\`${jsonPath.join('.')}\`)`, edits: [{ op: 'remove', path: at }], other: { path: file.linked.path, doc, edits: [{ op: 'set', path: jsonPath, value }] } };
}

/** `mixed_precision: bf16` → the JSON's `bf16.enabled: true` (and fp16 off when it is on). */
function precisionMove(m: AccelerateModel, at: Path): FixSpec[] {
  const file = m.deepspeedFile;
  const doc = file?.linked?.analysis?.doc;
  const mp = m.mixedPrecision;
  if (!file?.linked?.path || !doc || (mp !== 'bf16' && mp !== 'fp16')) return [];
  const other = mp === 'bf16' ? 'fp16' : 'bf16';
  const edits: PathEdit[] = [{ op: 'set', path: [mp, 'enabled'], value: true }];
  if (file.model?.bool([other, 'enabled']) === true || file.model?.isAuto([other, 'enabled'])) edits.push({ op: 'set', path: [other, 'enabled'], value: false });
  return [{ kind: 'move-into-json', title: `Move it into ${file.ref} (\`${mp}.enabled: true\`)`, edits: [{ op: 'remove', path: at }], other: { path: file.linked.path, doc, edits } }];
}

/** The linked JSON was read and sets `jsonPath` to the same value. */
function sameInJson(m: AccelerateModel, jsonPath: string[], value: unknown): boolean {
  const json = m.deepspeedFile?.model;
  return !!json && json.has(jsonPath) && JSON.stringify(json.get(jsonPath)) === JSON.stringify(value);
}

/** The linked JSON was read and enables exactly this precision (`mixed_precision: no`: neither). */
function jsonEnables(m: AccelerateModel, mp: string | undefined): boolean {
  const json = m.deepspeedFile?.model;
  if (!json || !mp) return false;
  const fp16 = json.bool(['fp16', 'enabled']) === true;
  const bf16 = (json.bool(['bf16', 'enabled']) ?? json.bool(['bfloat16', 'enabled'])) === true;
  return mp === 'fp16' ? fp16 && !bf16 : mp === 'bf16' ? bf16 && !fp16 : mp === 'no' ? !fp16 && !bf16 : false;
}

export default defineRule<AccelerateModel>({
  id: 'deepspeed-config-file-conflict',
  severity: 'error',
  formats: ['accelerate'],
  fixes: {
    'remove-same': { applicability: 'safe', changes: 'removes a key the DeepSpeed JSON already sets to the same value' },
    remove: { applicability: 'unsafe', changes: 'the configuration: the DeepSpeed JSON decides instead' },
    'move-into-json': { applicability: 'unsafe', changes: 'the DeepSpeed JSON' },
  },
  docs: {
    summary: 'Keys that a `deepspeed_config_file` replaces (`zero_stage`, offload devices, `gradient_accumulation_steps`, top-level `mixed_precision`…) set next to it.',
    why: 'With a DeepSpeed JSON, accelerate takes these settings from the JSON only and refuses a config that also sets them ("When using `deepspeed_config_file`, the following accelerate config variables will be ignored"). The same keys passed on the `accelerate launch` command line are not refused (only the file\'s keys are counted), but the JSON is the place for these settings: put the value there (the message names its key). For the precision, `--mixed_precision` on the command line fills an `fp16`/`bf16` section the JSON lacks or leaves at `"auto"`.',
    bad: 'distributed_type: DEEPSPEED\nnum_processes: 8\ndeepspeed_config:\n  deepspeed_config_file: ds_config.json\n  zero_stage: 3\n',
    good: 'distributed_type: DEEPSPEED\nnum_processes: 8\ndeepspeed_config:\n  deepspeed_config_file: ds_config.json\n',
    fix: 'Removes the key from the accelerate config, or moves its value into the DeepSpeed JSON (when Shardwise could read it and it does not set the key already).',
  },
  check(ctx) {
    const m = ctx.model;
    const file = deepspeedFileRead(ctx);
    if (!file) return;
    const json = linkedJson(m);
    const fileKey = { at: file.at, message: `\`deepspeed_config_file\` (${file.ref}) replaces it` };
    // The refusal came in Accelerate 0.16.0 (utils/dataclasses.py); before it the keys were ignored without a word.
    const refused = ctx.atLeast('0.16.0');
    const verdict = refused ? 'accelerate refuses the config ("the following accelerate config variables will be ignored")' : `Accelerate ${ctx.versionLabel ?? 'before 0.16.0'} ignores it without a word (from 0.16.0 it refuses the config)`;
    for (const [key, jsonPath] of Object.entries(REPLACED)) {
      const path = ['deepspeed_config', key];
      // A key written with no value counts too: the launcher lists the section's keys, not its values
      // (commands/launch.py@v1.14.0:1388), so `zero_stage:` alone is refused like `zero_stage: 3`.
      if (!m.view.has(path) && ctx.doc.node(path) === undefined) continue;
      const at = src(m, path);
      const move = moveFix(m, at, key, jsonPath, m.view.get(path));
      ctx.report({
        at,
        related: [fileKey, ...(json ? [{ at: jsonPath, message: `\`${jsonPath.join('.')}\` is set here`, other: json }] : [])],
        severity: refused ? undefined : 'warning',
        message: `\`${key}\` cannot be set here together with \`deepspeed_config_file\`: ${verdict}. Set \`${jsonPath.join('.')}\` in ${file.ref} instead.`,
        fixes: [{ kind: sameInJson(m, jsonPath, m.view.get(path)) ? 'remove-same' : 'remove', title: `Remove ${key}`, edits: [{ op: 'remove', path: at }], recommended: true }, ...(move ? [move] : [])],
      });
    }
    // utils/dataclasses.py@v0.15.0 set_mixed_precision: before the refusal, Accelerate writes the
    // precision section into a JSON that has neither `fp16` nor `bf16`, so there the key is what runs.
    const jsonDecides = !!json && (json.doc.entry(['fp16']) !== undefined || json.doc.entry(['bf16']) !== undefined);
    if (m.view.has(['mixed_precision']) && (refused || m.mixedPrecision === 'no' || jsonDecides)) {
      const at = src(m, ['mixed_precision']);
      const precisions = json ? (['fp16', 'bf16', 'bfloat16'] as const).filter((k) => json.doc.entry([k, 'enabled'])) : [];
      ctx.report({
        at,
        related: [fileKey, ...precisions.map((k) => ({ at: [k, 'enabled'], message: `\`${k}.enabled\` is set here`, other: json! }))],
        severity: refused ? undefined : 'warning',
        message: `\`mixed_precision\` cannot be set in this file together with \`deepspeed_config_file\`: ${refused ? 'accelerate refuses the config' : verdict}. Enable \`bf16\` or \`fp16\` in ${file.ref} (or pass \`--mixed_precision\` on the command line with \`"auto"\` there).`,
        fixes: [{ kind: jsonEnables(m, m.mixedPrecision) ? 'remove-same' : 'remove', title: 'Remove mixed_precision', edits: [{ op: 'remove', path: at }], recommended: true }, ...precisionMove(m, at)],
      });
    }
    // The old top-level `fp16: true`: the loader turns it into `mixed_precision: fp16` when that key is
    // absent (commands/config/config_args.py@v1.14.0:113-116, the same from 0.16.0), which the plugin
    // then refuses beside the JSON like the key itself (launch.py@v1.14.0:1281-1286, 1390).
    const legacy = m.view.get(['fp16']);
    if (refused && !m.view.has(['mixed_precision']) && m.mixedPrecision === 'fp16') {
      const at = src(m, ['fp16']);
      ctx.report({
        at,
        related: [fileKey],
        message: `\`fp16: ${typeof legacy === 'string' ? legacy : JSON.stringify(legacy)}\` is read as \`mixed_precision: fp16\`, which cannot be set in this file together with \`deepspeed_config_file\`: accelerate refuses the config. Enable \`fp16\` in ${file.ref} instead.`,
        fixes: [{ kind: jsonEnables(m, 'fp16') ? 'remove-same' : 'remove', title: 'Remove fp16', edits: [{ op: 'remove', path: at }], recommended: true }],
      });
    }
  },
});
