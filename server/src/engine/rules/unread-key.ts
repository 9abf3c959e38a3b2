/**
 * unread-key: a Megatron Bridge field the config accepts that no code reads. Bridge's config classes
 * inherit Megatron-LM's training options; some of them only Megatron-LM's own training loop reads,
 * which Bridge does not run, so setting them changes nothing (`x-bridge-unread`, found by the history
 * script: no reader by name in Bridge, recipes aside, or in Megatron Core at the commit Bridge pins).
 */
import { bridgeUnread, MEGATRON_SCHEMA } from '../formats/megatron/schema';
import type { Node } from '../syntax/tree';
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
    // The document's own keys, not the arguments they set: two Bridge paths may set one argument
    // (`train.skip_train`, `validation.skip_train`), and only one of them may be read.
    const unread = unreadPaths();
    const go = (node: Node | undefined, path: string[], depth: number): void => {
      if (node?.kind !== 'map' || depth > 8) return;
      for (const e of node.entries) {
        if (e.merged) continue;
        const here = [...path, e.key];
        const dotted = here.join('.');
        const field = unread.find((b) => dotted === b || dotted.endsWith(`.${b}`));
        if (field) {
          ctx.separately(() =>
            ctx.report({
              at: here,
              message: `Nothing in Megatron Bridge (its recipes aside) or in Megatron Core reads \`${field}\`: Bridge accepts it because its config inherits Megatron-LM's training options, but only Megatron-LM's own training loop would use it, so setting it most likely changes nothing. Remove it, or get what it promised another way.`,
            }),
          );
        } else go(e.value, here, depth + 1);
      }
    };
    go(ctx.doc.root, [], 0);
  },
});

let paths: string[] | undefined;
/** Every Bridge path the schema marks as read by nothing (`x-bridge-unread`). */
function unreadPaths(): string[] {
  return (paths ??= Object.values(MEGATRON_SCHEMA.properties ?? {}).flatMap((s) => bridgeUnread(s)));
}
