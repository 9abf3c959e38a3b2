#: name: moe-config-invalid: before 0.8 the command line passes `--num-experts 0` to the model config, which refuses it (arguments.py@core_v0.5.0:456 and training/arguments.py@core_v0.7.0:565 copy it, no 0-to-None step before training/arguments.py@core_v0.8.0:524-525; transformer_config.py@core_v0.7.0:327-328)
#: settings: {"targetVersions": {"megatron-core": "0.7.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --mock-data --overlap-grad-reduce \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 5 \
    --num-experts 0
#   ^^^^^^^^^^^^^ error[moe-config-invalid]: before Megatron Core 0.8
