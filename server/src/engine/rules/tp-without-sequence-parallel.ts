/**
 * tp-without-sequence-parallel: Megatron tensor parallelism without sequence parallelism.
 */
import { allKnown, fieldPath, fmtGiB, knobEdit, planMemory } from '../plan/layout';
import { defineRule } from './rule';

export default defineRule({
  id: 'tp-without-sequence-parallel',
  // Advice: Megatron runs TP without SP (its own example scripts do), except where noted below.
  severity: 'information',
  formats: 'all',
  fixes: {
    'turn-on-sequence-parallel': { applicability: 'unsafe', changes: 'sequence parallelism' },
  },
  verifyFixes: true,
  docs: {
    summary: 'Megatron tensor parallelism (TP > 1) without sequence parallelism.',
    why: 'Without sequence parallelism every TP rank keeps a full copy of the layer-norm and dropout activations, and TP communicates with all-reduces; with it those activations are split TP ways and the all-reduce becomes a reduce-scatter plus an all-gather of the same volume. It costs nothing and saves activation memory, so Megatron\'s guide says to always enable it with TP. With expert parallelism Megatron Core before 0.15 refuses TP without SP ("When using expert parallelism and tensor parallelism, sequence parallelism must be used"), an error for files that target such a release; current releases only warn.',
    bad: 'distributed_type: MEGATRON_LM\nnum_processes: 8\nmegatron_lm_config:\n  megatron_lm_tp_degree: 4\n  megatron_lm_context_parallel_size: 1\n',
    good: 'distributed_type: MEGATRON_LM\nnum_processes: 8\nmegatron_lm_config:\n  megatron_lm_tp_degree: 4\n  megatron_lm_context_parallel_size: 1\n  megatron_lm_sequence_parallelism: true\n',
    fix: 'Turns sequence parallelism on.',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 4 --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 4 --sequence-parallel --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.15.3, `model_parallel_config.py`: EP with TP needs sequence parallelism', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.15.3/megatron/core/model_parallel_config.py#L391' },
    ],
  },
  check(ctx) {
    const p = ctx.plan;
    if (!p || p.style !== 'megatron' || p.tp.value <= 1 || p.sp.value || !p.knobs.sp || !allKnown(p.sp, p.tp)) return;
    const e = knobEdit(p, 'sp', true);
    const now = planMemory(p);
    const withSp = planMemory(p, { sp: true });
    const saving = now && withSp && now.bytes.activations > withSp.bytes.activations ? ` (about ${fmtGiB(now.bytes.activations - withSp.bytes.activations)} GiB of activations per GPU here)` : '';
    // megatron/core/model_parallel_config.py, core_v0.4.0 to core_v0.14.0: a ValueError with EP > 1.
    const refused = p.ep.value > 1 && !ctx.atLeast('0.15.0');
    ctx.report({
      at: fieldPath(p, p.tp, 'tp'),
      on: 'value',
      severity: refused ? 'error' : undefined,
      message: refused
        ? `TP ${p.tp.value} with EP ${p.ep.value} and no sequence parallelism: Megatron Core ${ctx.versionLabel} stops ("When using expert parallelism and tensor parallelism, sequence parallelism must be used"; releases from 0.15 only warn). Turn sequence parallelism on.`
        : `TP ${p.tp.value} without sequence parallelism: each TP rank holds the full layer-norm and dropout activations${saving}, for the same communication volume. Turn sequence parallelism on.`,
      fixes: e ? [{ kind: 'turn-on-sequence-parallel', title: 'Turn sequence parallelism on', edits: [e], recommended: true }] : [],
    });
  },
});
