#: name: pipeline-config-invalid: MoE with a z-loss refuses the embedding counted as a layer even without load balancing (training/arguments.py@core_v0.11.0:796-799)
#: settings: {"targetVersions": {"megatron-core": "0.11.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 7 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 64 --overlap-grad-reduce \
    --pipeline-model-parallel-size 2 --num-experts 8 --moe-router-load-balancing-type none --moe-z-loss-coeff 0.001 \
    --account-for-embedding-in-pipeline-split
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[pipeline-config-invalid]: with MoE and a z-loss
