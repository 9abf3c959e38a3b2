#: name: unread-key: Megatron Core reads --use-torch-optimizer-for-cpu-offload only to set the GPU-side optimizer class, which the next lines replace with Adam or SGD in both branches (megatron/core/optimizer/__init__.py@core_v0.12.0:296-313, @core_v0.19.0:513-530, @d98e8a6:513-530): a note that it has no effect, while the offload flags it sits beside are read (hybrid_optimizer.py@d98e8a6:74-76)
#: path: train.sh
#!/bin/bash
# shardwise: megatron_core=0.19.0
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 \
    --micro-batch-size 1 --global-batch-size 8 \
    --optimizer-cpu-offload --use-precision-aware-optimizer --use-distributed-optimizer --overlap-param-gather --optimizer-offload-fraction 0.5 --no-pin-cpu-params \
    --use-torch-optimizer-for-cpu-offload
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ information[unread-key]: has no effect in Megatron-LM 0.19.0 (in any release that has it)
