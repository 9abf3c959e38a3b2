/**
 * data-config-invalid: data arguments that Megatron-LM's argument checks refuse.
 *
 * megatron/training/arguments.py, validate_args:
 * - the blend is given either inline (`--data-path`) or in a file (`--data-args-path`), not both; the
 *   same for the per-split paths and `--per-split-data-args-path` (@core_v0.10.0:305-318,
 *   @d98e8a6:674-687);
 * - at least one dataset-builder thread (@core_v0.7.0, @d98e8a6:1258).
 */
import { argGiven, argNum, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { runChecks, type ArgCheck } from '../formats/megatron/checks';
import { defineRule } from './rule';

const SPLIT_PATHS = ['train_data_path', 'valid_data_path', 'test_data_path'];

const CHECKS: ArgCheck[] = [
  {
    when: (m) => (argGiven(m, 'data_path') && argGiven(m, 'data_args_path') ? 'data_args_path' : undefined),
    message: () => '`--data-args-path` beside `--data-path`: both give the data blend (one in a file, one inline), and Megatron-LM stops at startup (an assertion that only one is given). Keep one of them.',
    formats: MLM_FLAG_FORMATS,
    since: '0.10.0',
  },
  {
    when: (m) => (argGiven(m, 'per_split_data_args_path') && SPLIT_PATHS.some((d) => argGiven(m, d)) ? 'per_split_data_args_path' : undefined),
    message: () => '`--per-split-data-args-path` beside `--train-data-path`, `--valid-data-path` or `--test-data-path`: both give the per-split blends (one in a file, one inline), and Megatron-LM stops at startup (an assertion that only one is given). Keep one of them.',
    formats: MLM_FLAG_FORMATS,
    since: '0.10.0',
  },
  {
    when: (m) => {
      const n = argNum(m, 'num_dataset_builder_threads');
      return n !== undefined && n < 1 ? 'num_dataset_builder_threads' : undefined;
    },
    message: (m) => `\`--num-dataset-builder-threads ${argNum(m, 'num_dataset_builder_threads')}\`: the dataset indexes are built by these threads, and Megatron-LM stops at startup (it asserts at least one). Use 1 (the default) or more.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.7.0',
  },
];

export default defineRule<MegatronModel>({
  id: 'data-config-invalid',
  severity: 'error',
  formats: MLM_FLAG_FORMATS,
  docs: {
    summary: 'Data arguments that Megatron-LM rejects: a blend given both inline and in a file (`--data-path` with `--data-args-path`, the per-split paths with `--per-split-data-args-path`), or no dataset-builder thread.',
    why: 'From Megatron Core 0.10, Megatron-LM takes the data blend either inline or from a file, and its argument checks stop the job at startup when both are given (for the whole blend and for the per-split blends). From 0.7 they also stop on `--num-dataset-builder-threads 0`. A `--yaml-cfg` file is not checked this way and is not judged.',
    bad: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --data-path: /data/corpus_text_document\n  --data-args-path: /data/blend.txt\n',
    good: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --data-args-path: /data/blend.txt\n',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64 \\\n    --data-path /data/corpus_text_document --data-args-path /data/blend.txt\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64 \\\n    --data-args-path /data/blend.txt\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.10.0, `validate_args`: the data blend inline or from a file, not both', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.10.0/megatron/training/arguments.py#L305-L318' },
    ],
  },
  check(ctx) {
    runChecks(ctx, CHECKS);
  },
});
