#: name: launch script with continuation lines under srun + torchrun: TP 8 × PP 16 on 16 GPUs, 20 heads, param-gather overlap without the distributed optimizer, an unexported variable
#: path: train.sh
#: settings: {"targetVersions": {"megatron-core": "0.9.0"}}
#!/bin/bash
# shardwise: hardware=h100-sxm
CUDA_DEVICE_MAX_CONNECTIONS=1
^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[missing-cuda-device-max-connections]: is set but not exported
srun -N 2 --ntasks-per-node=1 \
^^^^ error[world-size-mismatch]: 16 GPUs (8 processes per node × 2 nodes, from the torchrun options)
^^^^ information[fork-flags-not-checked]: This script runs the Megatron-LM at `/opt/megatron`, which is not read here
  torchrun --nproc_per_node=8 --nnodes=2 /opt/megatron/pretrain_gpt.py \
    --tensor-model-parallel-size 8 \
#                                ^ error[heads-not-divisible-by-tp]: 20 attention heads
    --pipeline-model-parallel-size 16 \
    --sequence-parallel --tp-comm-overlap \
    --num-layers 32 --hidden-size 4096 --num-attention-heads 20 --kv-channels 128 \
    --overlap-param-gather --overlap-grad-reduce \
#   ^^^^^^^^^^^^^^^^^^^^^^ error[overlap-param-gather-requires-distributed-optimizer]: needs the distributed optimizer
    --bf16
