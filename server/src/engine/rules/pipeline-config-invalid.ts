/**
 * pipeline-config-invalid: pipeline-split arguments that Megatron-LM's argument checks refuse together.
 *
 * megatron/training/arguments.py, validate_args:
 * - an interleaved (virtual-stage) schedule needs PP > 1, or PP > 2 with `--no-overlap-p2p-communication`
 *   (@core_v0.8.0:254-263, @d98e8a6:1000-1009); before 0.8 PP > 2 always (@core_v0.6.0:240-243,
 *   megatron/arguments.py@core_v0.4.0:151-154). The check reads the virtual degree the arguments give
 *   (from 0.13 a degree of 1 is dropped first, so only a degree above 1 is judged here).
 * - at most one of `--num-layers-per-virtual-pipeline-stage`, `--num-virtual-stages-per-pipeline-rank`
 *   and `--pipeline-model-parallel-layout` (@core_v0.13.0, @d98e8a6:928-940), and a layout whose stages
 *   PP divides (@d98e8a6:945-949).
 * - `--num-layers-per-virtual-pipeline-stage` with first/last stage sizes (@core_v0.11.0:351-353,
 *   @d98e8a6:954-956).
 * - a `--hybrid-layer-pattern` sets the pipeline split itself, so the virtual-stage arguments, a layout
 *   and the embedding/loss split switches are refused beside it, and so is its old name beside it
 *   (@core_v0.17.0:594-683, @d98e8a6:745-838).
 */
