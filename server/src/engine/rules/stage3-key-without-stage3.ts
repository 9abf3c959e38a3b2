/**
 * stage3-key-without-stage3: ZeRO-3-only settings under a lower stage, where DeepSpeed ignores them.
 */
import type { DeepSpeedModel } from '../formats/deepspeed/model';
import { bf16Stage1, ZERO_ALIASES } from '../formats/deepspeed/model';
import { exactRelease } from '../pins';
import { compareVersions } from '../version';
import { defineRule, type RuleContext } from './rule';
import { defaultAt, noneDefaultRefused, refusedBelowStage, requiredStage } from '../schema/vocabulary';
import type { AccelerateModel } from '../formats/accelerate/model';
import { pluginZeroStage, src } from '../formats/accelerate/helpers';

/** Keys of `zero_optimization` only stage 3 reads (besides the `stage3_*` ones and their aliases). */
const STAGE3_ONLY = new Set([
  'offload_param', 'sub_group_size', 'zero_hpz_partition_size', 'zero_quantized_weights', 'zero_quantized_nontrainable_weights',
  'zero_quantized_gradients', 'mics_shard_size', 'mics_hierarchical_params_gather', 'memory_efficient_linear', 'override_module_apply',
  'cpu_offload_param', 'stage3_gather_fp16_weights_on_model_save', ...Object.keys(ZERO_ALIASES), ...Object.values(ZERO_ALIASES),
]);

/**
 * Whether someone named the DeepSpeed release (a setting, `--target`, or an exact pin): only then is
 * it known, not the top of a range or the newest assumed (a fix's safety may rest on it).
 */
function namedRelease(ctx: RuleContext<DeepSpeedModel>): boolean {
  const pin = ctx.settings.pins?.deepspeed;
  return !!ctx.settings.targetVersions?.deepspeed || (!!pin && !pin.elsewhere && exactRelease(pin.spec) !== undefined);
}

/**
 * An Accelerate config that describes the ZeRO setup itself (no `deepspeed_config_file`): its
 * `offload_param_device` becomes `zero_optimization.offload_param.device` of the DeepSpeed config it
 * builds, whatever `zero_stage` (utils/dataclasses.py@v0.21.0:580-597), and DeepSpeed offloads
 * parameters only at stage 3.
 */
function accelerateOffloadParam(ctx: RuleContext<AccelerateModel>): void {
  const m = ctx.model;
  if (m.distributedType !== 'DEEPSPEED' || m.view.has(['deepspeed_config', 'deepspeed_config_file'])) return;
  const device = m.view.str(['deepspeed_config', 'offload_param_device']);
  if (!device || device === 'none') return;
  const zero = pluginZeroStage(ctx);
  if (!zero || zero.stage >= 3) return;
  const at = src(m, ['deepspeed_config', 'offload_param_device']);
  ctx.report({
    at,
    on: 'value',
    related: [{ at: src(m, ['deepspeed_config', 'zero_stage']), on: 'entry', message: `zero_stage is ${zero.written ? zero.stage : 'not written'} here` }],
    message: `\`offload_param_device: ${device}\` with \`zero_stage\` ${zero.written ? zero.stage : 'left at its default 2'}: accelerate writes it into the DeepSpeed config, but DeepSpeed offloads parameters only at stage 3, so the parameters stay on the GPU without a word. Set \`zero_stage: 3\` if the parameters must leave the GPU, or remove the key.`,
    fixes: [
      { kind: 'remove-passed-on', title: 'Remove `offload_param_device`', edits: [{ op: 'remove', path: at }] },
      { kind: 'set-stage-3', title: 'Set `zero_stage: 3`', edits: [{ op: 'set', path: src(m, ['deepspeed_config', 'zero_stage']), value: 3 }] },
    ],
  });
}

