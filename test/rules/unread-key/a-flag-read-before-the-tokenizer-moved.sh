#: name: unread-key: --vocab-extra-ids is read by the tokenizer at 0.16.0 (megatron/training/tokenizer/tokenizer.py@core_v0.16.0:30): no note
#: path: train.sh
#!/bin/bash
# shardwise: megatron_core=0.16.0
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_t5.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 \
    --micro-batch-size 1 --global-batch-size 8 \
    --vocab-extra-ids 100
