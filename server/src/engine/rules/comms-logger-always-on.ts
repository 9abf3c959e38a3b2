/**
 * comms-logger-always-on: a `comms_logger` section with `"enabled": false`.
 */
import type { DeepSpeedModel } from '../formats/deepspeed/model';
import { defineRule } from './rule';

export default defineRule<DeepSpeedModel>({
  id: 'comms-logger-always-on',
  severity: 'warning',
  formats: ['deepspeed'],
  fixes: {
    'remove-section': { applicability: 'unsafe', changes: 'communication logging' },
  },
  docs: {
    summary: 'A `comms_logger` section with `"enabled": false`, which still turns communication logging on.',
    why: 'DeepSpeed switches the communication logger on when the `comms_logger` section is present and does not consult its `enabled` field, so `"enabled": false` still logs, and synchronises, every collective: a quiet slowdown. Remove the section to turn logging off.',
    bad: '{\n  "train_micro_batch_size_per_gpu": 4,\n  "comms_logger": { "enabled": false }\n}\n',
    good: '{\n  "train_micro_batch_size_per_gpu": 4\n}\n',
    fix: 'Removes the `comms_logger` section.',
  },
  check(ctx) {
    const m = ctx.model;
    if (!m.doc.node(['comms_logger']) || m.bool(['comms_logger', 'enabled']) !== false) return;
    ctx.report({
      at: ['comms_logger', 'enabled'],
      on: 'value',
      message: 'DeepSpeed turns the communication logger on whenever a `comms_logger` section is present, whatever `enabled` says: this run still logs (and synchronises) every collective. Remove the section to turn logging off.',
      fixes: [{ kind: 'remove-section', title: 'Remove the comms_logger section', edits: [{ op: 'remove', path: ['comms_logger'] }], recommended: true }],
    });
  },
});
