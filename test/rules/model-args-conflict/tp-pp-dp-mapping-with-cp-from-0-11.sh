#: name: model-args-conflict: from core_v0.11.0 the TP-PP-DP rank order places CP and EP (tp-cp-ep-pp-dp, training/initialize.py@core_v0.11.0:321) and the check is gone: accepted
#: settings: {"targetVersions": {"megatron-core": "0.11.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --pipeline-model-parallel-size 2 --context-parallel-size 2 --use-tp-pp-dp-mapping \
    --overlap-grad-reduce --micro-batch-size 1 --global-batch-size 8 --bf16
