#: name: invalid-value: without --defer-embedding-wgrad-compute Megatron Core does not check --wgrad-deferral-limit (model_parallel_config.py@core_v0.19.0:555): a negative one is a note
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --seq-length 2048 --max-position-embeddings 2048 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --wgrad-deferral-limit -1
#                          ^^ information[invalid-value]: `--defer-embedding-wgrad-compute` is not on here, so the value is unused, and it is refused once that changes
