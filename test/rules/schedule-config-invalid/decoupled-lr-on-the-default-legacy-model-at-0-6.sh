#: name: schedule-config-invalid: the decoupled learning rate without --use-mcore-models stops Megatron-LM before 0.8 (training/arguments.py@core_v0.6.0:477-479)
#: settings: {"targetVersions": {"megatron-core": "0.6.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --decoupled-lr 1e-3
#   ^^^^^^^^^^^^^^ error[schedule-config-invalid]: `--decoupled-lr` without `--use-mcore-models`: before Megatr
