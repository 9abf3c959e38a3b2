/**
 * irrelevant-section: a section the chosen `distributed_type` never reads.
 */
import type { AccelerateModel } from '../formats/accelerate/model';
import { LAUNCH_TYPE_SWITCH, src } from '../formats/accelerate/helpers';
import { code } from './helpers';
import { defineRule } from './rule';
import { appliesTo, appliesToSince, strictUntil } from '../schema/vocabulary';


/** Whether a launch of the config picks, on its command line, a type or precision that reads the section. */
function launchReads(m: AccelerateModel, types: readonly string[]): boolean {
  return types.some((t) => LAUNCH_TYPE_SWITCH[t] !== undefined && m.commandLine(LAUNCH_TYPE_SWITCH[t]).passed);
}

/** `parallelism_config` is left to parallelism-requires-fsdp2, which knows when it matters. */
const SECTIONS = ['fsdp_config', 'deepspeed_config', 'megatron_lm_config', 'mpirun_config', 'fp8_config', 'parallelism_config', 'dynamo_config'];

export default defineRule<AccelerateModel>({
  id: 'irrelevant-section',
  severity: 'warning',
  tags: ['unnecessary'],
  formats: ['accelerate'],
  fixes: {
    'remove-ignored': { applicability: 'safe', changes: 'removes a section the tool does not read' },
  },
  docs: {
    summary: 'A section that the chosen `distributed_type` (or precision) never reads.',
    why: 'The launcher reads only the section of the chosen type: an `fsdp_config` under `DEEPSPEED`, or an `fp8_config` without `mixed_precision: fp8`, is dropped silently, and so are a `dynamo_config` under `DEEPSPEED` or `XLA` and a `parallelism_config` under a type whose launch does not pass it on (`DEEPSPEED` before 1.12.0). Usually the type was changed and the old section left behind, or the type is not the one intended. A launch that picks the type on its command line (`accelerate launch --use_fsdp`, `--mixed_precision fp8`) reads the section: with such a launch in view nothing is said, and with no launch in view the finding says it assumes none does.',
    bad: 'distributed_type: MULTI_GPU\nnum_processes: 8\nfsdp_config:\n  fsdp_version: 2\n',
    good: 'distributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n  fsdp_version: 2\n',
    fix: 'Removes the section.',
  },
  check(ctx) {
    const m = ctx.model;
    // An unquoted `distributed_type: no` loads as False, which Accelerate matches against no type and
    // launches as `'NO'` does (src/accelerate/commands/config/config_args.py@v1.14.0 `process_config`).
    const dt = m.distributedType ?? (!m.sagemaker && m.view.get(['distributed_type']) === false ? 'NO' : undefined);
    if (m.sagemaker || !dt || !ctx.nav) return;
    const root = ctx.nav.resolve(ctx.nav.root, ctx.doc.value([]));
    for (const section of SECTIONS) {
      if (!m.hasSection(section)) continue;
      const at = src(m, [section]);
      if (section === 'fp8_config') {
        if (m.mixedPrecision !== 'fp8' && !m.commandLine('mixed_precision').passed) {
          ctx.report({
            at,
            related: [{ at: src(m, ['mixed_precision']), on: 'entry', message: 'the precision is chosen here' }],
            message: `\`fp8_config\` is only read with \`mixed_precision: fp8\`, and this file has ${m.mixedPrecision ? code(`mixed_precision: ${m.mixedPrecision}`) : 'no `mixed_precision`'}: none of these FP8 settings apply. Set \`mixed_precision: fp8\` or remove the section.`,
            fixes: [{ kind: 'remove-ignored', title: 'Remove `fp8_config`', edits: [{ op: 'remove', path: at }] }],
          });
        }
        continue;
      }
      const schema = ctx.nav.resolve(ctx.nav.child(root, section));
      // The types whose launch path exports the section at the targeted release.
      const applies = appliesTo(schema, (v) => ctx.atLeast(v));
      if (!applies || applies.includes(dt) || launchReads(m, applies)) continue;
      const later = appliesToSince(schema)?.[dt];
      // Releases before `x-strict-until` copy every key of the section onto the launch arguments on a
      // local machine whatever the type (`getattr(args, k)`, Accelerate before 0.16.0), so a key they
      // do not know stops the launch although the section is never used: unknown-key says so, as an
      // error, and this finding, which would drop it as a key nobody reads, waits until it is fixed.
      const until = strictUntil(schema);
      if (until && !ctx.atLeast(until) && ctx.issues.some((i) => i.kind === 'unknown-key' && i.path[0] === section)) continue;
      ctx.report({
        at,
        related: [{ at: src(m, ['distributed_type']), on: 'entry', message: `\`distributed_type: ${dt}\` is chosen here` }],
        message: `\`${section}\` is not read with \`distributed_type: ${dt}\`${later ? ` by the targeted ${ctx.versionLabel ?? 'release'} (its ${dt} launch passes the section on from ${later})` : ` (only with ${applies.map(code).join(', ')})`}: every setting in it is ignored. Remove it, or change \`distributed_type\` if this section is what you meant to use.`,
        fixes: [{ kind: 'remove-ignored', title: `Remove \`${section}\``, edits: [{ op: 'remove', path: at }] }],
      });
    }
  },
});
