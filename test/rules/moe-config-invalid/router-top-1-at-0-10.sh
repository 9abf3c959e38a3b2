#: name: moe-config-invalid: from core_v0.8.0 to 0.10 top-1 routing with softmax after the choice stops on the router's first forward step (moe/moe_utils.py@core_v0.8.0:315-317, @core_v0.10.0:270-272)
#: settings: {"targetVersions": {"megatron-core": "0.10.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 \
    --num-experts 8 --disable-bias-linear --moe-router-topk 1
#                                         ^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: Please use --moe-router-pre-softmax when topk is 1
