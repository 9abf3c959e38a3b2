#: name: unread-key: at 0.17.0 the legacy ViT backbone still reads num_channels (legacy/model/vision/vit_backbone.py@core_v0.17.0:165): nothing
#: path: train.sh
#!/bin/bash
# shardwise: megatron_core=0.17.0
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 \
    --micro-batch-size 1 --global-batch-size 8 \
    --num-channels 1
