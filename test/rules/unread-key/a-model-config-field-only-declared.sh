#: name: unread-key: from 0.18.0 nothing reads --apply-residual-connection-post-layernorm (its only reader was the legacy transformer, megatron/legacy/model/transformer.py@core_v0.17.0, removed in 0.18.0); the TransformerConfig field declaration (transformer_config.py@core_v0.18.0) declares it and reads nothing: a note at 0.18
#: path: train.sh
#!/bin/bash
# shardwise: megatron_core=0.18.0
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 \
    --micro-batch-size 1 --global-batch-size 8 \
    --apply-residual-connection-post-layernorm
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ information[unread-key]: (from 0.18.0 on)
