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
    for (const p of ctx.problems) {
      if (p.code !== 'duplicate-key') continue;
      // DeepSpeed reads a config path with a hook that rejects duplicates (runtime/config_utils.py,
      // dict_raise_error_on_duplicate_keys); Accelerate and the HF Trainer load it with json.load first.
      const message = ctx.format === 'deepspeed' && ctx.doc.syntax === 'json' ? p.message.replace(/json\.load keeps only the last one and drops this one without a word\./, 'DeepSpeed refuses the file when it reads it itself ("Duplicate key in DeepSpeed config"); Accelerate and the HF Trainer, which load it with json.load first, keep only the last one without a word.') : p.message;
      ctx.report({ at: p.span, message, severity: p.severity });
    }
  },
});
