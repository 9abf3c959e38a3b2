/**
 * missing-tp-comm-overlap: TP with sequence parallelism whose communication is not overlapped with GEMMs.
 */
import { allKnown, fieldPath, knobEdit, knobName, turnOnTitle } from '../plan/layout';
import { switchAvailable } from '../formats/megatron/overlap';
import { argOn, argValue, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { defineRule } from './rule';

export default defineRule({
  id: 'missing-tp-comm-overlap',
  severity: 'information',
  formats: 'all',
  fixes: {
    'turn-on': { applicability: 'unsafe', changes: 'a communication-overlap switch' },
  },
  docs: {
    summary: 'TP > 1 with sequence parallelism, but TP communication not overlapped with the GEMMs.',
    why: 'With sequence parallelism every layer all-gathers activations before its column-parallel GEMMs and reduce-scatters after its row-parallel ones. `--tp-comm-overlap` (Transformer Engine userbuffers) splits those GEMMs and pipelines the collectives behind them, which recovers most of the TP communication time at TP 4–8. It needs Transformer Engine and sequence parallelism, and pre-allocates communication buffers. Only Transformer Engine\'s layers overlap it: a Megatron-LM script with `--transformer-impl local`, `--use-legacy-models`, or (before Megatron Core 0.8) without `--use-mcore-models` gets no advice, nor (from Megatron Core 0.19, whose deterministic mode refuses the overlap) one with `--deterministic-mode`.',
    bad: "# shardwise: format=megatron-yaml world_size=16\nMODEL_ARGS:\n  --tensor-model-parallel-size: 4\n  --sequence-parallel: true\n",
    good: "# shardwise: format=megatron-yaml world_size=16\nMODEL_ARGS:\n  --tensor-model-parallel-size: 4\n  --sequence-parallel: true\n  --tp-comm-overlap: true\n",
    fix: 'Adds `--tp-comm-overlap`.',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nnodes 2 --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 4 --sequence-parallel --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nnodes 2 --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 4 --sequence-parallel --tp-comm-overlap --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64\n',
    },
  },
  check(ctx) {
    const p = ctx.plan;
    if (!p || p.style !== 'megatron' || !p.knobs.tpCommOverlap || p.tp.value <= 1 || !p.sp.value || p.overlap.tpComm?.value || !allKnown(p.overlap.tpComm)) return;
    // Advice only for a switch the Megatron-LM reading the file has.
    if (p.overlap.tpComm?.from.kind !== 'written' && !switchAvailable(ctx, '--tp-comm-overlap')) return;
    // Only Transformer Engine's layers overlap TP communication: not the local implementation, nor the
    // legacy model (pretrain_gpt.py's default before Megatron Core 0.8, gpt_builders.py@core_v0.15.0:42).
    if ((MLM_FLAG_FORMATS as readonly string[]).includes(ctx.format)) {
      const m = ctx.model as MegatronModel;
      if (argValue(m, 'transformer_impl') === 'local' || argOn(m, 'use_legacy_models')) return;
      if (!argOn(m, 'deprecated_use_mcore_models') && ctx.separately(() => !ctx.atLeast('0.8.0'))) return;
      // From Megatron Core 0.19 the deterministic mode refuses the overlap (determinism.py@core_v0.19.0:24).
      if (argOn(m, 'deterministic_mode') && ctx.separately(() => ctx.atLeast('0.19.0'))) return;
    }
    const e = knobEdit(p, 'tpCommOverlap', true);
    const name = knobName(p, 'tpCommOverlap', '--tp-comm-overlap');
    ctx.report({
      at: fieldPath(p, p.tp, 'tp'),
      on: 'value',
      message: `TP ${p.tp.value} with sequence parallelism all-gathers and reduce-scatters activations around every layer's GEMMs, and without TP communication overlap the GEMMs wait for them. Turn on \`${name}\` (Transformer Engine) to hide that communication behind the GEMMs.`,
      fixes: e ? [{ kind: 'turn-on', title: turnOnTitle(p, 'tpCommOverlap', '--tp-comm-overlap'), edits: [e], recommended: true }] : [],
    });
  },
});
