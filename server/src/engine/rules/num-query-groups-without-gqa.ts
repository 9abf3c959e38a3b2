/**
 * num-query-groups-without-gqa: `--num-query-groups` without `--group-query-attention`.
 */
import { argOn, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { defineRule } from './rule';

export default defineRule<MegatronModel>({
  id: 'num-query-groups-without-gqa',
  severity: 'warning',
  tags: ['unnecessary'],
  formats: MLM_FLAG_FORMATS,
  fixes: {
    'turn-on-gqa': { applicability: 'unsafe', changes: 'the attention: grouped-query instead of multi-head' },
  },
  docs: {
    summary: '`--num-query-groups` is set but `--group-query-attention` is not.',
    why: 'Megatron-LM only reads `--num-query-groups` when `--group-query-attention` is on; otherwise it builds plain multi-head attention with one key/value head per query head. The model then has more parameters and a larger KV cache than intended, and a checkpoint converted from a GQA model (Llama, Mistral, Qwen) will not load.',
    bad: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --num-layers: 32\n  --hidden-size: 4096\n  --num-attention-heads: 32\n  --num-query-groups: 8\n',
    good: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --num-layers: 32\n  --hidden-size: 4096\n  --num-attention-heads: 32\n  --group-query-attention: true\n  --num-query-groups: 8\n',
    fix: 'Adds `--group-query-attention`.',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 8 --sequence-parallel --num-query-groups 8 \\\n    --micro-batch-size 1 --global-batch-size 64\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 8 --sequence-parallel --group-query-attention --num-query-groups 8 \\\n    --micro-batch-size 1 --global-batch-size 64\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.15.3, `megatron/training/arguments.py`: the query groups are passed on only with `--group-query-attention`', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.15.3/megatron/training/arguments.py#L1275-L1278' },
    ],
  },
  check(ctx) {
    const m = ctx.model;
    // Config fields (a --yaml-cfg file, Bridge, NeMo) reach TransformerConfig whatever the switch says.
    if (m.args.configFields) return;
    const groups = m.args.get('num_query_groups');
    if (!groups || groups.unknown !== undefined || m.args.get('group_query_attention')?.unknown !== undefined || argOn(m, 'group_query_attention')) return;
    // Multi-latent attention has no query groups to pass on, and refuses the switch (arguments.py@core_v0.16.0:1266).
    if (m.args.get('multi_latent_attention')?.unknown !== undefined || argOn(m, 'multi_latent_attention')) return;
    // As many groups as heads is multi-head attention: what runs without the switch anyway.
    const heads = m.args.get('num_attention_heads');
    if (heads && heads.unknown === undefined && Number(heads.value) === Number(groups.value)) return;
    const path = m.args.pathFor('group_query_attention');
    ctx.report({
      at: groups.path,
      message: `\`${String(groups.path[groups.path.length - 1])}\` (${String(groups.value)}) is ignored without \`--group-query-attention\`: Megatron-LM builds multi-head attention with a key/value head per query head, so the model and its KV cache are larger than intended and GQA checkpoints will not load. Add \`--group-query-attention\`.`,
      fixes: path ? [{ kind: 'turn-on-gqa', title: 'Add --group-query-attention', edits: [{ op: 'set', path, value: true }], recommended: true }] : [],
    });
  },
});
