/**
 * tp-without-sequence-parallel: Megatron tensor parallelism without sequence parallelism.
 */
import { allKnown, fieldPath, fmtGiB, knobEdit, planMemory } from '../plan/layout';
import { defineRule } from './rule';

export default defineRule({
  id: 'tp-without-sequence-parallel',
  severity: 'warning',
  formats: 'all',
  fixes: {
    'turn-on-sequence-parallel': { applicability: 'unsafe', changes: 'sequence parallelism' },
  },
  verifyFixes: true,
  docs: {
    summary: 'Megatron tensor parallelism (TP > 1) without sequence parallelism.',
    why: 'Without sequence parallelism every TP rank keeps a full copy of the layer-norm and dropout activations, and TP communicates with all-reduces; with it those activations are split TP ways and the all-reduce becomes a reduce-scatter plus an all-gather of the same volume. It costs nothing and saves activation memory, so Megatron\'s guide says to always enable it with TP. Current releases do not require it with expert parallelism.',
    bad: 'distributed_type: MEGATRON_LM\nnum_processes: 8\nmegatron_lm_config:\n  megatron_lm_tp_degree: 4\n  megatron_lm_context_parallel_size: 1\n',
    good: 'distributed_type: MEGATRON_LM\nnum_processes: 8\nmegatron_lm_config:\n  megatron_lm_tp_degree: 4\n  megatron_lm_context_parallel_size: 1\n  megatron_lm_sequence_parallelism: true\n',
    fix: 'Turns sequence parallelism on.',
  },
  check(ctx) {
    const p = ctx.plan;
    if (!p || p.style !== 'megatron' || p.tp.value <= 1 || p.sp.value || !p.knobs.sp || !allKnown(p.sp, p.tp)) return;
    const e = knobEdit(p, 'sp', true);
    const now = planMemory(p);
    const withSp = planMemory(p, { sp: true });
    const saving = now && withSp && now.bytes.activations > withSp.bytes.activations ? ` (about ${fmtGiB(now.bytes.activations - withSp.bytes.activations)} GiB of activations per GPU here)` : '';
    ctx.report({
      at: fieldPath(p, p.tp, 'tp'),
      on: 'value',
      message: `TP ${p.tp.value} without sequence parallelism: each TP rank holds the full layer-norm and dropout activations${saving}, for the same communication volume. Turn sequence parallelism on.`,
      fixes: e ? [{ kind: 'turn-on-sequence-parallel', title: 'Turn sequence parallelism on', edits: [e], recommended: true }] : [],
    });
  },
});
