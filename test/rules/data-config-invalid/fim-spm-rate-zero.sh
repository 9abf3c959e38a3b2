#: name: data-config-invalid: with --fim-data a rate of 0 is tested for truth and refused like a missing one (training/arguments.py@core_v0.16.0, @d98e8a6:1693-1694)
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --data-path /data/code_text_document --fim-data --fim-spm-rate 0
#                                                   ^^^^^^^^^^^^^^ error[data-config-invalid]: should be specified
