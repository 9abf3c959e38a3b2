/**
 * fsdp2-unsupported-key: FSDP1-only keys and values under `fsdp_version: 2`.
 */
import type { AccelerateModel } from '../formats/accelerate/model';
import { fsdpStrategyName, isFsdp, RESHARDS_AFTER_FORWARD, src } from '../formats/accelerate/helpers';
import type { PathEdit } from '../syntax/sourcedoc';
import type { Severity } from '../types';
import { code } from './helpers';
import { defineRule, type FixSpec } from './rule';

/** torch's StateDictType by value. */
const STATE_DICT_TYPES: Readonly<Record<number, string>> = { 1: 'FULL_STATE_DICT', 2: 'LOCAL_STATE_DICT', 3: 'SHARDED_STATE_DICT' };

const FSDP1_ONLY: Record<string, { severity: Severity; why: string }> = {
  fsdp_backward_prefetch: { severity: 'warning', why: 'FSDP2 has no backward-prefetch setting; accelerate warns and drops it' },
  fsdp_forward_prefetch: { severity: 'warning', why: 'forward prefetch is not implemented for FSDP2; the value is dropped' },
  fsdp_use_orig_params: { severity: 'information', why: 'FSDP2 always uses the original parameters; the key is obsolete' },
  fsdp_sync_module_states: { severity: 'information', why: 'FSDP2 needs no module-state broadcast; the key is obsolete' },
};

