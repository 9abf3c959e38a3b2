/**
 * duplicate-key: a key written twice in one mapping (or twice under two spellings of one setting).
 */
import { defineRule } from './rule';

export default defineRule({
  id: 'duplicate-key',
  severity: 'warning',
  formats: 'all',
  forks: true,
  docs: {
    summary: 'A key is written twice in the same mapping.',
    why: 'YAML and JSON loaders keep the last occurrence and drop the others silently, so an edit to the first one has no effect. The same goes for two spellings of one setting (`offload_params` and `fsdp_offload_params`), which the launcher folds into one.',
    bad: 'distributed_type: MULTI_GPU\ndebug: true\nnum_processes: 8\ndebug: false\n',
    good: 'distributed_type: MULTI_GPU\nnum_processes: 8\ndebug: false\n',
  },
  check(ctx) {
    for (const p of ctx.problems) if (p.code === 'duplicate-key') ctx.report({ at: p.span, message: p.message, severity: p.severity });
  },
});
