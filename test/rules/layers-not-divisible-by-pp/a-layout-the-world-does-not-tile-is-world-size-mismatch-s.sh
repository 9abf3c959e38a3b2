#: name: layers-not-divisible-by-pp: TP 8 × PP 16 on 8 GPUs never runs as written: Megatron-LM before 0.9.0 cuts PP to 1 and splits the layers over that (megatron/training/arguments.py@core_r0.8.0), 0.9.0 on stops on the world size first; world-size-mismatch says so, and the 24 layers over PP 16 are not the split that runs
#: path: /project/examples/train_bert.sh
#!/bin/bash
# shardwise: hardware=h100-sxm
# shardwise-disable tp-without-sequence-parallel -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_bert.py \
^^^^^^^^ warning[world-size-mismatch]: releases before it cut PP to 1
    --num-layers 24 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 512 --max-position-embeddings 512 \
    --micro-batch-size 1 --global-batch-size 32 --bf16 \
    --tensor-model-parallel-size 8 --pipeline-model-parallel-size 16
