#: name: unread-key: Megatron-LM accepts --enable-full-sharding-in-hsdp but no Python file reads enable_full_sharding_in_hsdp at any release that has it (megatron/training/arguments.py@core_v0.14.0 adds it; core_v0.19.0 names it nowhere else), and --mask-type is read by nothing from core_v0.17.0 (pretrain_vision_inpaint.py removed): notes
#: path: train.sh
#!/bin/bash
# shardwise: megatron_core=0.17.0
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 \
    --micro-batch-size 1 --global-batch-size 8 \
    --enable-full-sharding-in-hsdp \
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ information[unread-key]: (in any release that has it)
    --mask-type random
#   ^^^^^^^^^^^ information[unread-key]: (from 0.17.0 on)
