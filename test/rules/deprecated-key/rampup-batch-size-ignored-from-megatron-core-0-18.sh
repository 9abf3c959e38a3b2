#: name: deprecated-key: from Megatron Core 0.18.0 nothing in Megatron-LM's training reads --rampup-batch-size (training/global_vars.py@core_v0.17.1:126 passed it on; core_v0.18.0 has no reader outside the config dataclass), and the calculator only warns if handed it (num_microbatches_calculator.py@core_v0.18.0:100-104); 0.17.1 still ramps the batch
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
# shardwise-disable missing-overlap-grad-reduce -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 64 --train-iters 1000 --eval-interval 1000 \
    --rampup-batch-size 16 8 300000
    ^^^^^^^^^^^^^^^^^^^ warning[deprecated-key]: nothing reads it
