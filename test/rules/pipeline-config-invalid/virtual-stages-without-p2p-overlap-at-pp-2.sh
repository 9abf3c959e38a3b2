#: name: pipeline-config-invalid: without the p2p overlap the interleaved schedule needs PP above 2 (training/arguments.py@d98e8a6:1005-1009)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --num-layers 32 --pipeline-model-parallel-size 2 --num-layers-per-virtual-pipeline-stage 8 --no-overlap-p2p-communication \
#                                                    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[pipeline-config-invalid]
    --overlap-grad-reduce --micro-batch-size 1 --global-batch-size 8 --bf16
