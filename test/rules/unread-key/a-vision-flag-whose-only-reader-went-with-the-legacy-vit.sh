#: name: unread-key: --num-channels was read only by the legacy ViT backbone (legacy/model/vision/vit_backbone.py@core_v0.17.0:165), removed in 0.18.0; from core_v0.18.0 on only its definition (arguments.py@core_v0.18.0:3062, @core_v0.19.0:3291) and two comments (examples/multimodal/dataset_helpers.py@core_v0.18.0:470,588) name it, so at 0.19.0 it gets the same note as --vision-backbone-type
#: path: train.sh
#!/bin/bash
# shardwise: megatron_core=0.19.0
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 \
    --micro-batch-size 1 --global-batch-size 8 \
    --num-channels 1
#   ^^^^^^^^^^^^^^ information[unread-key]: (from 0.18.0 on)
