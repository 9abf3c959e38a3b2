/**
 * missing-key-prefix: a key of a section whose keys must carry the section's prefix
 * (`parallelism_config_`, `megatron_lm_`), written without it.
 */
import { code, pathLabel } from './helpers';
import { defineRule } from './rule';
import { requiredPrefix } from '../schema/vocabulary';

export default defineRule({
  id: 'missing-key-prefix',
  severity: 'warning',
  formats: 'all',
  fixes: {
    // The bare key is set on the launcher's arguments and read by nothing, never refused: the rename
    // makes the setting take effect, which changes the run.
    'add-prefix': { applicability: 'unsafe', changes: 'the run: the setting the ignored key names takes effect under the spelling accelerate reads' },
  },
  docs: {
    summary: 'A `parallelism_config` or `megatron_lm_config` key written without its required prefix.',
    why: 'The launcher adds the `fsdp_` prefix to bare FSDP keys, but not the `parallelism_config_` or `megatron_lm_` prefix: `tp_size: 2` under `parallelism_config` is passed on as an argument nobody reads, so the mesh is built without it (a size of 1): Accelerate then stops when the sizes left no longer multiply to `num_processes` ("ParallelismConfig total_size … does not match num_processes", world-size-mismatch), and runs a layout nobody wrote without a word when they still do.',
    bad: 'distributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n  fsdp_version: 2\nparallelism_config:\n  tp_size: 2\n  parallelism_config_dp_shard_size: 4\n',
    good: 'distributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n  fsdp_version: 2\nparallelism_config:\n  parallelism_config_tp_size: 2\n  parallelism_config_dp_shard_size: 4\n',
    fix: 'Adds the prefix; the setting then takes effect, so the fix is offered, never applied on its own.',
  },
  check(ctx) {
    // Each issue on its own: what is read for one does not weigh on another's finding.
    ctx.each(ctx.issues, (issue) => {
      if (issue.kind !== 'unknown-key') return;
      const prefix = requiredPrefix(issue.section);
      if (!prefix || issue.key.startsWith(prefix)) return;
      const full = prefix + issue.key;
      if (!issue.section?.properties?.[full]) return;
      const section = pathLabel(issue.path.slice(0, -1));
      ctx.report({
        at: issue.path,
        message: `${code(issue.key)} is ignored: keys in ${section} must be written with the ${code(prefix)} prefix (the launcher does not add it), so this setting never reaches ${ctx.tool}. Write ${code(full)}.`,
        fixes: ctx.doc.entry([...issue.path.slice(0, -1), full]) ? [] : [{ kind: 'add-prefix', title: `Rename to ${code(full)}`, edits: [{ op: 'rename', path: issue.path, key: full }], recommended: true }],
      });
    });
  },
});