export default defineRule<DeepSpeedModel | AccelerateModel>({
  id: 'stage3-key-without-stage3',
  severity: 'warning',
  tags: ['unnecessary'],
  formats: ['deepspeed', 'accelerate'],
  fixes: {
    'remove-ignored': { applicability: 'safe', changes: 'removes a key DeepSpeed ignores below ZeRO-3' },
    'remove-passed-on': { applicability: 'unsafe', changes: 'the DeepSpeed config Accelerate builds, which no longer holds the parameter offload section DeepSpeed ignores below ZeRO-3' },
    'set-stage-3': { applicability: 'unsafe', changes: 'the ZeRO stage' },
    'offload-to-cpu': { applicability: 'safe', changes: 'writes the CPU offload DeepSpeed already does below ZeRO-3' },
    'offload-to-cpu-bf16': { applicability: 'unsafe', changes: 'which optimizer runs: from DeepSpeed 0.10.1 the ZeRO stage 1 optimizer with CPU offload replaces the BF16 optimizer' },
    'offload-to-cpu-unsure': { applicability: 'unsafe', changes: 'where the optimizer states live: DeepSpeed 0.7.1 to 0.10.0 keep them on the GPU here' },
  },
  docs: {
    summary: 'ZeRO-3-only settings (`stage3_*`, `offload_param`, `sub_group_size`, ZeRO++ and MiCS keys, and Accelerate\'s `offload_param_device`) under ZeRO stage 0, 1 or 2.',
    why: 'DeepSpeed accepts these keys at any stage and uses them only at stage 3: below it, parameters are not partitioned, so `offload_param` offloads nothing and the prefetch and persistence knobs do nothing, without a word. NVMe optimizer offload below stage 3 quietly runs as CPU offload (DeepSpeed 0.7.1 to 0.10.0: as no offload at all), except at stage 1 with bf16 and fp32 gradient accumulation from DeepSpeed 0.8.1, where DeepSpeed runs its BF16 optimizer, which offloads nothing (0.7.6 to 0.8.0 refuse fp32 accumulation of bf16 gradients under ZeRO; before 0.7.6 `data_types` does not exist and the ZeRO optimizer runs). Either the stage is not the one intended, or the keys are leftovers that mislead the next reader.',
    bad: '{\n  "train_micro_batch_size_per_gpu": 4,\n  "zero_optimization": {\n    "stage": 2,\n    "offload_param": { "device": "cpu" }\n  }\n}\n',
    good: '{\n  "train_micro_batch_size_per_gpu": 4,\n  "zero_optimization": {\n    "stage": 3,\n    "offload_param": { "device": "cpu" }\n  }\n}\n',
    fix: 'Removes the key (or sets stage 3).',
  },
  check(context) {
    if (context.format === 'accelerate') return accelerateOffloadParam(context as RuleContext<AccelerateModel>);
    const ctx = context as RuleContext<DeepSpeedModel>;
    const m = ctx.model;
    const stage = m.stage;
    const zero = m.doc.node(['zero_optimization']);
    if (stage === undefined || stage >= 3 || zero?.kind !== 'map') return;
    const stageText = m.stageWritten ? `stage ${stage}` : 'stage 0 (no `stage` given)';
    for (const e of zero.entries) {
      if (e.value.kind === 'scalar' && e.value.value === null) continue;
      const schema = ctx.nav?.at(['zero_optimization', e.key], ctx.doc.value([]), ctx.schemaVersion);
      const needs = typeof requiredStage(schema) === 'number' ? (requiredStage(schema) as number) : STAGE3_ONLY.has(e.key) ? 3 : undefined;
      if (needs === undefined || stage >= needs) continue;
      // Left at DeepSpeed's default (`sub_group_size: 1e9`) or to the integration (`"auto"`): a copied
      // template's line that changes nothing at any stage, not a setting someone relies on.
      const v = e.value.kind === 'scalar' ? e.value.value : undefined;
      const dflt = defaultAt(schema, ctx.schemaVersion);
      if (v === 'auto' || (v !== undefined && dflt !== undefined && JSON.stringify(v) === JSON.stringify(dflt))) continue;
      // An offload section that turns offloading off (`offload_param: {device: "none"}`, DeepSpeed's
      // default device) asks for nothing stage 3 would have given.
      if (e.value.kind === 'map' && /^none$/i.test(String(ctx.doc.value(['zero_optimization', e.key, 'device']) ?? ''))) continue;
      // An offload section without a device where the release defaults it to None and refuses that
      // (0.5.7 to 0.6.7, at any stage): not ignored but refused, which zero-config-invalid says. Looked
      // up as the schema is (untracked): removing the section is safe at every release either way.
      const release = ctx.schemaVersion;
      if (e.value.kind === 'map' && e.key === 'offload_param' && release !== undefined && ctx.doc.value(['zero_optimization', e.key, 'device']) == null && !ctx.doc.node(['zero_optimization', 'cpu_offload_params'])) {
        const device = ctx.nav?.at(['zero_optimization', e.key, 'device'], ctx.doc.value([]), release);
        if (noneDefaultRefused(device).some((r) => compareVersions(release, r.since) >= 0 && compareVersions(release, r.before) < 0)) continue;
      }
      // With torch.autocast on, DeepSpeed 0.17.2 and later refuse quantized weights at any stage
      // (precision-config-invalid says so): not ignored there.
      if (e.key === 'zero_quantized_weights' && v === true && m.bool(['torch_autocast', 'enabled']) === true && ctx.atLeast('0.17.2')) continue;
      const what = e.key === 'offload_param' || e.key === 'cpu_offload_param' ? 'parameters are only partitioned, and so only offloaded, at stage 3' : 'only ZeRO stage 3 reads it';
      const refused = stage >= 1 ? refusedBelowStage(schema) : undefined;
      ctx.report({
        at: ['zero_optimization', e.key],
        related: [{ at: ['zero_optimization', 'stage'], on: 'entry', message: `the ZeRO stage is ${stage} here` }],
        message: refused
          ? `\`${e.key}\` works only at ZeRO stage 3: ${refused}. Set \`"stage": 3\` if that is what you meant, or remove the key.`
          : `\`${e.key}\` is ignored at ZeRO ${stageText}: ${what}. Set \`"stage": 3\` if that is what you meant, or remove the key.`,
        fixes: [
          { kind: 'remove-ignored', title: `Remove ${e.key}`, edits: [{ op: 'remove', path: ['zero_optimization', e.key] }] },
          { kind: 'set-stage-3', title: 'Set stage 3', edits: [{ op: 'set', path: ['zero_optimization', 'stage'], value: 3 }] },
        ],
      });
    }
    if (stage >= 1 && String(m.get(['zero_optimization', 'offload_optimizer', 'device']) ?? '').toLowerCase() === 'nvme') {
      // runtime/engine.py _do_optimizer_sanity_check: stage 1 with bf16 and fp32 gradient accumulation
      // takes the BF16 optimizer (no offload) from 0.8.1, for any device until 0.10.0 and for any but
      // "cpu" from 0.10.1; 0.7.6 to 0.8.0 stop on the dtype mismatch under ZeRO (NotImplementedError,
      // not this rule's to tell); before 0.7.6 there is no `data_types`, so the ZeRO optimizer runs as
      // for any other precision (below).
      if (bf16Stage1(m) && ctx.atLeast('0.7.6')) {
        if (!ctx.atLeast('0.8.1')) return;
        ctx.report({
          at: ['zero_optimization', 'offload_optimizer', 'device'],
          on: 'value',
          tags: [],
          related: [{ at: ['zero_optimization', 'stage'], on: 'entry', message: `the ZeRO stage is ${stage} here` }],
          message: `NVMe optimizer offload needs ZeRO stage 3; at stage 1 with bf16 and fp32 gradient accumulation DeepSpeed runs its BF16 optimizer instead, which offloads nothing, and \`nvme_path\` is unused. The CPU optimizer it still builds for the offload (DeepSpeedCPUAdam for Adam/AdamW) expects the parameters in CPU memory, so the run can stop at its first step. Use stage 3 for NVMe, or remove the offload.`,
          // "cpu" runs the ZeRO 1 optimizer with CPU offload from 0.10.1, the BF16 optimizer before.
          fixes: [{ kind: 'offload-to-cpu-bf16', title: 'Offload to cpu', edits: [{ op: 'set', path: ['zero_optimization', 'offload_optimizer', 'device'], value: 'cpu' }] }],
        });
        return;
      }
      // runtime/engine.py: from 0.7.1 to 0.10.0 the ZeRO 1/2 optimizer got `cpu_offload=zero_cpu_offload()`,
      // true only for "cpu"; before, any offload section, and from 0.10.1 the offload config, any device.
      const noOffload = ctx.atLeast('0.7.1') && !ctx.atLeast('0.10.1');
      ctx.report({
        at: ['zero_optimization', 'offload_optimizer', 'device'],
        on: 'value',
        // The device is not ignored but read differently: not "unnecessary".
        tags: [],
        related: [{ at: ['zero_optimization', 'stage'], on: 'entry', message: `the ZeRO stage is ${stage} here` }],
        message: noOffload
          ? `NVMe optimizer offload needs ZeRO stage 3; at ${stageText} DeepSpeed ${ctx.versionLabel ?? '0.7.1 to 0.10.0'} offloads nothing (the ZeRO 1/2 optimizer is told to offload only for \`"cpu"\`), so the optimizer states stay on the GPU without a word, and \`nvme_path\` is unused. Use \`"cpu"\` to offload them, or stage 3 for NVMe.`
          : `NVMe optimizer offload needs ZeRO stage 3; at ${stageText} DeepSpeed offloads the optimizer to CPU memory instead, without a word, and \`nvme_path\` is unused (DeepSpeed 0.7.1 to 0.10.0 offload nothing then). Use \`"cpu"\`, or stage 3 for NVMe.`,
        // Writing "cpu" keeps the run only where NVMe already ran as CPU offload, at a release someone named.
        fixes: [{ kind: !noOffload && namedRelease(ctx) ? 'offload-to-cpu' : 'offload-to-cpu-unsure', title: 'Offload to cpu', edits: [{ op: 'set', path: ['zero_optimization', 'offload_optimizer', 'device'], value: 'cpu' }] }],
      });
    }
  },
});
