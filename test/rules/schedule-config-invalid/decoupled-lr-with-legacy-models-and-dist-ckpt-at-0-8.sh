#: name: schedule-config-invalid: the decoupled learning rate with --use-legacy-models (0.8 to 0.17) and with --use-dist-ckpt (0.8) stops Megatron-LM (training/arguments.py@core_v0.8.0:505-508)
#: settings: {"targetVersions": {"megatron-core": "0.8.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --decoupled-min-lr 1e-5 --use-legacy-models --use-dist-ckpt
#                           ^^^^^^^^^^^^^^^^^^^ error[schedule-config-invalid]: `--decoupled-min-lr` with `--use-legacy-models`: only Megatr
#                                               ^^^^^^^^^^^^^^^ error[schedule-config-invalid]: `--decoupled-min-lr` with `--use-dist-ckpt`: Megatron Core 0
