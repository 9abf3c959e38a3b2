#: name: overlap-config-invalid: --overlap-param-gather-with-optimizer-step with the distributed optimizer, both overlaps, virtual stages and --ckpt-format torch runs
#: settings: {"targetVersions": {"megatron-core": "0.9.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --pipeline-model-parallel-size 2 --num-layers-per-virtual-pipeline-stage 4 --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather --overlap-param-gather-with-optimizer-step --ckpt-format torch \
    --micro-batch-size 1 --global-batch-size 8 --bf16
