/**
 * unread-key: a Megatron Bridge field the config accepts that no code reads. Bridge's config classes
 * inherit Megatron-LM's training options; some of them only Megatron-LM's own training loop reads,
 * which Bridge does not run, so setting them changes nothing (`x-bridge-unread`, found by the history
 * script: no reader by name in Bridge, recipes aside, or in Megatron Core at the commit Bridge pins).
 */
import { bridgeUnread } from '../formats/megatron/schema';
import { walkSchema } from './helpers';
import { defineRule } from './rule';

export default defineRule({
  id: 'unread-key',
  severity: 'information',
  tags: ['unnecessary'],
  formats: ['megatron-bridge'],
  docs: {
    summary: 'A Megatron Bridge field that the config accepts but no code reads: setting it changes nothing.',
    why: 'Bridge builds its config from dataclasses that inherit Megatron-LM\'s training options, so it accepts fields that only Megatron-LM\'s own training loop reads, and Bridge runs its own loop. `checkpoint.verify_integrity: true` there hashes nothing; `checkpoint.save_wgrads_interval` saves nothing. The list comes from a search of Bridge (recipes aside) and Megatron Core at the commit Bridge pins for any read of the field, so a field read some other way would be missed: the finding is a note.',
    bad: 'model:\n  tensor_model_parallel_size: 2\ncheckpoint:\n  save: /ckpt\n  save_interval: 1000\n  verify_integrity: true\n',
    good: 'model:\n  tensor_model_parallel_size: 2\ncheckpoint:\n  save: /ckpt\n  save_interval: 1000\n',
  },
  check(ctx) {
    walkSchema(ctx, (path, schema) => {
      const dotted = path.filter((p): p is string => typeof p === 'string').join('.');
      const field = bridgeUnread(schema).find((b) => dotted === b || dotted.endsWith(`.${b}`));
      if (!field) return;
      ctx.report({
        at: path,
        message: `Nothing in Megatron Bridge (its recipes aside) or in Megatron Core reads \`${field}\`: Bridge accepts it because its config inherits Megatron-LM's training options, but only Megatron-LM's own training loop would use it, so setting it most likely changes nothing. Remove it, or get what it promised another way.`,
      });
    });
  },
});
