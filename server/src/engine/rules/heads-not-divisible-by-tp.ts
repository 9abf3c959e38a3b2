/**
 * heads-not-divisible-by-tp: attention heads (or query groups) that TP cannot split evenly.
 */
import { allKnown, divisors, fieldPath, knobEdit, modelSize, shapeLimits } from '../plan/layout';
import { MEGATRON_FORMATS } from '../formats/megatron/model';
import { defineRule, type FixSpec } from './rule';

/** Formats whose release is a Megatron Core release. */
const MEGATRON: readonly string[] = MEGATRON_FORMATS;

export default defineRule({
  id: 'heads-not-divisible-by-tp',
  severity: 'error',
  formats: 'all',
  forks: true,
  fixes: {
    'set-tp': { applicability: 'unsafe', changes: 'the layout' },
  },
  verifyFixes: true,
  docs: {
    summary: 'Under Megatron, the number of attention heads is not a multiple of TP, or the query groups neither divide nor are divided by TP.',
    why: 'Tensor parallelism in Megatron gives each rank whole attention heads; Megatron checks it at startup (Accelerate\'s Megatron-LM plugin passes no query groups, so there the heads alone count, except for GLM-4 MoE models from Accelerate 1.13.0, whose parser passes the KV heads as query groups: they count where the model\'s type is known to be `glm4_moe`) ("num_attention_heads must be a multiple of tensor_model_parallel_size", and for GQA the query groups must be a multiple of TP, or from Megatron Core 0.16.0 a multiple or a divisor of it). For configs that do not contain the model (Accelerate), name it: `# shardwise: model=llama-3-70b`. Only files Megatron runs are checked (Megatron-LM, Megatron Bridge, NeMo, Accelerate with `MEGATRON_LM`): DeepSpeed\'s AutoTP splits the heads unevenly on purpose, and an Accelerate TP mesh is not Megatron\'s.',
    bad: '# shardwise: model=llama-3-8b\ndistributed_type: MEGATRON_LM\nnum_processes: 12\nmegatron_lm_config:\n  megatron_lm_tp_degree: 3\n  megatron_lm_pp_degree: 1\n  megatron_lm_context_parallel_size: 1\n  megatron_lm_sequence_parallelism: true\n',
    good: '# shardwise: model=llama-3-8b\ndistributed_type: MEGATRON_LM\nnum_processes: 12\nmegatron_lm_config:\n  megatron_lm_tp_degree: 4\n  megatron_lm_pp_degree: 1\n  megatron_lm_context_parallel_size: 1\n  megatron_lm_sequence_parallelism: true\n',
    fix: 'Sets TP to the nearest value below that divides the heads and the world.',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 1536 --num-attention-heads 12 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 8 --sequence-parallel \\\n    --micro-batch-size 1 --global-batch-size 64\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 1536 --num-attention-heads 12 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 4 --sequence-parallel \\\n    --micro-batch-size 1 --global-batch-size 64\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.15.3, `TransformerConfig`: the heads and query groups must be multiples of TP', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.15.3/megatron/core/transformer/transformer_config.py#L743-L762' },
      { label: 'Megatron-LM core_v0.16.0 on, `TransformerConfig`: query groups may also divide TP', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.17.0/megatron/core/transformer/transformer_config.py#L1056-L1064' },
    ],
  },
  check(ctx) {
    const p = ctx.plan;
    // Megatron's check: only where Megatron builds the model (its launch scripts and configs, Bridge,
    // NeMo, Accelerate's MEGATRON_LM). DeepSpeed's AutoTP splits the heads unevenly by design, and what
    // an Accelerate TP mesh does with an uneven split is not Megatron's answer.
    if (!p || p.tp.value <= 1 || p.style !== 'megatron') return;
    // The heads (and groups) the arguments write are checked even when the rest of the model is not known.
    const limits = shapeLimits(p);
    if (!limits.heads) return;
    const m = { heads: limits.heads };
    if (!allKnown(p.tp)) return;
    const tp = p.tp.value;
    // Accelerate's Megatron-LM plugin passes no query groups to Megatron for most model types (its
    // parsers set the heads, hidden size and layers; the llama one at utils/dataclasses.py@v1.14.0:2936-2967),
    // so Megatron runs with groups = heads there. From 1.13.0 the glm4_moe parser passes the KV heads as
    // query groups (utils/dataclasses.py@v1.13.0:2943-2983, @v1.14.0:2970-3010): they count for that model type.
    // Where the file does not say which type runs, which parser runs is not known: the heads alone are judged
    // (every parser passes them), not a GLM-4 MoE most GQA models are not.
    const glm = ctx.format === 'accelerate' ? glmGroups(ctx, limits.groups, m.heads) : undefined;
    const groups = ctx.format === 'accelerate' && !glm ? m.heads : limits.groups ?? m.heads;
    const headsOk = m.heads % tp === 0;
    // Megatron Core takes query groups that divide TP (each group's K/V copied on several ranks)
    // from 0.16.0; before, the groups must be a multiple of TP. Only a Megatron file's release says which runs.
    const fewerGroups = (ok: number) => ok % groups === 0 && (!MEGATRON.includes(ctx.format) || ctx.atLeast('0.16.0'));
    const groupsOk = groups % tp === 0 || fewerGroups(tp);
    if (headsOk && groupsOk) return;
    const fixes: FixSpec[] = [];
    // The world and the other degrees only choose the fix: read on their own, they weigh on nothing
    // (the other degrees of an override file may be the recipe's, not known here).
    const best = ctx.separately(() =>
      divisors(m.heads)
        .filter((d) => d < tp && (groups % d === 0 || fewerGroups(d)) && (!p.world || p.world.value % modelSize(p, d) === 0))
        .pop(),
    );
    const e = best ? knobEdit(p, 'tp', best) : undefined;
    if (e && p.style === 'megatron') fixes.push({ kind: 'set-tp', title: `Set TP to ${best}`, edits: [e] });
    const what = headsOk ? (tp % groups === 0 ? `${groups} query groups, fewer than TP ${tp}; Megatron Core before 0.16.0 needs the groups to be a multiple of TP (later releases copy each group onto TP / groups ranks)` : `${groups} query groups, which TP ${tp} neither divides nor is divided by`) : `${m.heads} attention heads, not a multiple of TP ${tp}`;
    const fitting = divisors(m.heads).filter((d) => d > 1 && d <= 8 && (groups % d === 0 || fewerGroups(d)));
    const glmNote = glm && headsOk ? ' From Accelerate 1.13.0 the Megatron-LM plugin passes a GLM-4 MoE model\'s KV heads as query groups (for that model type alone).' : '';
    ctx.report({
      at: fieldPath(p, p.tp, 'tp'),
      on: 'value',
      message: `The model (${describeSource(p.model?.from ?? p.arch!.heads!.from)}) has ${what}: each TP rank needs whole heads, and Megatron stops at startup. Use a TP that divides ${m.heads}${groups !== m.heads ? ` and fits ${groups} query groups` : ''}${fitting.length ? ` (e.g. ${fitting.join(', ')})` : ' (only TP 1 does here)'}.${glmNote}`,
      fixes,
    });
  },
});

/**
 * Whether Accelerate's Megatron-LM plugin passes the model's query groups: only its glm4_moe parser does,
 * from 1.13.0, for a GQA model (groups other than the heads) whose Hugging Face config says that type;
 * false where the groups are not passed or the type is not known.
 */
function glmGroups(ctx: { plan: { model?: { value?: { hfModelType?: string } } } | undefined; atLeast(v: string): boolean }, groups: number | undefined, heads: number): boolean {
  if (groups === undefined || groups === heads) return false;
  return ctx.plan?.model?.value?.hfModelType === 'glm4_moe' && ctx.atLeast('1.13.0');
}

function describeSource(from: { kind: string; note?: string; path?: readonly (string | number)[] }): string {
  return from.kind === 'written' ? 'as written in this file' : from.note ?? 'from the settings';
}
