/**
 * precision-config-invalid: precision settings DeepSpeed rejects together.
 */
import { bf16Path, type DeepSpeedModel } from '../formats/deepspeed/model';
import { runDsChecks, type DsCheck } from './helpers';
import { defineRule } from './rule';

const noZero = (m: DeepSpeedModel) => m.stage === 0;

const STAGE_2_ONLY = 'fp16 master weights and gradients work only at ZeRO stage 2 before DeepSpeed 0.18.3: it stops when it reads the config ("Fp16_master_weights_and_grads is only supported with ZeRO Stage 2 for now."). Use stage 2 (with CPU optimizer offload and DeepSpeedCPUAdam), or remove the key.';

const CHECKS: DsCheck[] = [
  {
    when: (m) => (m.bool(['amp', 'enabled']) === true && (m.bool(['fp16', 'enabled']) === true || m.bool(bf16Path(m, 'enabled')) === true) ? ['amp', 'enabled'] : undefined),
    message: () => 'Apex AMP cannot be combined with fp16 or bf16 mode: DeepSpeed stops ("Cannot enable both amp with (legacy) fp16 or bfloat16 mode"). Keep one; `bf16` or `fp16` is the usual choice.',
  },
  {
    // runtime/config.py@v0.18.3: stages 1, 2 and 3.
    since: '0.18.3',
    when: (m) => (m.bool(['fp16', 'fp16_master_weights_and_grads']) === true && noZero(m) ? ['fp16', 'fp16_master_weights_and_grads'] : undefined),
    message: () => 'fp16 master weights and gradients need ZeRO stage 1, 2 or 3: DeepSpeed stops when it reads the config. Set a ZeRO stage (with CPU optimizer offload and DeepSpeedCPUAdam), or remove the key.',
  },
  {
    // runtime/config.py@v0.5.0 to @v0.18.2: stage 2 only; before 0.17.1 the key is read only with fp16 enabled.
    before: '0.17.1',
    when: (m) => (m.bool(['fp16', 'fp16_master_weights_and_grads']) === true && m.bool(['fp16', 'enabled']) === true && m.stage !== undefined && m.stage !== 2 ? ['fp16', 'fp16_master_weights_and_grads'] : undefined),
    message: () => STAGE_2_ONLY,
  },
  {
    since: '0.17.1',
    before: '0.18.3',
    when: (m) => (m.bool(['fp16', 'fp16_master_weights_and_grads']) === true && m.stage !== undefined && m.stage !== 2 ? ['fp16', 'fp16_master_weights_and_grads'] : undefined),
    message: () => STAGE_2_ONLY,
  },
  // runtime/config.py@v0.18.3: the bf16 options and their checks arrive in 0.18.3 and read the
  // section DeepSpeed takes bf16 from (`bf16`, else the legacy `bfloat16`).
  {
    since: '0.18.3',
    when: (m) => (m.bool(bf16Path(m, 'bf16_master_weights_and_grads')) === true && noZero(m) ? bf16Path(m, 'bf16_master_weights_and_grads') : undefined),
    message: () => 'bf16 master weights and gradients need ZeRO stage 1, 2 or 3: DeepSpeed stops when it reads the config. Set a ZeRO stage, or remove the key.',
  },
  {
    since: '0.18.3',
    when: (m) => (m.bool(bf16Path(m, 'bf16_optimizer_states')) === true && (noZero(m) || m.bool(bf16Path(m, 'bf16_master_weights_and_grads')) !== true) ? bf16Path(m, 'bf16_optimizer_states') : undefined),
    message: (m) => (noZero(m) ? 'bf16 optimizer states need ZeRO stage 1, 2 or 3: DeepSpeed stops when it reads the config.' : 'bf16 optimizer states need `bf16_master_weights_and_grads: true`: DeepSpeed stops when it reads the config ("bf16_optimizer_states requires bf16_master_weights_and_grads to be enabled"). Add it, or remove this key.'),
  },
  {
    since: '0.18.3',
    when: (m) => (m.bool(['fp16', 'fp16_master_weights_and_grads']) === true && m.bool(bf16Path(m, 'bf16_master_weights_and_grads')) === true ? bf16Path(m, 'bf16_master_weights_and_grads') : undefined),
    message: () => 'fp16 and bf16 master weights are exclusive: DeepSpeed stops when it builds the optimizer. Keep the one that matches the enabled precision.',
  },
  // bf16 and the ZeRO stage by release: 0.5.5-0.5.10 take bf16 only at stage 2, 0.6.0-0.6.1 only with
  // ZeRO (runtime/config.py@v0.5.5 and @v0.6.0:902, asserts gone @v0.6.2 with the BF16 optimizer);
  // 0.7.6 gives bf16 under ZeRO an fp32 gradient accumulation unless data_types says otherwise, then
  // refuses the mix (runtime/engine.py@v0.7.6:802-817, 1131-1134; @v0.7.7 keeps bf16 under ZeRO).
  {
    since: '0.5.5',
    before: '0.6.0',
    when: (m) => (m.bool(bf16Path(m, 'enabled')) === true && m.stage !== undefined && m.stage !== 2 ? bf16Path(m, 'enabled') : undefined),
    message: (m) => `DeepSpeed before 0.6.0 runs bf16 only at ZeRO stage 2 and stops when it reads the config ("bfloat16 mode is only enabled for Zero2 currently"); this file has stage ${m.stage}. Use stage 2, or DeepSpeed 0.6.2 or later.`,
  },
  {
    since: '0.6.0',
    before: '0.6.2',
    when: (m) => (m.bool(bf16Path(m, 'enabled')) === true && noZero(m) ? bf16Path(m, 'enabled') : undefined),
    message: () => 'DeepSpeed 0.6.0 and 0.6.1 run bf16 only with ZeRO stage 1, 2 or 3 and stop when they read the config ("bfloat16 mode is only enabled for Zero 1,2,3 currently"). Set a ZeRO stage, or use DeepSpeed 0.6.2 or later.',
  },
  {
    since: '0.7.6',
    before: '0.7.7',
    when: (m) => (m.bool(bf16Path(m, 'enabled')) === true && m.stage !== undefined && m.stage >= 1 && !m.has(['data_types', 'grad_accum_dtype']) ? bf16Path(m, 'enabled') : undefined),
    message: () => 'DeepSpeed 0.7.6 accumulates bf16 gradients in fp32 unless `data_types.grad_accum_dtype` says otherwise, and refuses that mix under ZeRO when it builds the optimizer ("Model data type and gradient accumulation data type must be equal to use ZeRO"). Add `"data_types": {"grad_accum_dtype": "bf16"}`, or use DeepSpeed 0.7.7 or later.',
  },
  {
    when: (m) => {
      const scale = m.num(['fp16', 'loss_scale']);
      if (m.bool(['fp16', 'enabled']) !== true || (scale !== undefined && scale !== 0)) return undefined;
      for (const k of ['loss_scale_window', 'min_loss_scale']) {
        const v = m.num(['fp16', k]);
        if (v !== undefined && v <= 0) return ['fp16', k];
      }
      return undefined;
    },
    // deepspeed/runtime/precision_config.py gained this validator in 0.19.3; earlier releases run with the value.
    since: '0.19.3',
    message: () => 'With dynamic loss scaling (`loss_scale: 0`), `loss_scale_window` and `min_loss_scale` must be above 0: DeepSpeed (0.19.3 and later) stops when it reads the config. Use the defaults (1000 and 1).',
  },
  {
    // Before the validator, the dynamic loss scaler takes the step count modulo the window after each
    // step without overflow (runtime/fp16/loss_scaler.py, DynamicLossScaler.update_scale): a window of 0
    // raises ZeroDivisionError in the first steps.
    when: (m) => {
      const scale = m.num(['fp16', 'loss_scale']);
      if (m.bool(['fp16', 'enabled']) !== true || (scale !== undefined && scale !== 0)) return undefined;
      return m.num(['fp16', 'loss_scale_window']) === 0 ? ['fp16', 'loss_scale_window'] : undefined;
    },
    before: '0.19.3',
    message: () => 'With dynamic loss scaling (`loss_scale: 0`), a `loss_scale_window` of 0 stops the run in its first steps: DeepSpeed before 0.19.3 takes the step count modulo the window after every step without overflow (ZeroDivisionError). Use the default 1000.',
  },
];

