#: name: model-args-conflict: MTP HSM needs two or more MTP layers (transformer_config.py@d98e8a6:1416-1417)
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 --position-embedding-type rope \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --mtp-num-layers 1 --mtp-hsm
#                      ^^^^^^^^^ error[model-args-conflict]: requires mtp_num_layers >= 2
