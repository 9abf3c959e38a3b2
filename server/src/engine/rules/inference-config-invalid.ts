/**
 * inference-config-invalid: inference arguments that Megatron refuses at startup.
 *
 * megatron/training/arguments.py, validate_args, "Inference args": `--inference-batch-times-seqlen-threshold`
 * above -1 (its default from 0.10; 512 before, without a check) needs PP above 1
 * (@core_v0.10.0:727-729, @d98e8a6:1855-1857) and no CUDA graphs (`--enable-cuda-graph` at
 * @core_v0.13.0:1031 and 0.14; `--cuda-graph-impl` other than none from @core_v0.15.0:1134-1136,
 * @d98e8a6:1858-1860, after the old switches were turned into it). With `--inference-dynamic-batching`
 * the KV-cache chunk size must be a multiple of 256 (@core_v0.13.0:1035, 0.14), then the block size
 * that replaced it (@core_v0.15.0:1140 to @core_v0.17.0:1448).
 *
 * TransformerConfig.__post_init__ (transformer_config.py@core_v0.17.0:2231-2235, @d98e8a6:3188-3192):
 * `inference_disable_triton_nvls_kernels` needs the inference-optimized layers; GEMM_CHECKS: the
 * grouped-GEMM backend of the inference-optimized MoE layers.
 */
import { argAbsent, argNum, argOn, argValue, MEGATRON_FORMATS, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { named, runChecks, type ArgCheck } from '../formats/megatron/checks';
import { defineRule } from './rule';

/** The threshold as a known number (a negative one is written `-1`, the default that turns it off). */
function threshold(m: MegatronModel): number | undefined {
  const v = argValue(m, 'inference_batch_times_seqlen_threshold');
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : undefined;
  return n !== undefined && Number.isFinite(n) ? n : undefined;
}

const microbatched = (m: MegatronModel): boolean => (threshold(m) ?? -1) > -1;

/** The CUDA graph implementation when graphs are known to be built (0.15 on), else undefined. */
function graphs(m: MegatronModel): string | undefined {
  if (argOn(m, 'enable_cuda_graph')) return '--enable-cuda-graph';
  if (argOn(m, 'external_cuda_graph')) return '--external-cuda-graph';
  const impl = argValue(m, 'cuda_graph_impl');
  return typeof impl === 'string' && impl !== 'none' ? `--cuda-graph-impl ${impl}` : undefined;
}

/** The dynamic-batching KV-cache size (chunk or block) when it is known not to be a multiple of 256. */
function offSize(m: MegatronModel, dest: string): number | undefined {
  if (!argOn(m, 'inference_dynamic_batching') || argAbsent(m, dest)) return undefined;
  const n = argNum(m, dest);
  return n !== undefined && n % 256 !== 0 ? n : undefined;
}

const CHECKS: ArgCheck[] = [
  {
    when: (m) => (microbatched(m) && (argAbsent(m, 'pipeline_model_parallel_size') || (argNum(m, 'pipeline_model_parallel_size') ?? 2) <= 1) ? 'inference_batch_times_seqlen_threshold' : undefined),
    message: (m) => `\`--inference-batch-times-seqlen-threshold ${threshold(m)}\` without pipeline parallelism (${argAbsent(m, 'pipeline_model_parallel_size') ? 'PP 1, the default' : `\`--pipeline-model-parallel-size ${argNum(m, 'pipeline_model_parallel_size')}\``}): the threshold decides when inference batches are split into micro-batches for the pipeline, and Megatron-LM stops at startup ("--inference-batch-times-seqlen-threshold requires setting --pipeline-model-parallel-size > 1."). Remove the threshold (-1, the default, turns it off), or use PP above 1.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.10.0',
  },
  {
    when: (m) => (microbatched(m) && argOn(m, 'enable_cuda_graph') ? 'inference_batch_times_seqlen_threshold' : undefined),
    message: () => '`--inference-batch-times-seqlen-threshold` with `--enable-cuda-graph`: micro-batched pipeline inference cannot replay CUDA graphs, and Megatron-LM stops at startup ("Pipeline-parallel microbatched inference is incompatible with CUDA graphs"). Remove the threshold, or the CUDA graphs.',
    formats: MLM_FLAG_FORMATS,
    since: '0.13.0',
    before: '0.15.0',
  },
  {
    when: (m) => (microbatched(m) && graphs(m) ? 'inference_batch_times_seqlen_threshold' : undefined),
    message: (m) => `\`--inference-batch-times-seqlen-threshold\` with CUDA graphs (\`${graphs(m)}\`): micro-batched pipeline inference cannot replay CUDA graphs, and Megatron-LM stops at startup ("Pipeline-parallel microbatched inference is incompatible with CUDA graphs"). Remove the threshold, or use \`--cuda-graph-impl none\` (the default).`,
    formats: MLM_FLAG_FORMATS,
    since: '0.15.0',
  },
  {
    when: (m) => (offSize(m, 'inference_dynamic_batching_chunk_size') !== undefined ? 'inference_dynamic_batching_chunk_size' : undefined),
    message: (m) => `\`--inference-dynamic-batching-chunk-size ${offSize(m, 'inference_dynamic_batching_chunk_size')}\` with \`--inference-dynamic-batching\`: the KV cache is laid out in chunks of a multiple of 256 tokens, and Megatron-LM stops at startup ("chunk size should be a multiple of 256"). Use a multiple of 256 (256 is the default).`,
    formats: MLM_FLAG_FORMATS,
    since: '0.13.0',
    before: '0.15.0',
  },
  {
    when: (m) => (offSize(m, 'inference_dynamic_batching_block_size') !== undefined ? 'inference_dynamic_batching_block_size' : undefined),
    message: (m) => `\`--inference-dynamic-batching-block-size ${offSize(m, 'inference_dynamic_batching_block_size')}\` with \`--inference-dynamic-batching\`: Megatron-LM 0.15 to 0.17 lay the KV cache out in blocks of a multiple of 256 tokens and stop at startup ("block size should be a multiple of 256"). Use a multiple of 256 (256 is the default).`,
    formats: MLM_FLAG_FORMATS,
    since: '0.15.0',
    before: '0.18.0',
  },
  {
    when: (m) => {
      // A --yaml-cfg file builds the config from its language_model keys; not judged.
      if (m.args.yamlCfg || !argOn(m, 'inference_disable_triton_nvls_kernels')) return undefined;
      const impl = argAbsent(m, 'transformer_impl') ? 'transformer_engine' : argValue(m, 'transformer_impl');
      return typeof impl === 'string' && impl !== 'inference_optimized' ? 'inference_disable_triton_nvls_kernels' : undefined;
    },
    message: (m) => `${named(m, '--inference-disable-triton-nvls-kernels')} with ${argAbsent(m, 'transformer_impl') ? 'the default Transformer Engine layers' : named(m, '--transformer-impl', String(argValue(m, 'transformer_impl')))}: only the inference-optimized layers have the Triton NVLS kernels to switch off, and Megatron Core stops when it builds the transformer config ("inference_disable_triton_nvls_kernels is only supported for inference_optimized transformer implementation."). Set ${named(m, '--transformer-impl', 'inference_optimized')}, or drop the switch.`,
    formats: MEGATRON_FORMATS,
    since: '0.17.0',
  },
];

