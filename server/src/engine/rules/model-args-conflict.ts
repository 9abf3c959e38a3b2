/**
 * model-args-conflict: model-shape arguments of Megatron-LM given twice under two names, or two
 * attention kinds that exclude each other: its argument checks stop at startup.
 */
import { argGiven, argOn, argValue, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { runChecks, type ArgCheck } from '../formats/megatron/checks';
import { defineRule } from './rule';


/**
 * megatron/training/arguments.py (megatron/arguments.py before 0.7), validate_args: `--num-layers`
 * and `--encoder-num-layers`, `--seq-length` and `--encoder-seq-length` are two names of one setting
 * and one of each pair must be left out (every release from core_r0.4.0 to HEAD); multi-latent
 * attention excludes grouped-query attention from core_v0.16.0.
 */
const CHECKS: ArgCheck[] = [
  {
    when: (m) => (argGiven(m, 'seq_length') && argGiven(m, 'encoder_seq_length') ? 'encoder_seq_length' : undefined),
    message: () => '`--encoder-seq-length` beside `--seq-length`: for a GPT model they are two names of the same length, and Megatron-LM stops at startup when both are given (an assertion in its argument checks). Keep `--seq-length`.',
  },
  {
    when: (m) => (argGiven(m, 'num_layers') && argGiven(m, 'encoder_num_layers') ? 'encoder_num_layers' : undefined),
    message: () => '`--encoder-num-layers` beside `--num-layers`: Megatron-LM stops at startup ("cannot have both num-layers and encoder-num-layers specified"). Keep `--num-layers`.',
  },
  {
    when: (m) => (argOn(m, 'multi_latent_attention') && argOn(m, 'group_query_attention') ? 'group_query_attention' : undefined),
    message: () => '`--group-query-attention` with `--multi-latent-attention`: multi-latent attention compresses keys and values its own way, and Megatron-LM stops at startup ("Group query attention is mutually exclusive with multi latent attention"). Remove `--group-query-attention` and `--num-query-groups`.',
    since: '0.16.0',
  },
  {
    // training/arguments.py@core_v0.19.0:1642-1647 (not in yaml_arguments.py): Megatron Core's own
    // config only warns about the pair (model_parallel_config.py@core_v0.19.0), so Bridge and NeMo run it.
    when: (m) => (argOn(m, 'cross_entropy_loss_fusion') && argValue(m, 'cross_entropy_fusion_impl') === 'te' ? 'cross_entropy_fusion_impl' : undefined),
    message: () => '`--cross-entropy-fusion-impl te` with `--cross-entropy-loss-fusion`: Transformer Engine\'s fused cross-entropy has stability issues, and Megatron-LM stops at startup ("Transformer Engine cross entropy loss fusion is disabled due to stability issues"). Use `--cross-entropy-fusion-impl native`, or drop `--cross-entropy-loss-fusion`.',
    formats: MLM_FLAG_FORMATS,
    since: '0.19.0',
  },
];

export default defineRule<MegatronModel>({
  id: 'model-args-conflict',
  severity: 'error',
  formats: MLM_FLAG_FORMATS,
  docs: {
    summary: 'Model arguments that Megatron-LM rejects together: a setting under both of its names (`--seq-length` and `--encoder-seq-length`, `--num-layers` and `--encoder-num-layers`), multi-latent with grouped-query attention, or Transformer Engine\'s cross-entropy fusion.',
    why: 'Megatron-LM keeps the encoder spellings of the sequence length and the layer count as other names of the GPT settings, and its argument checks refuse a script that gives both names, at every release; from Megatron Core 0.16 they also refuse grouped-query attention beside multi-latent attention, and from 0.19 `--cross-entropy-fusion-impl te` with `--cross-entropy-loss-fusion`. Each stops the job at startup, before any GPU work. Megatron Bridge and NeMo set the model in their own configs and are not judged.',
    bad: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --num-layers: 32\n  --seq-length: 4096\n  --encoder-seq-length: 4096\n',
    good: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --num-layers: 32\n  --seq-length: 4096\n',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --encoder-seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.16.0, `validate_args`: `--num-layers` excludes `--encoder-num-layers`, `--seq-length` excludes `--encoder-seq-length`', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.16.0/megatron/training/arguments.py#L786-L827' },
    ],
  },
  check(ctx) {
    runChecks(ctx, CHECKS);
  },
});
