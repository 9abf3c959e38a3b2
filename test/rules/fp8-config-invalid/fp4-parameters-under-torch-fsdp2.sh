#: name: fp8-config-invalid: under torch FSDP2 Megatron-LM clears --fp4-param-gather when Transformer Engine is older than 2.7 (training/arguments.py@d98e8a6:1058-1064), a version the file does not show: nothing is said
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}, "rules": {"missing-cuda-device-max-connections": "off", "fsdp-config-invalid": "off"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --use-torch-fsdp2 --fp4-param-gather
