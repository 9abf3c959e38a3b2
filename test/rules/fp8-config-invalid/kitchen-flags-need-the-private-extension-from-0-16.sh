#: name: fp8-config-invalid: from 0.16 the public Megatron-LM adds the Kitchen flags only if HAVE_KITCHEN, which its stub sets to False (megatron/core/extensions/kitchen.py@core_v0.16.0:3, training/arguments.py@core_v0.16.0:2878): a warning naming that assumption
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --eval-interval 10 --lr 1e-4 --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --kitchen-recipe-number 3 
#   ^^^^^^^^^^^^^^^^^^^^^^^ warning[fp8-config-invalid]: defines the Kitchen flags only when the private Kitchen extension
