/**
 * pipeline-config-invalid: pipeline-parallel arguments that Megatron Core's configs reject together:
 * a deferred embedding weight gradient without pipeline parallelism or without gradient-accumulation
 * fusion, pipeline communication overlap in warm-up and flush without the overlap itself, and
 * pipeline split arguments that exclude each other.
 */
import { argAbsent, argGiven, argNum, argOn, argValue, MEGATRON_FORMATS, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { named, runChecks, type ArgCheck } from '../formats/megatron/checks';
import { untracked } from './certain';
import { defineRule } from './rule';

/** PP is 1: written so, or left out where Megatron's default (1) applies. */
const noPipeline = (m: MegatronModel) => argAbsent(m, 'pipeline_model_parallel_size') || argNum(m, 'pipeline_model_parallel_size') === 1;
/**
 * The first of the arguments that the file writes and that holds: either one is enough, so one left
 * out (which a Bridge override leaves to its recipe) is not read.
 */
const firstWritten = (m: MegatronModel, dests: string[], holds: (m: MegatronModel, d: string) => boolean) =>
  dests.find((d) => untracked(m.args).get(d) !== undefined && holds(m, d));
/** First or last stage sizes (`--decoder-first/last-pipeline-num-layers`; `num_layers_in_first/last_pipeline_stage` in a config). */
const stageSize = (m: MegatronModel) => firstWritten(m, ['decoder_first_pipeline_num_layers', 'decoder_last_pipeline_num_layers'], argGiven);
const accountFor = (m: MegatronModel) => firstWritten(m, ['account_for_embedding_in_pipeline_split', 'account_for_loss_in_pipeline_split'], argOn);
/**
 * No virtual pipeline stages on Megatron-LM's command line: none of the arguments that set them is
 * written (validate_args then turns the p2p overlap off, training/arguments.py@core_v0.10.0:353-357,
 * @d98e8a6:1010-1012).
 */
const noVirtualStages = (m: MegatronModel) =>
  ['num_layers_per_virtual_pipeline_stage', 'num_virtual_stages_per_pipeline_rank', 'pipeline_model_parallel_layout', 'hybrid_layer_pattern'].every((d) => argAbsent(m, d));

/** The virtual stages a layout gives (its model chunks over PP) and the ones written beside it, when they differ. */
function layoutVpp(m: MegatronModel, chunks: number | undefined): { written: number; detected: number } | undefined {
  const written = argNum(m, 'virtual_pipeline_model_parallel_size');
  const pp = argNum(m, 'pipeline_model_parallel_size');
  if (written === undefined || pp === undefined || pp < 1 || chunks === undefined || chunks % pp !== 0) return undefined;
  const detected = chunks / pp;
  return written !== detected ? { written, detected } : undefined;
}

/**
 * ModelParallelConfig.__post_init__ (model_parallel_config.py) and TransformerConfig.__post_init__
 * (transformer_config.py); the first and last tag of each are given beside it.
 */
const CHECKS: ArgCheck[] = [
  {
    // model_parallel_config.py@core_v0.6.0:276-279 to @d98e8a6:545-548.
    when: (m) => (argOn(m, 'defer_embedding_wgrad_compute') && noPipeline(m) ? 'defer_embedding_wgrad_compute' : undefined),
    since: '0.6.0',
    message: (m) => `${named(m, '--defer-embedding-wgrad-compute')} without pipeline parallelism: the output layer's weight-gradient GEMMs are moved into the pipeline flush, which PP 1 does not have, and Megatron Core stops when it builds the model config ("Cannot defer embedding wgrad compute when pipeline model parallel is not used"). Drop the flag, or use PP > 1.`,
  },
  {
    // model_parallel_config.py@core_v0.6.0:281-284 to @d98e8a6:550-553.
    when: (m) => (argOn(m, 'defer_embedding_wgrad_compute') && argValue(m, 'gradient_accumulation_fusion') === false ? 'gradient_accumulation_fusion' : undefined),
    since: '0.6.0',
    message: (m) => `${named(m, '--defer-embedding-wgrad-compute')} with gradient-accumulation fusion turned off: the deferred GEMMs accumulate straight into the gradient buffer through that fusion, and Megatron Core stops when it builds the model config ("Cannot defer embedding wgrad compute when gradient accumulation fusion is not used"). Keep gradient-accumulation fusion on (its default), or drop ${named(m, '--defer-embedding-wgrad-compute')}.`,
  },
  {
    // model_parallel_config.py@core_v0.10.0:382-387 to @d98e8a6:570-575: Megatron-LM passes
    // batch_p2p_comm = not overlap_p2p_comm (training/arguments.py, argument_utils.py@d98e8a6:307).
    when: (m) => (argOn(m, 'overlap_p2p_comm_warmup_flush') && (argValue(m, 'overlap_p2p_comm') === false || noVirtualStages(m)) ? 'overlap_p2p_comm_warmup_flush' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.10.0',
    message: (m) => `\`--overlap-p2p-communication-warmup-flush\` ${argValue(m, 'overlap_p2p_comm') === false ? 'with `--no-overlap-p2p-communication`' : 'without virtual pipeline stages (Megatron-LM turns the p2p overlap off without the interleaved schedule)'}: it extends the pipeline send/receive overlap to warm-up and flush, and Megatron Core stops when it builds the model config ("Pipeline parallel communication overlapping in warmup and flush is only compatible with overlap_p2p_comm but not batch_p2p_comm."). Use virtual pipeline stages with the p2p overlap on (its default), or drop the flag.`,
  },
  {
    // transformer_config.py@core_v0.11.0:582-592 to @d98e8a6:2229-2240.
    when: (m) => (stageSize(m) && accountFor(m) ? stageSize(m) : undefined),
    since: '0.11.0',
    message: (m) => `${named(m, `--${stageSize(m)!.replace(/_/g, '-')}`)} with ${named(m, `--${accountFor(m)!.replace(/_/g, '-')}`)}: the first and last stage sizes already say where the layers go, and counting the embedding or loss as a layer is another way to say it, so Megatron Core stops when it builds the transformer config ("num_layers_in_first_pipeline_stage and num_layers_in_last_pipeline_stage cannot be set at the same time with account_for_embedding_in_pipeline_split and account_for_loss_in_pipeline_split"). Keep one of the two.`,
  },
  {
    // transformer_config.py@core_v0.13.0:873-892 to @d98e8a6:2242-2260.
    when: (m) => (argGiven(m, 'pipeline_model_parallel_layout') && (stageSize(m) || accountFor(m)) ? 'pipeline_model_parallel_layout' : undefined),
    since: '0.13.0',
    message: (m) => `${named(m, '--pipeline-model-parallel-layout')} with ${named(m, `--${(stageSize(m) ?? accountFor(m))!.replace(/_/g, '-')}`)}: the layout places every layer itself, and Megatron Core stops when it builds the transformer config ("pipeline_model_parallel_layout cannot be set with other pipeline layout arguments."). Drop the other pipeline split arguments, or the layout.`,
  },
  {
    // transformer_config.py@core_v0.13.0:908-916 to @d98e8a6:2278-2285. Megatron-LM's command line
    // sets the virtual stages from the layout itself; a config writes them beside it.
    when: (m, p) => (layoutVpp(m, p?.pipelineSplit?.layout?.length) ? 'virtual_pipeline_model_parallel_size' : undefined),
    formats: ['megatron-bridge', 'nemo'],
    since: '0.13.0',
    message: (m, p) => {
      const v = layoutVpp(m, p?.pipelineSplit?.layout?.length)!;
      return `${named(m, '--virtual-pipeline-model-parallel-size')} is ${v.written}, and the ${named(m, '--pipeline-model-parallel-layout')} gives ${v.detected} virtual stage${v.detected === 1 ? '' : 's'} per pipeline rank (its model chunks over PP): Megatron Core stops when it builds the transformer config ("virtual_pipeline_model_parallel_size conflicts with pipeline_model_parallel_layout"). Set it to ${v.detected}, or leave it out (the layout sets it).`;
    },
  },
];

/**
 * A first or last stage size that its virtual stages cannot split: with virtual pipeline stages each
 * of those sizes must be a multiple of their number (transformer_config.py@core_v0.11.0:603-634,
 * @d98e8a6:2306-2335). The virtual stages come from `--num-virtual-stages-per-pipeline-rank` (the
 * only way Megatron-LM takes them beside stage sizes) or a config's virtual pipeline size, as written.
 */
function stageVpp(m: MegatronModel): { dest: string; n: number; vpp: number } | undefined {
  const written = ['num_virtual_stages_per_pipeline_rank', 'virtual_pipeline_model_parallel_size'].find((d) => untracked(m.args).get(d) !== undefined);
  const vpp = written ? argNum(m, written) : undefined;
  // A layout written beside them is refused on its own (above); one a recipe adds would be too.
  if (vpp === undefined || vpp <= 1 || untracked(m.args).get('pipeline_model_parallel_layout') !== undefined) return undefined;
  for (const dest of ['decoder_first_pipeline_num_layers', 'decoder_last_pipeline_num_layers']) {
    if (untracked(m.args).get(dest) === undefined) continue;
    const n = argNum(m, dest);
    if (n !== undefined && n > 0 && n % vpp !== 0) return { dest, n, vpp };
  }
  return undefined;
}

const VPP_CHECKS: ArgCheck[] = [
  {
    when: (m) => stageVpp(m)?.dest,
    since: '0.11.0',
    message: (m) => {
      const s = stageVpp(m)!;
      const which = s.dest === 'decoder_first_pipeline_num_layers' ? 'first' : 'last';
      return `${named(m, `--${s.dest.replace(/_/g, '-')}`, String(s.n))} with ${s.vpp} virtual pipeline stages per rank: the ${which} stage's layers are split over its virtual stages, and Megatron Core stops when it builds the transformer config (the number of layers at the ${which} stage "must be divisible by virtual pipeline" parallel degree ${s.vpp}). Give the ${which} stage a multiple of ${s.vpp} layers.`;
    },
  },
];

export default defineRule<MegatronModel>({
  id: 'pipeline-config-invalid',
  severity: 'error',
  formats: MEGATRON_FORMATS,
  docs: {
    summary: 'Pipeline-parallel arguments that Megatron Core rejects together: a deferred embedding weight gradient without pipeline parallelism or without gradient-accumulation fusion, pipeline communication overlap in warm-up and flush without the overlap, or pipeline split arguments that exclude each other or that the virtual stages cannot split.',
    why: 'Megatron Core checks these when it builds the model config, after the job has started: `--defer-embedding-wgrad-compute` moves the output layer\'s weight-gradient GEMMs into the pipeline flush, so it needs PP > 1 and gradient-accumulation fusion (from 0.6); `--overlap-p2p-communication-warmup-flush` needs the p2p overlap, which Megatron-LM turns off without virtual pipeline stages (from 0.10); first and last stage sizes exclude counting the embedding or loss as a layer, and with virtual pipeline stages each must be a multiple of their number (from 0.11); a `--pipeline-model-parallel-layout` excludes both (from 0.13), and a virtual pipeline size written beside it must be the one the layout gives (Megatron Bridge and NeMo configs, which write the size themselves). Megatron Bridge builds the same configs; a Bridge override is judged only on what it writes itself, since the recipe may set the rest.',
    bad: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --num-layers: 32\n  --defer-embedding-wgrad-compute: true\n',
    good: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --num-layers: 32\n  --pipeline-model-parallel-size: 2\n  --defer-embedding-wgrad-compute: true\n',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --pipeline-model-parallel-size 4 --decoder-first-pipeline-num-layers 7 --account-for-embedding-in-pipeline-split \\\n    --micro-batch-size 1 --global-batch-size 64\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 31 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --pipeline-model-parallel-size 4 --account-for-embedding-in-pipeline-split \\\n    --micro-batch-size 1 --global-batch-size 64\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.19.0, `ModelParallelConfig.__post_init__`: deferred embedding weight gradients need PP > 1 and gradient-accumulation fusion; warm-up/flush overlap needs the p2p overlap', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.19.0/megatron/core/model_parallel_config.py#L545-L575' },
      { label: 'Megatron-LM core_v0.19.0, `TransformerConfig.__post_init__`: first/last stage sizes, the account-for flags and the pipeline layout exclude each other', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.19.0/megatron/core/transformer/transformer_config.py#L1922-L1979' },
    ],
  },
  check(ctx) {
    runChecks(ctx, CHECKS);
    runChecks(ctx, VPP_CHECKS);
  },
});
