#: name: deprecated-key: with no release named, a flag 0.9.0 removed beside one 0.10.0 added stops the run on every release (older ones do not know the new flag): an error, not a warning about the newest release
#: path: /project/train.sh
#!/bin/bash
# shardwise-disable missing-overlap-grad-reduce -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 256 --num-attention-heads 4 \
    --seq-length 1024 --max-position-embeddings 1024 \
    --micro-batch-size 1 --global-batch-size 8 \
    --expert-tensor-parallel-size 1 \
    --log-batch-size-to-tensorboard \
    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[deprecated-key]: was removed in Megatron-LM 0.9.0
    --bf16