export default defineRule<AccelerateModel>({
  id: 'fsdp2-unsupported-key',
  severity: 'warning',
  formats: ['accelerate'],
  fixes: {
    'remove-ignored': { applicability: 'safe', changes: 'removes a key FSDP2 ignores' },
    'migrate-default-strategy': { applicability: 'safe', changes: 'writes the FSDP2 key for what already runs: resharding after forward' },
    'migrate-strategy': { applicability: 'unsafe', changes: 'the sharding: the written strategy instead of the full resharding that runs' },
    'write-boolean': { applicability: 'safe', changes: 'writes the boolean the strategy name stands for' },
    'sharded-state-dict': { applicability: 'unsafe', changes: 'the checkpoint format' },
  },
  docs: {
    summary: 'FSDP1-only keys or values under `fsdp_version: 2`.',
    why: 'FSDP2 (`fully_shard`) replaced the sharding strategy by `fsdp_reshard_after_forward: true|false`, dropped backward/forward prefetch, `use_orig_params` and `sync_module_states`, and has no `LOCAL_STATE_DICT` (Accelerate 1.6.0 refuses every state-dict type but `SHARDED_STATE_DICT` under FSDP2, later releases refuse `LOCAL_STATE_DICT`). Accelerate ignores the old keys (so `fsdp_sharding_strategy: SHARD_GRAD_OP` silently runs as ZeRO-3-like full sharding) and fails on the old values. `accelerate to-fsdp2` performs this migration; the quick fixes do it in place.',
    bad: 'distributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n  fsdp_version: 2\n  fsdp_sharding_strategy: SHARD_GRAD_OP\n',
    good: 'distributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n  fsdp_version: 2\n  fsdp_reshard_after_forward: false\n',
    fix: 'Replaces `fsdp_sharding_strategy` with the equivalent `fsdp_reshard_after_forward`, converts a strategy name in `fsdp_reshard_after_forward` to its boolean, switches a refused state-dict type to `SHARDED_STATE_DICT`, and removes the obsolete keys.',
  },
  check(ctx) {
    const m = ctx.model;
    if (!isFsdp(m, 2, (v) => ctx.atLeast(v))) return;
    const v = m.view;
    const reshardPath = ['fsdp_config', 'fsdp_reshard_after_forward'];
    const strategy = v.get(['fsdp_config', 'fsdp_sharding_strategy']);
    if (strategy !== undefined) {
      const name = fsdpStrategyName(strategy) ?? String(strategy).toUpperCase();
      const reshard = RESHARDS_AFTER_FORWARD[name];
      const at = src(m, ['fsdp_config', 'fsdp_sharding_strategy']);
      const fixes: FixSpec[] = [];
      if (v.has(reshardPath)) fixes.push({ kind: 'remove-ignored', title: 'Remove `fsdp_sharding_strategy`', edits: [{ op: 'remove', path: at }], recommended: true });
      else if (reshard !== undefined) fixes.push({ kind: reshard === true ? 'migrate-default-strategy' : 'migrate-strategy', title: `Replace with \`fsdp_reshard_after_forward: ${reshard}\``, edits: migrate(at, reshard), recommended: true });
      ctx.report({
        at,
        tags: ['unnecessary'],
        message: `FSDP2 ignores \`fsdp_sharding_strategy\` (it is an FSDP1 setting)${reshard === false ? `, so ${code(name)} silently becomes full resharding after forward, with more all-gathers than you asked for` : ''}. Use \`fsdp_reshard_after_forward\`${reshard !== undefined ? `: \`${reshard}\` is the FSDP2 equivalent of ${code(name)}` : ''}.`,
        fixes,
      });
    }
    const reshardValue = v.get(reshardPath);
    if (typeof reshardValue === 'string' && !/^(true|false|yes|no|1|0|on|off|y|n|t|f)$/i.test(reshardValue)) {
      const name = reshardValue.toUpperCase();
      const at = src(m, reshardPath);
      const b = RESHARDS_AFTER_FORWARD[name];
      ctx.report({
        at,
        on: 'value',
        severity: 'error',
        message: `Under FSDP2 \`fsdp_reshard_after_forward\` is a boolean; the FSDP1 strategy name ${code(reshardValue)} fails ("invalid truth value"). ${b !== undefined ? `Write \`${b}\`, the FSDP2 equivalent of ${code(name)}.` : 'Write `true` (reshard, like FULL_SHARD) or `false` (keep, like SHARD_GRAD_OP).'}`,
        fixes: b !== undefined ? [{ kind: 'write-boolean', title: `Write \`${b}\``, edits: [{ op: 'set', path: at, value: b }], recommended: true }] : [],
      });
    }
    // Accelerate 1.6.0 (utils/dataclasses.py) refuses every state-dict type but SHARDED under FSDP2;
    // from 1.7.0 only LOCAL_STATE_DICT is refused. Without the key FSDP2 defaults to SHARDED.
    // A number names the type by its value in torch's StateDictType (1 FULL, 2 LOCAL, 3 SHARDED), which
    // set_state_dict_type reads for a digit string (utils/dataclasses.py@v1.14.0 `StateDictType(int(...))`).
    const written = v.get(['fsdp_config', 'fsdp_state_dict_type']);
    const byNumber = typeof written === 'number' || (typeof written === 'string' && /^\d+$/.test(written)) ? STATE_DICT_TYPES[Number(written)] : undefined;
    const stateDict = byNumber ?? String(written ?? '').toUpperCase();
    const shown = byNumber ? `${code(String(written))} (${byNumber})` : code(stateDict);
    const onlySharded = !ctx.atLeast('1.7.0');
    if (stateDict === 'LOCAL_STATE_DICT' || (stateDict === 'FULL_STATE_DICT' && onlySharded)) {
      const at = src(m, ['fsdp_config', 'fsdp_state_dict_type']);
      ctx.report({
        at,
        on: 'value',
        severity: 'error',
        message: onlySharded
          ? `Accelerate ${ctx.versionLabel ?? 'before 1.7.0'} saves FSDP2 checkpoints only as \`SHARDED_STATE_DICT\`: with ${shown} it stops ("FSDP2 only supports SHARDED_STATE_DICT for now"). Use \`SHARDED_STATE_DICT\` (from Accelerate 1.7.0 \`FULL_STATE_DICT\` works too).`
          : `FSDP2 has no \`LOCAL_STATE_DICT\`${byNumber ? ` (${code(String(written))})` : ''}: accelerate stops ("FSDP2 does not support LOCAL_STATE_DICT"). Use \`SHARDED_STATE_DICT\` (one file per rank, the fast choice) or \`FULL_STATE_DICT\`.`,
        fixes: [{ kind: 'sharded-state-dict', title: 'Change to `SHARDED_STATE_DICT`', edits: [{ op: 'set', path: at, value: 'SHARDED_STATE_DICT' }], recommended: true }],
      });
    }
    for (const [key, info] of Object.entries(FSDP1_ONLY)) {
      if (!v.has(['fsdp_config', key])) continue;
      const at = src(m, ['fsdp_config', key]);
      ctx.report({
        at,
        severity: info.severity,
        tags: ['unnecessary'],
        message: `\`${key}\` is an FSDP1 setting: under \`fsdp_version: 2\` ${info.why}. Remove it.`,
        fixes: [{ kind: 'remove-ignored', title: `Remove \`${key}\``, edits: [{ op: 'remove', path: at }], recommended: true }],
      });
    }
  },
});

function migrate(at: readonly (string | number)[], reshard: boolean): PathEdit[] {
  return [{ op: 'rename', path: at, key: 'fsdp_reshard_after_forward' }, { op: 'set', path: at, value: reshard }];
}
