#: name: precision-aware-optimizer-invalid: the CPU offload with FP8 parameter gathering needs the delayed recipe from 0.14 (training/arguments.py@core_v0.14.0:1066-1069, @d98e8a6:1889-1892)
#: settings: {"targetVersions": {"megatron-core": "0.14.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 \
    --use-distributed-optimizer --use-precision-aware-optimizer --optimizer-cpu-offload --fp8-format hybrid --fp8-param-gather --fp8-recipe tensorwise
#                                                                                                                              ^^^^^^^^^^^^ error[precision-aware-optimizer-invalid]: When 
