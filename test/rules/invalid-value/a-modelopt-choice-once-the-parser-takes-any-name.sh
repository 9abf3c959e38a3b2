#: name: invalid-value: from 0.16.0 the ModelOpt parser takes any --export-quant-cfg name (megatron/post_training/arguments.py@core_v0.16.0 has no choices list): fp4 is not judged
#: path: quant.sh
#!/bin/bash
# shardwise: megatron_core=0.16.0
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 \
    --micro-batch-size 1 --global-batch-size 8 \
    --export-quant-cfg fp4
