#: name: pipeline-config-invalid: at core_v0.16.0 the old pattern name beside the embedding split switch is not refused by the argument checks
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_mamba.py \
    --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --num-layers 3 --hybrid-override-pattern M-M --pipeline-model-parallel-size 2 --account-for-embedding-in-pipeline-split \
    --overlap-grad-reduce --micro-batch-size 1 --global-batch-size 8 --bf16
