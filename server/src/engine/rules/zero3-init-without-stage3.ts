/**
 * zero3-init-without-stage3: `zero3_init_flag` set while ZeRO is not at stage 3.
 */
import type { AccelerateModel } from '../formats/accelerate/model';
import { linkedJson, pluginZeroStage, src, deepspeedFileRead } from '../formats/accelerate/helpers';
import { defineRule } from './rule';

export default defineRule<AccelerateModel>({
  id: 'zero3-init-without-stage3',
  severity: 'warning',
  formats: ['accelerate'],
  fixes: {
    'turn-off': { applicability: 'safe', changes: 'writes what runs: the flag only acts under ZeRO-3' },
    'set-stage-3': { applicability: 'unsafe', changes: 'the ZeRO stage' },
  },
  docs: {
    summary: '`zero3_init_flag: true` with a ZeRO stage other than 3.',
    why: '`zero3_init_flag` makes Transformers build the model directly partitioned (`deepspeed.zero.Init`), which only exists for ZeRO-3. At another stage accelerate warns at start-up and turns it off, so a model that needed partitioned construction to fit is built whole on every rank. Where the file (or the DeepSpeed JSON it names) shows the stage, the run is what that stage gives whatever the flag says, so this is a note; where the stage is the release\'s default for a key left out, it stays a warning.',
    bad: 'distributed_type: DEEPSPEED\nnum_processes: 8\ndeepspeed_config:\n  zero_stage: 2\n  zero3_init_flag: true\n',
    good: 'distributed_type: DEEPSPEED\nnum_processes: 8\ndeepspeed_config:\n  zero_stage: 3\n  zero3_init_flag: true\n',
    fix: 'Sets `zero3_init_flag: false`, or `zero_stage: 3`.',
  },
  check(ctx) {
    const m = ctx.model;
    if (m.distributedType !== 'DEEPSPEED' || m.view.bool(['deepspeed_config', 'zero3_init_flag']) !== true) return;
    const file = deepspeedFileRead(ctx);
    if (file) {
      // With a DeepSpeed JSON the stage is in that file (when it can be read and is a number).
      const ds = file.model;
      if (!ds || ds.stage === undefined || ds.stage === 3) return;
      // The JSON decides the stage, and accelerate turns the flag off with a warning of its own
      // (utils/dataclasses.py@v1.14.0:1335-1337): nothing about the run changes, so a note.
      ctx.report({
        at: src(m, ['deepspeed_config', 'zero3_init_flag']),
        severity: 'information',
        related: linkedJson(m) ? [{ at: ['zero_optimization', 'stage'], on: 'entry', message: `the ZeRO stage is ${ds.stage} here`, other: linkedJson(m)! }] : undefined,
        message: `\`zero3_init_flag: true\` only works with ZeRO stage 3, and ${file.ref} ${ds.stageWritten ? `sets stage ${ds.stage}` : 'has no ZeRO stage (so 0)'}: accelerate turns the flag off, and the model is built whole on every rank. Use stage 3 in the JSON if the model needs partitioned construction, or drop the flag.`,
        fixes: [{ kind: 'turn-off', title: 'Set `zero3_init_flag: false`', edits: [{ op: 'set', path: src(m, ['deepspeed_config', 'zero3_init_flag']), value: false }] }],
      });
      return;
    }
    const stage = m.view.get(['deepspeed_config', 'zero_stage']);
    // Before the release from which an absent stage defaults to 2, the launcher exports it as the text
    // None and the plugin stops on it before the flag is read (missing-required-key says so).
    const zero = pluginZeroStage(ctx);
    if (stage === undefined && !zero) return;
    if ((zero?.stage ?? stage) === 3) return;
    const flagAt = src(m, ['deepspeed_config', 'zero3_init_flag']);
    ctx.report({
      at: flagAt,
      // A stage the file writes decides the run as it is (accelerate only warns and turns the flag off);
      // one the release defaults to for an absent key is not the file's word, so it stays a warning.
      ...(stage !== undefined ? { severity: 'information' as const } : {}),
      related: [{ at: src(m, ['deepspeed_config', 'zero_stage']), on: 'entry', message: `zero_stage is ${String(stage)} here` }],
      message: `\`zero3_init_flag: true\` only works with ZeRO stage 3, and \`zero_stage\` ${stage === undefined ? 'defaults to 2' : `is ${stage}`}: accelerate turns the flag off, and the model is built whole on every rank. Set \`zero_stage: 3\` if the model needs partitioned construction, or drop the flag.`,
      fixes: [
        { kind: 'turn-off', title: 'Set `zero3_init_flag: false`', edits: [{ op: 'set', path: flagAt, value: false }] },
        { kind: 'set-stage-3', title: 'Set `zero_stage: 3`', edits: [{ op: 'set', path: src(m, ['deepspeed_config', 'zero_stage']), value: 3 }] },
      ],
    });
  },
});
