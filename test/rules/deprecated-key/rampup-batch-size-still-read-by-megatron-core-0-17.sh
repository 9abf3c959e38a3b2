#: name: deprecated-key: Megatron Core 0.17.1 still ramps the batch up with --rampup-batch-size (training/global_vars.py@core_v0.17.1:126, training.py@core_v0.17.1:1282-1291): nothing to report
#: settings: {"targetVersions": {"megatron-core": "0.17.1"}}
#!/bin/bash
# shardwise-disable missing-overlap-grad-reduce -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 64 --train-samples 64000 --eval-interval 1000 \
    --rampup-batch-size 16 8 300000
