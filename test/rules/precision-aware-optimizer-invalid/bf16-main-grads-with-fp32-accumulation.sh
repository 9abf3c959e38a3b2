#: name: precision-aware-optimizer-invalid: bf16 main gradients beside --accumulate-allreduce-grads-in-fp32 stop Megatron-LM under --bf16 (training/arguments.py@d98e8a6:1209-1211, from core_v0.11.0)
#: settings: {"targetVersions": {"megatron-core": "0.11.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --use-distributed-optimizer --use-precision-aware-optimizer --main-grads-dtype bf16 --accumulate-allreduce-grads-in-fp32 \
#                                                               ^^^^^^^^^^^^^^^^^^ error[precision-aware-optimizer-invalid]
    --micro-batch-size 1 --global-batch-size 8 --bf16 --overlap-grad-reduce --overlap-param-gather
