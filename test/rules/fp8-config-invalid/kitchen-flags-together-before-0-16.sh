#: name: fp8-config-invalid: the two Kitchen flags are a mutually exclusive argparse group from 0.13 to 0.15 (training/arguments.py@core_v0.15.0:3323)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --eval-interval 10 --lr 1e-4 --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --kitchen-recipe-number 3 --kitchen-config-file k.yaml
#   ^^^^^^^^^^^^^^^^^^^^^^^ error[fp8-config-invalid]: not allowed with argument
