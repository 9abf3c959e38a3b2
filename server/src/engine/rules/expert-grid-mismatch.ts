/**
 * expert-grid-mismatch: the MoE grid ETP × EP × PP does not divide the world size.
 */
import { allKnown, divisors, epFitsShape, expertGtpFactor, fieldPath, knobEdit } from '../plan/layout';
import { defineRule, type FixSpec } from './rule';

export default defineRule({
  id: 'expert-grid-mismatch',
  severity: 'error',
  formats: 'all',
  fixes: {
    'set-degree': { applicability: 'unsafe', changes: 'the layout' },
  },
  verifyFixes: true,
  docs: {
    summary: 'Expert TP × EP × PP does not divide the number of GPUs.',
    why: 'MoE layers regroup the ranks of each pipeline stage as expert-TP × EP × expert-DP, so ETP × EP × PP must divide the world as well; Megatron stops otherwise ("world_size is not divisible by expert_tensor_model_pipeline_parallel size"). EP does not multiply the GPU count. Which ETP applies when unset differs: Megatron-LM uses TP; Megatron Bridge from 0.6 (Megatron Core 0.19) and accelerate\'s plugin use 1, older Bridges leave it to Megatron Core, which uses TP. A Bridge override that leaves ETP or PP out leaves it to its recipe, so it is reported only where the degrees it writes (EP, and PP where written) already do not divide the world. Before Megatron Core 0.10.0 there was no expert grid: EP had to divide the data-parallel ranks, world / (TP × PP × CP).',
    bad: 'distributed_type: MEGATRON_LM\nnum_processes: 16\nmegatron_lm_config:\n  megatron_lm_tp_degree: 2\n  megatron_lm_pp_degree: 2\n  megatron_lm_context_parallel_size: 1\n  megatron_lm_expert_model_parallel_size: 8\n  megatron_lm_expert_tensor_parallel_size: 2\n',
    good: 'distributed_type: MEGATRON_LM\nnum_processes: 16\nmegatron_lm_config:\n  megatron_lm_tp_degree: 2\n  megatron_lm_pp_degree: 2\n  megatron_lm_context_parallel_size: 1\n  megatron_lm_sequence_parallelism: true\n  megatron_lm_expert_model_parallel_size: 8\n  megatron_lm_expert_tensor_parallel_size: 1\n',
    fix: 'Lowers expert TP or EP to the largest value that fits.',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nnodes 2 --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 2 --pipeline-model-parallel-size 2 --sequence-parallel --num-experts 8 --expert-model-parallel-size 8 --expert-tensor-parallel-size 2 --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nnodes 2 --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 2 --pipeline-model-parallel-size 2 --sequence-parallel --num-experts 8 --expert-model-parallel-size 8 --expert-tensor-parallel-size 1 --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.15.3, `parallel_state.py`: the world size must be divisible by expert-TP × EP × PP', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.15.3/megatron/core/parallel_state.py#L745-L752' },
    ],
  },
  check(ctx) {
    const p = ctx.plan;
    // Only MoE layers use the expert grid (without experts it repeats world-size-mismatch).
    if (!p?.world || p.style !== 'megatron' || p.ep.value <= 1) return;
    // A Bridge override that leaves PP out leaves it to its recipe: the grid is then judged without it
    // (below), being a multiple of the rest whatever PP the recipe sets.
    const recipe = ctx.format === 'megatron-bridge';
    if (!allKnown(p.etp, p.ep) || (!recipe && !allKnown(p.pp))) return;
    const world = p.world.value;
    // parallel_state.py before core_v0.10.0: no expert grid yet, but EP must divide the data-parallel
    // ranks, world / (TP × PP × CP) ("data_parallel_size (…) is not divisible by expert_model_parallel_size").
    if (!ctx.atLeast('0.10.0')) {
      if (!allKnown(p.tp, p.cp, p.pp)) return;
      const model = p.tp.value * p.pp.value * p.cp.value;
      if (world % model !== 0 || (world / model) % p.ep.value === 0) return;
      const dp = world / model;
      // Where the grid finding of later releases is, so that a finding both give is one finding.
      ctx.report({
        at: fieldPath(p, p.etp.from.kind === 'written' ? p.etp : p.ep, p.etp.from.kind === 'written' ? 'etp' : 'ep'),
        on: 'value',
        message: `EP ${p.ep.value} does not divide the ${dp} data-parallel ranks (${world} GPUs / (TP ${p.tp.value} × PP ${p.pp.value} × CP ${p.cp.value})): Megatron Core ${ctx.versionLabel ?? 'before 0.10.0'} stops ("data_parallel_size (${dp}) is not divisible by expert_model_parallel_size"). Use an EP that divides ${dp}.`,
      });
      return;
    }
    // A Bridge override that leaves expert TP out leaves it to the recipe it is merged onto (whose own
    // default is 1 from Bridge 0.6, models/transformer_config.py@v0.6.0:81-82, and Megatron Core's TP
    // before): judged at the smallest expert TP, 1, so that the grid fails whatever the recipe sets.
    const recipeEtp = recipe && p.etp.from.kind !== 'written';
    const etp = recipeEtp ? 1 : p.etp.value;
    const recipePp = recipe && !allKnown(p.pp);
    const pp = recipePp ? 1 : p.pp.value;
    // From 0.19.0 expert weight shards add their factor to the grid (parallel_state.py@core_v0.19.0:873-884).
    const egtp = expertGtpFactor(p, etp);
    if (egtp === undefined || !allKnown(p.expertWeightShards)) return;
    const grid = etp * egtp * p.ep.value * pp;
    if (world % grid === 0) return;
    const fixes: FixSpec[] = [];
    // Not where the recipe's PP multiplies the grid: a degree that fits without it may not fit with it.
    for (const [knob, field, name] of recipePp ? [] : ([['etp', p.etp, 'expert TP'], ['ep', p.ep, 'EP']] as const)) {
      if (knob === 'etp' && (recipeEtp || p.expertWeightShards)) continue;
      const rest = grid / field.value;
      if (world % rest !== 0) continue;
      const best = divisors(world / rest).filter((d) => d < field.value && (knob !== 'ep' || epFitsShape(p, d))).pop();
      const e = best !== undefined ? knobEdit(p, knob, best) : undefined;
      if (e) fixes.push({ kind: 'set-degree', title: `Set ${name} to ${best}`, edits: [e] });
    }
    ctx.report({
      at: fieldPath(p, p.etp.from.kind === 'written' ? p.etp : p.ep, p.etp.from.kind === 'written' ? 'etp' : 'ep'),
      on: 'value',
      message: recipeEtp || recipePp
        ? `${recipeGrid(recipeEtp ? undefined : etp, p.ep.value, recipePp ? undefined : pp)} does not divide ${world} GPUs, and the MoE grid expert-TP × EP × PP is a multiple of it whatever ${[recipeEtp ? 'expert TP' : '', recipePp ? 'PP' : ''].filter((w) => w).join(' and ')} the recipe sets: Megatron stops ("world_size is not divisible by expert_tensor_model_pipeline_parallel size"). EP regroups the ranks of a stage; it does not add GPUs. Use ${recipePp ? 'degrees' : 'an EP × PP'} that divide${recipePp ? '' : 's'} ${world}.`
        : `The MoE grid expert-TP ${etp} × EP ${p.ep.value} × PP ${p.pp.value}${egtp > 1 ? ` × ${egtp} (${p.expertWeightShards!.value} expert weight shards / expert TP ${etp})` : ''} = ${grid} does not divide ${world} GPUs${p.etp.from.kind === 'default' ? ` (expert TP ${p.etp.value}: ${p.etp.from.note})` : ''}: Megatron stops ("world_size is not divisible by expert_tensor_model_pipeline_parallel size"). EP regroups the ranks of a stage; it does not add GPUs. Use degrees whose product divides ${world}.`,
      fixes,
    });
  },
});

/** The degrees of the MoE grid a Bridge override writes (expert TP or PP left to the recipe: undefined), and their product. */
function recipeGrid(etp: number | undefined, ep: number, pp: number | undefined): string {
  const parts: [string, number][] = [...(etp !== undefined ? [['expert TP', etp] as [string, number]] : []), ['EP', ep], ...(pp !== undefined ? [['PP', pp] as [string, number]] : [])];
  const text = parts.map(([n, v]) => `${n} ${v}`).join(' × ');
  return parts.length > 1 ? `${text} = ${parts.reduce((a, [, v]) => a * v, 1)}` : text;
}
