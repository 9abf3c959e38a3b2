#: name: precision-aware-optimizer-invalid: --optimizer-cpu-offload without --use-precision-aware-optimizer stops from 0.12 (arguments.py@core_v0.12.0:945-949)
#: settings: {"targetVersions": {"megatron-core": "0.12.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 \
    --use-distributed-optimizer --overlap-param-gather --optimizer-cpu-offload
#                                                      ^^^^^^^^^^^^^^^^^^^^^^^ error[precision-aware-optimizer-invalid]: must be used in conjunction with