/** Inference-optimized MoE layers: `--transformer-impl inference_optimized` with experts. Not judged in a --yaml-cfg file. */
const inferenceMoe = (m: MegatronModel): boolean =>
  !m.args.yamlCfg && argValue(m, 'transformer_impl') === 'inference_optimized' && (argNum(m, 'num_moe_experts') ?? 0) > 0;

/** Gated linear units: `--swiglu` or `--quick-geglu` set them on the command line, `gated_linear_unit` in a Bridge override. */
const gated = (m: MegatronModel): boolean => argOn(m, 'swiglu') || argOn(m, 'quick_geglu') || argOn(m, 'gated_linear_unit');

/**
 * The grouped-GEMM backend of inference-optimized MoE layers (TransformerConfig.__post_init__, inside
 * `if transformer_impl == "inference_optimized" and num_moe_experts is not None`): in 0.17 the TE
 * backend refuses local CUDA graphs (transformer_config.py@core_v0.17.0:1209-1215); at d98e8a6 gated
 * linear units need the torch or vllm backend (@d98e8a6:1618-1626), and so does batch-invariant mode
 * (@d98e8a6:1664-1671).
 */
const GEMM_CHECKS: ArgCheck[] = [
  {
    when: (m) => (inferenceMoe(m) && argValue(m, 'inference_grouped_gemm_backend') === 'te' && (argValue(m, 'cuda_graph_impl') === 'local' || argOn(m, 'enable_cuda_graph')) ? 'inference_grouped_gemm_backend' : undefined),
    message: (m) => `${named(m, '--inference-grouped-gemm-backend', 'te')} with local CUDA graphs in the inference-optimized MoE layers: Megatron Core 0.17 stops when it builds the transformer config ("TE GroupedGEMM is not supported with CUDA graphs."). Use ${named(m, '--inference-grouped-gemm-backend', 'torch')} (or \`auto\`, the default), or ${named(m, '--cuda-graph-impl', 'none')}.`,
    formats: MEGATRON_FORMATS,
    since: '0.17.0',
    before: '0.18.0',
  },
  ...(['gated', 'batch_invariant_mode'] as const).map(
    (input): ArgCheck => ({
      when: (m) => (inferenceMoe(m) && (input === 'gated' ? gated(m) : argOn(m, 'batch_invariant_mode')) && argValue(m, 'inference_grouped_gemm_backend') === 'flashinfer' ? 'inference_grouped_gemm_backend' : undefined),
      message: (m) =>
        input === 'gated'
          ? `${named(m, '--inference-grouped-gemm-backend', 'flashinfer')} with gated linear units (SwiGLU/GeGLU) in the inference-optimized MoE layers: only the torch and vllm backends run them, and Megatron Core stops when it builds the transformer config ("--transformer-impl='inference_optimized' supports gated linear units (SwiGLU/GeGLU) only with --inference-grouped-gemm-backend torch or vllm"). Use ${named(m, '--inference-grouped-gemm-backend', 'vllm')} (the default) or \`torch\`.`
          : `${named(m, '--inference-grouped-gemm-backend', 'flashinfer')} with ${named(m, '--batch-invariant-mode')} in the inference-optimized MoE layers: Megatron Core stops when it builds the transformer config ("batch_invariant_mode requires inference_grouped_gemm_backend 'torch' or 'vllm'."). Use ${named(m, '--inference-grouped-gemm-backend', 'vllm')} (the default) or \`torch\`.`,
      formats: MEGATRON_FORMATS,
      since: '0.20.0',
    }),
  ),
];

