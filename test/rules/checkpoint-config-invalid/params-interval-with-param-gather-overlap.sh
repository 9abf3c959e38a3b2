#: name: checkpoint-config-invalid: parameter saves on their own interval exclude the overlapped parameter all-gather from 0.18 (training/arguments.py@core_v0.18.0:1312-1313, @d98e8a6:1367-1368)
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --save /ckpt --save-interval 100 --save-params-interval 50 --use-distributed-optimizer --overlap-param-gather
#                                    ^^^^^^^^^^^^^^^^^^^^^^ error[checkpoint-config-invalid]: `--save-params-interval` with `--overlap
