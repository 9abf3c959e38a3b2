/**
 * comms-logger-always-on: a `comms_logger` section with `"enabled": false`.
 */
import type { DeepSpeedModel } from '../formats/deepspeed/model';
import { keyAtRelease } from './helpers';
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
    why: 'DeepSpeed switches the communication logger on when the `comms_logger` section is present and does not consult its `enabled` field, so with `"enabled": false` every collective is still followed by a device synchronisation, a quiet slowdown, and logged unless `prof_all` is false (then only a collective called with a `log_name` that `prof_ops` lists is, and DeepSpeed\'s own collectives pass none). Remove the section to turn logging off.',
    bad: '{\n  "train_micro_batch_size_per_gpu": 4,\n  "comms_logger": { "enabled": false }\n}\n',
    good: '{\n  "train_micro_batch_size_per_gpu": 4\n}\n',
    fix: 'Removes the `comms_logger` section.',
  },
  check(ctx) {
    const m = ctx.model;
    if (!m.doc.node(['comms_logger']) || m.bool(['comms_logger', 'enabled']) !== false) return;
    // Before 0.7.0 DeepSpeed has no communication logger and ignores the section.
    if (!keyAtRelease(ctx, ['comms_logger'])) return;
    // comm/comm.py timed_op: every collective is followed by a device synchronisation once the logger
    // is on; it is timed and logged only with prof_all (default true), a prof_ops name, or prof=True.
    const profAll = m.get(['comms_logger', 'prof_all']);
    const ops = m.get(['comms_logger', 'prof_ops']);
    const named = Array.isArray(ops) && ops.length > 0;
    const effect =
      profAll === undefined || profAll === true
        ? 'this run still logs (and synchronises) every collective'
        : profAll === false
          ? named
            ? 'this run still synchronises after every collective; with `prof_all` false it logs only a collective called with a `log_name` that `prof_ops` lists, which DeepSpeed\'s own collectives never pass'
            : 'this run still synchronises after every collective, though with `prof_all` false and no `prof_ops` it logs none of them (only those the program asks to profile)'
          : 'this run still synchronises after every collective';
    ctx.report({
      at: ['comms_logger', 'enabled'],
      on: 'value',
      message: `DeepSpeed turns the communication logger on whenever a \`comms_logger\` section is present, whatever \`enabled\` says: ${effect}. Remove the section to turn logging off.`,
      fixes: [{ kind: 'remove-section', title: 'Remove the comms_logger section', edits: [{ op: 'remove', path: ['comms_logger'] }], recommended: true }],
    });
  },
});