import { argAbsent, argGiven, argNum, argOff, argOn, argValue, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { runChecks, type ArgCheck } from '../formats/megatron/checks';
import { layoutChunks } from '../plan/split';
import { defineRule } from './rule';

/** PP as written, or 1 where the file leaves it out and defaults apply. */
function pp(m: MegatronModel): number | undefined {
  return argAbsent(m, 'pipeline_model_parallel_size') ? 1 : argNum(m, 'pipeline_model_parallel_size');
}

/** A hybrid model's layer pattern (or its old name) is given: it sets the pipeline split its own way. */
const hybrid = (m: MegatronModel): boolean => argGiven(m, 'hybrid_layer_pattern') || argGiven(m, 'hybrid_override_pattern');

/** The stages of a `--pipeline-model-parallel-layout` string, when it parses. */
function layoutStages(m: MegatronModel): number | undefined {
  return layoutChunks(argValue(m, 'pipeline_model_parallel_layout'))?.length;
}

/**
 * The virtual pipeline degree the arguments give, when it is known and above 1 (a degree of 1 is no
 * interleaving); undefined otherwise, and for a hybrid model, whose pattern decides it.
 */
function interleaved(m: MegatronModel): number | undefined {
  if (hybrid(m)) return undefined;
  const stages = pp(m);
  if (stages === undefined || stages < 1) return undefined;
  let vpp: number | undefined;
  const given = ['num_layers_per_virtual_pipeline_stage', 'num_virtual_stages_per_pipeline_rank', 'pipeline_model_parallel_layout'].filter((d) => !argAbsent(m, d));
  if (given.length !== 1) return undefined;
  if (given[0] === 'num_virtual_stages_per_pipeline_rank') vpp = argNum(m, 'num_virtual_stages_per_pipeline_rank');
  else if (given[0] === 'pipeline_model_parallel_layout') {
    const n = layoutStages(m);
    vpp = n !== undefined && n % stages === 0 ? n / stages : undefined;
  } else {
    const per = argNum(m, 'num_layers_per_virtual_pipeline_stage');
    const layers = argNum(m, 'num_layers');
    if (per === undefined || per < 1 || layers === undefined) return undefined;
    // The embedding and loss count as layers when they are put into the split.
    let extra = 0;
    for (const d of ['account_for_embedding_in_pipeline_split', 'account_for_loss_in_pipeline_split']) {
      if (argOn(m, d)) extra++;
      else if (!argOff(m, d)) return undefined;
    }
    const total = layers + extra;
    if (total % stages !== 0 || (total / stages) % per !== 0) return undefined;
    vpp = total / stages / per;
  }
  return vpp !== undefined && vpp > 1 ? vpp : undefined;
}

/** `--no-overlap-p2p-communication` is given (the overlap is on by default). */
const p2pOverlapOff = (m: MegatronModel): boolean => argValue(m, 'overlap_p2p_comm') === false;
/** The overlap is on: left at its default, or written on. */
const p2pOverlapOn = (m: MegatronModel): boolean => argAbsent(m, 'overlap_p2p_comm') || argOn(m, 'overlap_p2p_comm');

/** The argument that asks for the virtual stages, to report on. */
function vppArg(m: MegatronModel): string {
  return ['num_virtual_stages_per_pipeline_rank', 'pipeline_model_parallel_layout', 'num_layers_per_virtual_pipeline_stage'].find((d) => !argAbsent(m, d)) ?? 'num_layers_per_virtual_pipeline_stage';
}

const VPP_ARGS = ['num_layers_per_virtual_pipeline_stage', 'num_virtual_stages_per_pipeline_rank', 'pipeline_model_parallel_layout'];
const flagOf = (dest: string): string => `--${dest.replace(/_/g, '-')}`;

/** The hybrid-pattern conflicts: each argument the pattern's `|` segments take the place of. */
const HYBRID_CONFLICTS: { dest: string; on: (m: MegatronModel) => boolean; quote: string }[] = [
  { dest: 'num_layers_per_virtual_pipeline_stage', on: (m) => argGiven(m, 'num_layers_per_virtual_pipeline_stage'), quote: '--num-layers-per-virtual-pipeline-stage should not be used with --hybrid-layer-pattern' },
  { dest: 'num_virtual_stages_per_pipeline_rank', on: (m) => argGiven(m, 'num_virtual_stages_per_pipeline_rank'), quote: '--num-virtual-stages-per-pipeline-rank should not be used with --hybrid-layer-pattern' },
  { dest: 'pipeline_model_parallel_layout', on: (m) => argGiven(m, 'pipeline_model_parallel_layout'), quote: '--pipeline-model-parallel-layout should not be used with --hybrid-layer-pattern' },
  { dest: 'account_for_embedding_in_pipeline_split', on: (m) => argOn(m, 'account_for_embedding_in_pipeline_split'), quote: '--account-for-embedding-in-pipeline-split should not be used with --hybrid-layer-pattern' },
  { dest: 'account_for_loss_in_pipeline_split', on: (m) => argOn(m, 'account_for_loss_in_pipeline_split'), quote: '--account-for-loss-in-pipeline-split should not be used with --hybrid-layer-pattern' },
];

const INTERLEAVED_WHY = 'the interleaved schedule runs several virtual stages on each pipeline rank and passes activations between neighbouring ranks';

const CHECKS: ArgCheck[] = [
  {
    when: (m) => (interleaved(m) && pp(m) === 1 && p2pOverlapOn(m) ? vppArg(m) : undefined),
    message: (m) => `\`${flagOf(vppArg(m))}\` asks for ${interleaved(m)} virtual pipeline stages per rank with PP 1: ${INTERLEAVED_WHY}, and Megatron-LM stops at startup ("When interleaved schedule is used, pipeline-model-parallel size should be greater than 1"). Use \`--pipeline-model-parallel-size\` 2 or more, or drop \`${flagOf(vppArg(m))}\`.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.8.0',
  },
  {
    when: (m) => {
      const p = pp(m);
      return interleaved(m) && p !== undefined && p <= 2 && p2pOverlapOff(m) ? vppArg(m) : undefined;
    },
    message: (m) => `\`${flagOf(vppArg(m))}\` with PP ${pp(m)} and \`--no-overlap-p2p-communication\`: without the overlap, the interleaved schedule batches its sends and receives, and with PP ${pp(m)} a batch would hold several between the same two ranks, so Megatron-LM stops at startup ("pipeline-model-parallel size should be greater than 2"). Use PP 3 or more, or drop \`--no-overlap-p2p-communication\`${pp(m) === 2 ? '' : ' and use PP 2'}.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.8.0',
  },
  {
    when: (m) => {
      const p = pp(m);
      return interleaved(m) && argGiven(m, 'num_layers_per_virtual_pipeline_stage') && p !== undefined && p <= 2 ? 'num_layers_per_virtual_pipeline_stage' : undefined;
    },
    message: (m) => `\`--num-layers-per-virtual-pipeline-stage\` with PP ${pp(m)}: before Megatron Core 0.8 ${INTERLEAVED_WHY}, and Megatron-LM stops at startup ("pipeline-model-parallel size should be greater than 2 with interleaved schedule"). Use PP 3 or more, or drop \`--num-layers-per-virtual-pipeline-stage\`.`,
    formats: MLM_FLAG_FORMATS,
    before: '0.8.0',
  },
  {
    when: (m) => {
      const given = VPP_ARGS.filter((d) => argGiven(m, d));
      return given.length > 1 ? given[given.length - 1] : undefined;
    },
    message: (m) => {
      const given = VPP_ARGS.filter((d) => argGiven(m, d)).map((d) => `\`${flagOf(d)}\``);
      return `${given.join(' and ')} both set the virtual pipeline stages, and Megatron-LM stops at startup ("No more than one of the following arguments can be set at the same time"). Keep one of them.`;
    },
    formats: MLM_FLAG_FORMATS,
    since: '0.13.0',
  },
  {
    when: (m) => {
      const n = layoutStages(m);
      const p = pp(m);
      return !hybrid(m) && n !== undefined && p !== undefined && p > 1 && n % p !== 0 ? 'pipeline_model_parallel_layout' : undefined;
    },
    message: (m) => `The \`--pipeline-model-parallel-layout\` has ${layoutStages(m)} \`|\`-separated stages, which PP ${pp(m)} does not divide: each pipeline rank takes the same number of them (its virtual stages), and Megatron-LM stops at startup ("The length of pipeline_model_parallel_layout must be divisible by pipeline_model_parallel_size"). Write a number of stages that is a multiple of PP.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.13.0',
  },
  {
    when: (m) => {
      if (hybrid(m) || !argGiven(m, 'num_layers_per_virtual_pipeline_stage') || !argAbsent(m, 'num_virtual_stages_per_pipeline_rank') || !argAbsent(m, 'pipeline_model_parallel_layout')) return undefined;
      return ['decoder_first_pipeline_num_layers', 'decoder_last_pipeline_num_layers'].find((d) => argGiven(m, d)) ? 'num_layers_per_virtual_pipeline_stage' : undefined;
    },
    message: () => '`--num-layers-per-virtual-pipeline-stage` with an uneven split (`--decoder-first-pipeline-num-layers` or `--decoder-last-pipeline-num-layers`): the layers per virtual stage cannot be the same on every rank, and Megatron-LM stops at startup ("please use --num-virtual-stages-per-pipeline-rank to specify virtual pipeline parallel degree when enable uneven pipeline parallelism"). Give the degree with `--num-virtual-stages-per-pipeline-rank` instead.',
    formats: MLM_FLAG_FORMATS,
    since: '0.11.0',
  },
  {
    when: (m) => (argGiven(m, 'hybrid_override_pattern') && argGiven(m, 'hybrid_layer_pattern') ? 'hybrid_override_pattern' : undefined),
    message: () => '`--hybrid-override-pattern` beside `--hybrid-layer-pattern`: the first is the old name of the second, and Megatron-LM stops at startup ("--hybrid-override-pattern and --hybrid-layer-pattern cannot both be specified"). Keep `--hybrid-layer-pattern`.',
    formats: MLM_FLAG_FORMATS,
    since: '0.17.0',
  },
  ...HYBRID_CONFLICTS.map(
    (c): ArgCheck => ({
      when: (m) => (hybrid(m) && c.on(m) ? c.dest : undefined),
      message: () => `\`${flagOf(c.dest)}\` beside a \`--hybrid-layer-pattern\`: the pattern sets the pipeline split itself (its \`|\` separators mark the stages, and their number over PP gives the virtual stages), and Megatron-LM stops at startup ("${c.quote}"). Drop \`${flagOf(c.dest)}\` and write the split into the pattern.`,
      formats: MLM_FLAG_FORMATS,
      since: '0.17.0',
    }),
  ),
];

