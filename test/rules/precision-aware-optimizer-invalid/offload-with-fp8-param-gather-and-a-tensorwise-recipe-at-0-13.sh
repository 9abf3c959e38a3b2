#: name: precision-aware-optimizer-invalid: Megatron-LM 0.13 does not check the FP8 recipe beside the CPU offload (training/arguments.py@core_v0.13.0:1049-1053 asks only for the precision-aware optimizer)
#: settings: {"targetVersions": {"megatron-core": "0.13.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 \
    --use-distributed-optimizer --use-precision-aware-optimizer --optimizer-cpu-offload --fp8-format hybrid --fp8-param-gather --fp8-recipe tensorwise