export default defineRule<MegatronModel>({
  id: 'inference-config-invalid',
  severity: 'error',
  formats: MEGATRON_FORMATS,
  docs: {
    summary: 'Inference arguments that Megatron refuses at startup: a micro-batching threshold for pipelined inference without pipeline parallelism or beside CUDA graphs, a dynamic-batching KV-cache chunk or block size that is not a multiple of 256, or the switch for the Triton NVLS kernels without the inference-optimized layers, or a grouped-GEMM backend the inference-optimized MoE layers refuse beside CUDA graphs, gated linear units or batch-invariant mode.',
    why: 'From Megatron Core 0.10, `--inference-batch-times-seqlen-threshold` is off at -1 (its new default); any other value splits inference batches into micro-batches for the pipeline, and Megatron-LM\'s argument checks stop at startup unless PP is above 1; from 0.13 they also refuse it beside CUDA graphs (`--enable-cuda-graph`, and from 0.15 any `--cuda-graph-impl` other than `none`). With `--inference-dynamic-batching`, Megatron Core 0.13 and 0.14 need a `--inference-dynamic-batching-chunk-size` that is a multiple of 256, and 0.15 to 0.17 the same of `--inference-dynamic-batching-block-size`. From 0.17, `--inference-disable-triton-nvls-kernels` needs `--transformer-impl inference_optimized`: Megatron Core checks it when it builds the transformer config, for Megatron-LM and Megatron Bridge alike (a Bridge override is judged only when it writes both fields). In the inference-optimized MoE layers (`--transformer-impl inference_optimized` with experts), Megatron Core 0.17 refuses `--inference-grouped-gemm-backend te` beside local CUDA graphs, and from 0.20 the `flashinfer` backend beside gated linear units (`--swiglu`) or batch-invariant mode. Each stops the job before any GPU work.',
    bad: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --num-layers: 32\n  --inference-batch-times-seqlen-threshold: 512\n',
    good: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --num-layers: 32\n  --pipeline-model-parallel-size: 2\n  --inference-batch-times-seqlen-threshold: 512\n',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 tools/run_text_generation_server.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --micro-batch-size 1 --load /ckpt \\\n    --inference-batch-times-seqlen-threshold 512\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 tools/run_text_generation_server.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --micro-batch-size 1 --load /ckpt --pipeline-model-parallel-size 2 \\\n    --inference-batch-times-seqlen-threshold 512\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.15.0, `validate_args`: the micro-batching threshold needs PP above 1 and no CUDA graphs; the dynamic-batching block size', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.15.0/megatron/training/arguments.py#L1130-L1141' },
      { label: 'Megatron-LM core_v0.17.0, `TransformerConfig.__post_init__`: the Triton NVLS switch needs the inference-optimized layers', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.17.0/megatron/core/transformer/transformer_config.py#L2231-L2235' },
    ],
  },
  check(ctx) {
    runChecks(ctx, CHECKS);
    runChecks(ctx, GEMM_CHECKS);
  },
});
