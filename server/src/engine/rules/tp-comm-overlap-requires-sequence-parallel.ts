/**
 * tp-comm-overlap-requires-sequence-parallel: TP communication overlap without sequence parallelism.
 */
import { allKnown, fieldPath, knobEdit } from '../plan/layout';
import { argOn, type MegatronModel } from '../formats/megatron/model';
import { defineRule } from './rule';

export default defineRule({
  id: 'tp-comm-overlap-requires-sequence-parallel',
  severity: 'error',
  formats: 'all',
  fixes: {
    'turn-on-sequence-parallel': { applicability: 'unsafe', changes: 'sequence parallelism' },
  },
  docs: {
    summary: '`--tp-comm-overlap` without sequence parallelism (or with TP 1).',
    why: 'TP communication overlap pipelines the all-gather and reduce-scatter that sequence parallelism introduces; without sequence parallelism there is nothing it can overlap. the argument checks of Megatron-LM refuse the combination ("Tensor parallel communication/GEMM overlap can happen only when sequence parallelism is enabled"; an error for launch scripts and MODEL_ARGS) and Megatron Bridge turns the overlap off with a log line when the run has a `comm_overlap` config, and Transformer Engine otherwise builds no overlap without sequence parallelism (a warning there), so the flag does nothing either way.',
    bad: "# shardwise: format=megatron-yaml world_size=16\nMODEL_ARGS:\n  --tensor-model-parallel-size: 4\n  --tp-comm-overlap: true\n",
    good: "# shardwise: format=megatron-yaml world_size=16\nMODEL_ARGS:\n  --tensor-model-parallel-size: 4\n  --sequence-parallel: true\n  --tp-comm-overlap: true\n",
    fix: 'Turns sequence parallelism on.',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 8 --tp-comm-overlap \\\n    --micro-batch-size 1 --global-batch-size 64\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 8 --sequence-parallel --tp-comm-overlap \\\n    --micro-batch-size 1 --global-batch-size 64\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.15.3, `megatron/training/arguments.py`: TP communication overlap needs sequence parallelism', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.15.3/megatron/training/arguments.py#L930-L931' },
    ],
  },
  check(ctx) {
    const p = ctx.plan;
    if (!p || !p.overlap.tpComm?.value || (p.sp.value && p.tp.value > 1) || !allKnown(p.sp, p.tp)) return;
    const e = p.tp.value > 1 ? knobEdit(p, 'sp', true) : undefined;
    // Megatron-LM's argparse refuses it (megatron/training/arguments.py); Bridge turns the overlap off
    // and logs it where its comm-overlap config runs (training/config.py, only with a `comm_overlap`
    // section), and Transformer Engine otherwise builds no overlap without sequence parallelism, so
    // there the flag only does nothing.
    const mlm = ctx.format === 'megatron-args' || ctx.format === 'megatron-yaml';
    // Before 0.10 the check ran before sequence parallelism was turned off at TP 1, so TP 1 with
    // `--sequence-parallel` passed it (megatron/training/arguments.py at core_v0.9.0). The `--yaml-cfg`
    // reader (validate_yaml, yaml_arguments.py) kept that order at every release (core_v0.15.3:86 vs 304).
    const passedOld = mlm && p.tp.value <= 1 && argOn(ctx.model as MegatronModel, 'sequence_parallel') && (p.yamlCfg === true || !ctx.atLeast('0.10.0'));
    const refused = mlm && !passedOld;
    ctx.report({
      severity: refused ? undefined : 'warning',
      at: fieldPath(p, p.overlap.tpComm, 'tpCommOverlap'),
      message:
        p.tp.value <= 1
          ? `TP communication overlap with TP 1 has no TP communication to overlap${refused ? ': Megatron-LM stops ("Tensor parallel communication/GEMM overlap can happen only when sequence parallelism is enabled", sequence parallelism being off at TP 1)' : ''}; remove the flag.`
          : `TP communication overlap needs sequence parallelism, which is off: ${refused ? 'Megatron-LM stops ("Tensor parallel communication/GEMM overlap can happen only when sequence parallelism is enabled")' : `the overlap is turned off (${ctx.format === 'nemo' ? 'NeMo logs it' : ctx.format === 'megatron-bridge' ? 'by Megatron Bridge, which logs it, when the run has a `comm_overlap` config, and otherwise by Transformer Engine, which builds no overlap without sequence parallelism' : `${ctx.tool} turns it off`}), so the setting does nothing`}. Turn sequence parallelism on (it also cuts activation memory by TP ${p.tp.value}).`,
      fixes: e ? [{ kind: 'turn-on-sequence-parallel', title: 'Turn sequence parallelism on', edits: [e], recommended: true }] : [],
    });
  },
});
