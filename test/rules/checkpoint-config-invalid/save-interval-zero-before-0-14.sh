#: name: checkpoint-config-invalid: before 0.14 the argument checks do not look at the save interval's value (training/arguments.py@core_v0.13.0:795-796 asserts only that it is given)
#: settings: {"targetVersions": {"megatron-core": "0.13.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --lr 1e-4 --train-iters 1000 \
    --save /ckpt --save-interval 0