export default defineRule<MegatronModel>({
  id: 'pipeline-config-invalid',
  severity: 'error',
  formats: MLM_FLAG_FORMATS,
  docs: {
    summary: 'Pipeline-split arguments that Megatron-LM rejects together: virtual stages with too small a PP, two ways of giving the virtual stages, a layout PP does not divide, layers per virtual stage with an uneven split, or split arguments beside a hybrid layer pattern.',
    why: 'Megatron-LM\'s argument checks stop the job at startup when the interleaved schedule (virtual pipeline stages) runs with PP 1, or with PP 2 or less under `--no-overlap-p2p-communication` (before Megatron Core 0.8: PP 2 or less at all); when more than one of `--num-layers-per-virtual-pipeline-stage`, `--num-virtual-stages-per-pipeline-rank` and `--pipeline-model-parallel-layout` is given, or the layout\'s stages are not a multiple of PP (from 0.13); when `--num-layers-per-virtual-pipeline-stage` meets first/last stage sizes (from 0.11); and, from 0.17, when a `--hybrid-layer-pattern` (which sets the split with `|`) comes with the virtual-stage arguments, a layout, the embedding/loss split switches or its old name `--hybrid-override-pattern`. A `--yaml-cfg` file is not checked this way and is not judged.',
    bad: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --num-layers: 32\n  --micro-batch-size: 1\n  --global-batch-size: 64\n  --overlap-grad-reduce: true\n  --num-layers-per-virtual-pipeline-stage: 4\n',
    good: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --num-layers: 32\n  --micro-batch-size: 1\n  --global-batch-size: 64\n  --overlap-grad-reduce: true\n  --pipeline-model-parallel-size: 2\n  --num-layers-per-virtual-pipeline-stage: 4\n',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --pipeline-model-parallel-size 2 --num-layers-per-virtual-pipeline-stage 4 --no-overlap-p2p-communication \\\n    --micro-batch-size 1 --global-batch-size 64\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --pipeline-model-parallel-size 2 --num-layers-per-virtual-pipeline-stage 4 \\\n    --micro-batch-size 1 --global-batch-size 64\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.19.0, `validate_args`: virtual-stage arguments, layout, and the interleaved schedule\'s PP', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.19.0/megatron/training/arguments.py#L721-L976' },
    ],
  },
  check(ctx) {
    runChecks(ctx, CHECKS);
  },
});
