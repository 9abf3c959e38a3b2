#: name: recompute-config-invalid: an offload fraction of 0.5 and a smallest tensor size of 0 run
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --fine-grained-activation-offloading --offload-modules core_attn --activation-offload-fraction 0.5 --min-offloaded-tensor-size 0
