/**
 * tp-without-sequence-parallel: Megatron tensor parallelism without sequence parallelism.
 */
import { allKnown, fieldPath, fmtGiB, knobEdit, planMemory } from '../plan/layout';
import { defineRule, type RuleContext } from './rule';

/**
 * Why Megatron stops on TP without SP here, if it does: with EP > 1 ModelParallelConfig refuses it at
 * startup before 0.15.0 (megatron/core/model_parallel_config.py, core_v0.4.0 to core_v0.14.0; a warning
 * from 0.15.0), and from 0.7.0 the MoE layer raises a ValueError on the first training step whenever
 * TP > 1 without SP (megatron/core/transformer/moe/moe_layer.py, core_v0.7.0 to the newest). A model
 * is MoE when the file gives it experts or EP > 1; a run that does not train never gets there.
 */
function refusal(ctx: RuleContext, p: NonNullable<RuleContext['plan']>): string | undefined {
  if (p.style !== 'megatron') return undefined;
  const ep = p.ep.value;
  const experts = p.model?.from.kind === 'written' ? p.model.value.experts ?? 0 : 0;
  const moe = ep > 1 || experts > 0;
  // The Megatron release is the file's only in the Megatron formats (Accelerate's is another tool's).
  const mcore = ctx.format === 'megatron-args' || ctx.format === 'megatron-yaml' || ctx.format === 'megatron-bridge' || ctx.format === 'nemo';
  const what = `TP ${p.tp.value} ${ep > 1 ? `with EP ${ep} ` : experts > 0 ? `in an MoE model (${experts} experts) ` : ''}and no sequence parallelism`;
  if (ep > 1 && mcore && !ctx.atLeast('0.15.0')) return `${what}: Megatron Core ${ctx.versionLabel} stops at startup ("When using expert parallelism and tensor parallelism, sequence parallelism must be used"). Turn sequence parallelism on.`;
  // Megatron-LM's own argument checks refuse an MoE model with TP and no SP at startup, training or
  // not: the flags' from 0.5.0 to 0.6.x (megatron/arguments.py@core_v0.5.0,
  // training/arguments.py@core_v0.6.0; a MODEL_ARGS map is flags too), a `--yaml-cfg` file's from
  // 0.6.0 on (training/yaml_arguments.py).
  const flags = ctx.format === 'megatron-args' || (ctx.format === 'megatron-yaml' && !p.yamlCfg);
  const argparse = flags ? ctx.atLeast('0.5.0') && !ctx.atLeast('0.7.0') : ctx.format === 'megatron-yaml' && ctx.atLeast('0.6.0');
  if (experts > 0 && argparse) return `${what}: Megatron-LM ${ctx.versionLabel ?? ''} stops at startup ("When using MoE and tensor parallelism, sequence parallelism must be used"). Turn sequence parallelism on.`;
  if (!moe || p.notTraining) return undefined;
  if (ep > 1 && !mcore) return `${what}: Megatron Core stops, at startup before 0.15 ("When using expert parallelism and tensor parallelism, sequence parallelism must be used"), and from 0.7 on the first training step, where the MoE layer raises a ValueError ("During training, performance may degrade if MoE and tensor parallelism are enabled without also enabling sequence parallelism"). Turn sequence parallelism on.`;
  if (!mcore || !ctx.atLeast('0.7.0')) return undefined;
  return `${what}: the MoE layer of Megatron Core ${ctx.versionLabel} raises a ValueError on the first training step ("During training, performance may degrade if MoE and tensor parallelism are enabled without also enabling sequence parallelism"). Turn sequence parallelism on.`;
}

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
    why: 'Without sequence parallelism every TP rank keeps a full copy of the layer-norm and dropout activations, and TP communicates with all-reduces; with it those activations are split TP ways and the all-reduce becomes a reduce-scatter plus an all-gather of the same volume. It costs nothing and saves activation memory, so Megatron\'s guide recommends it with TP. With expert parallelism Megatron Core before 0.15 refuses TP without SP ("When using expert parallelism and tensor parallelism, sequence parallelism must be used"), an error for files that target such a release (later releases only warn there); and from Megatron Core 0.7 the MoE layer itself raises a ValueError on the first training step whenever TP > 1 runs without sequence parallelism, with or without expert parallelism. A run that takes no training step (an inference or export entry point, `--skip-train`) never gets there.',
    bad: 'distributed_type: MEGATRON_LM\nnum_processes: 8\nmegatron_lm_config:\n  megatron_lm_tp_degree: 4\n  megatron_lm_context_parallel_size: 1\n',
    good: 'distributed_type: MEGATRON_LM\nnum_processes: 8\nmegatron_lm_config:\n  megatron_lm_tp_degree: 4\n  megatron_lm_context_parallel_size: 1\n  megatron_lm_sequence_parallelism: true\n',
    fix: 'Turns sequence parallelism on.',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 4 --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 4 --sequence-parallel --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.14.0, `model_parallel_config.py`: EP with TP needs sequence parallelism (0.15.0 on: a warning)', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.14.0/megatron/core/model_parallel_config.py#L388-L393' },
      { label: 'Megatron-LM core_v0.15.0, `moe_layer.py`: the MoE layer raises when training with TP and without sequence parallelism', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.15.0/megatron/core/transformer/moe/moe_layer.py#L265-L269' },
    ],
  },
  check(ctx) {
    const p = ctx.plan;
    if (!p || p.style !== 'megatron' || p.tp.value <= 1 || p.sp.value || !allKnown(p.sp, p.tp)) return;
    const stop = refusal(ctx, p);
    // A run that does not train is offered no switch to turn on, but a refusal at startup stands
    // whether or not the run then trains: the model is built first (training.py@core_v0.14.0:653).
    if (!p.knobs.sp && !(stop && p.notTraining)) return;
    const e = knobEdit(p, 'sp', true);
    const now = planMemory(p);
    const withSp = planMemory(p, { sp: true });
    const saving = now && withSp && now.bytes.activations > withSp.bytes.activations ? ` (about ${fmtGiB(now.bytes.activations - withSp.bytes.activations)} GiB of activations per GPU here)` : '';
    ctx.report({
      at: fieldPath(p, p.tp, 'tp'),
      on: 'value',
      severity: stop ? 'error' : undefined,
      message: stop ?? `TP ${p.tp.value} without sequence parallelism: each TP rank holds the full layer-norm and dropout activations${saving}, for the same communication volume. Turn sequence parallelism on.`,
      fixes: e ? [{ kind: 'turn-on-sequence-parallel', title: 'Turn sequence parallelism on', edits: [e], recommended: true }] : [],
    });
  },
});
