/**
 * fsdp1-reshard-after-forward-ignored: under FSDP1, `fsdp_reshard_after_forward` is not what
 * decides the sharding strategy.
 */
import type { AccelerateModel } from '../formats/accelerate/model';
import { isFsdp, src } from '../formats/accelerate/helpers';
import { code } from './helpers';
import { defineRule } from './rule';

export default defineRule<AccelerateModel>({
  id: 'fsdp1-reshard-after-forward-ignored',
  severity: 'warning',
  tags: ['unnecessary'],
  formats: ['accelerate'],
  fixes: {
    'remove-ignored': { applicability: 'safe', changes: 'removes a key FSDP1 ignores' },
    'rename-to-strategy': { applicability: 'unsafe', changes: 'the sharding strategy: the written one instead of FULL_SHARD' },
  },
  docs: {
    summary: 'FSDP1 with `fsdp_reshard_after_forward` (the FSDP2 key) instead of `fsdp_sharding_strategy`.',
    why: 'For FSDP1 the launcher always exports `fsdp_sharding_strategy` (default `FULL_SHARD`) and the plugin reads it first, so `fsdp_reshard_after_forward: SHARD_GRAD_OP` (what the questionnaire writes for FSDP1) runs as `FULL_SHARD`. A boolean there means nothing to FSDP1.',
    bad: 'distributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n  fsdp_version: 1\n  fsdp_reshard_after_forward: SHARD_GRAD_OP\n',
    good: 'distributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n  fsdp_version: 1\n  fsdp_sharding_strategy: SHARD_GRAD_OP\n',
    fix: 'Renames the key to `fsdp_sharding_strategy`.',
  },
  check(ctx) {
    const m = ctx.model;
    if (!isFsdp(m, 1, (v) => ctx.atLeast(v))) return;
    const value = m.view.get(['fsdp_config', 'fsdp_reshard_after_forward']);
    if (value === undefined) return;
    const at = src(m, ['fsdp_config', 'fsdp_reshard_after_forward']);
    if (m.view.has(['fsdp_config', 'fsdp_sharding_strategy'])) {
      ctx.report({ at, message: 'Under FSDP1 `fsdp_reshard_after_forward` is ignored: `fsdp_sharding_strategy` decides. Remove it to avoid confusion.', fixes: [{ kind: 'remove-ignored', title: 'Remove `fsdp_reshard_after_forward`', edits: [{ op: 'remove', path: at }], recommended: true }] });
      return;
    }
    if (typeof value === 'boolean') {
      ctx.report({
        at,
        message: `\`fsdp_reshard_after_forward: ${value}\` is an FSDP2 setting; this config runs FSDP1 (\`fsdp_version\` ${m.view.has(['fsdp_config', 'fsdp_version']) ? 'is 1' : 'defaults to 1'}), which uses \`fsdp_sharding_strategy\` and runs \`FULL_SHARD\`. Set \`fsdp_version: 2\`, or use \`fsdp_sharding_strategy\`.`,
      });
      return;
    }
    // Ignored, but it asks for what runs anyway: a name to tidy, nothing that changes the run.
    const same = String(value).toUpperCase() === 'FULL_SHARD' || value === 1;
    ctx.report({
      at,
      severity: same ? 'information' : undefined,
      message: `Under FSDP1 the launcher always exports \`fsdp_sharding_strategy\` (default \`FULL_SHARD\`) and it wins, so ${code(value)} here is ignored and the run uses \`FULL_SHARD\`${same ? ', which is what it asks for' : ''}. Write it as \`fsdp_sharding_strategy\`.`,
      fixes: [{ kind: 'rename-to-strategy', title: 'Rename to `fsdp_sharding_strategy`', edits: [{ op: 'rename', path: at, key: 'fsdp_sharding_strategy' }], recommended: true }],
    });
  },
});