export default defineRule<DeepSpeedModel>({
  id: 'precision-config-invalid',
  severity: 'error',
  formats: ['deepspeed'],
  docs: {
    summary: 'Precision settings DeepSpeed rejects together: Apex AMP with fp16/bf16, master-weight options without ZeRO, bf16 optimizer states without bf16 master weights, non-positive dynamic loss-scale settings, bf16 at a ZeRO stage an older release does not run it with.',
    why: 'DeepSpeed checks these when it reads the config or builds the optimizer; each stops the run. Each message quotes the condition. A check DeepSpeed added in a later release (the dynamic loss-scale bounds, in 0.19.3) applies only from that release, and one it dropped only before (bf16 only at ZeRO stage 2 in 0.5.5-0.5.10, only with ZeRO in 0.6.0-0.6.1, and in 0.7.6 not under ZeRO without `data_types.grad_accum_dtype`).',
    bad: '{\n  "train_micro_batch_size_per_gpu": 4,\n  "zero_optimization": { "stage": 2 },\n  "bf16": { "enabled": true, "bf16_optimizer_states": true }\n}\n',
    good: '{\n  "train_micro_batch_size_per_gpu": 4,\n  "zero_optimization": { "stage": 2 },\n  "bf16": { "enabled": true, "bf16_master_weights_and_grads": true, "bf16_optimizer_states": true }\n}\n',
  },
  check(ctx) {
    runDsChecks(ctx, CHECKS);
  },
});
