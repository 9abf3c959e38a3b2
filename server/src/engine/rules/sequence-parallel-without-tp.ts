/**
 * sequence-parallel-without-tp: sequence parallelism asked for with TP 1.
 */
import { allKnown, fieldPath, knobEdit } from '../plan/layout';
import { untracked } from './certain';
import { defineRule } from './rule';

export default defineRule({
  id: 'sequence-parallel-without-tp',
  // Megatron-LM and Bridge turn SP off and go on: the flag has no effect, nothing fails.
  severity: 'information',
  tags: ['unnecessary'],
  formats: 'all',
  fixes: {
    'turn-off': { applicability: 'safe', changes: 'writes what runs: Megatron turns sequence parallelism off at TP 1' },
  },
  docs: {
    summary: 'Megatron sequence parallelism is on while TP is 1.',
    why: 'Sequence parallelism splits the layer-norm and dropout activations across the tensor-parallel ranks; with TP 1 there is nothing to split. Megatron-LM turns it off (with a warning from 0.10.0, "Disabling sequence parallelism because tensor model parallelism is disabled"; silently before), Megatron Bridge silently from 0.4 (Megatron Core 0.17), and Megatron Core used directly raises at every release (so a Bridge override with a Megatron Core before 0.17 stops). The flag is a sign that TP was lowered and the rest of the layout was not revisited.',
    bad: 'distributed_type: MEGATRON_LM\nnum_processes: 8\nmegatron_lm_config:\n  megatron_lm_tp_degree: 1\n  megatron_lm_context_parallel_size: 1\n  megatron_lm_sequence_parallelism: true\n',
    good: 'distributed_type: MEGATRON_LM\nnum_processes: 8\nmegatron_lm_config:\n  megatron_lm_tp_degree: 1\n  megatron_lm_context_parallel_size: 1\n  megatron_lm_sequence_parallelism: false\n',
    fix: 'Turns sequence parallelism off, matching what runs; not offered beside the TP communication overlap, whose check some releases make before they turn sequence parallelism off.',
    shell: {
      bad: '#!/bin/bash\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 1 --sequence-parallel \\\n    --micro-batch-size 1 --global-batch-size 64\n',
      good: '#!/bin/bash\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 1 \\\n    --micro-batch-size 1 --global-batch-size 64\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.15.3, `megatron/training/arguments.py`: sequence parallelism is turned off at TP 1', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.15.3/megatron/training/arguments.py#L918-L928' },
    ],
  },
  check(ctx) {
    const p = ctx.plan;
    if (!p || !p.sp.value || p.tp.value !== 1 || !allKnown(p.tp)) return;
    // With the TP communication overlap on (or not known off), sequence parallelism may be what lets the
    // overlap's own check pass: Megatron-LM 0.4 to 0.9 asserts `--tp-comm-overlap` needs `--sequence-parallel`
    // before it turns SP off at TP 1 (megatron/arguments.py@core_v0.4.0:102-103, :336; training/arguments.py
    // @core_v0.9.0:215, :501; from 0.10 it turns SP off first, so the overlap stops at TP 1 anyway), so dropping the flag
    // would stop a file that runs. No fix is offered then (which fix is offered weighs on no finding).
    const overlap = untracked(p).overlap?.tpComm;
    const e = overlap?.value === true || (overlap !== undefined && !allKnown(overlap)) ? undefined : knobEdit(p, 'sp', false);
    // Megatron Core's ModelParallelConfig raises at every release (model_parallel_config.py@core_v0.4.0:204,
    // @core_v0.14.0:357-359, reworded in 0.15.0); Megatron Bridge turns SP off before building it only
    // from Bridge 0.4 (Megatron Core 0.17), so a Bridge override with an older Megatron Core stops.
    if (ctx.format === 'megatron-bridge' && !ctx.atLeast('0.17.0')) {
      const quote = ctx.atLeast('0.15.0') ? 'Cannot use sequence parallelism without tensor parallelism' : 'Can not use sequence paralllelism without tensor parallelism';
      ctx.report({
        at: fieldPath(p, p.sp, 'sp'),
        on: 'value',
        severity: 'error',
        tags: [],
        message: `Sequence parallelism needs TP > 1, and TP is 1 (${p.tp.from.kind === 'written' ? 'as written' : 'by default'}): Megatron Core ${ctx.versionLabel ?? 'before 0.17'} stops when it builds the model config ("${quote}"); Megatron Bridge turns it off itself only from 0.4, with Megatron Core 0.17. Turn it off, or set TP > 1.`,
        fixes: e ? [{ kind: 'turn-off', title: 'Turn sequence parallelism off', edits: [e] }] : [],
      });
      return;
    }
    ctx.report({
      at: fieldPath(p, p.sp, 'sp'),
      on: 'value',
      message: `Sequence parallelism needs TP > 1, and TP is 1 (${p.tp.from.kind === 'written' ? 'as written' : 'by default'}): Megatron turns it off, so the effective value is false. Set TP > 1 for SP to take effect, or drop the flag.`,
      fixes: e ? [{ kind: 'turn-off', title: 'Turn sequence parallelism off', edits: [e] }] : [],
    });
  },
});
