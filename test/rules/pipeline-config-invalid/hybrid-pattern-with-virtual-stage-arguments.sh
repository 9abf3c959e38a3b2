#: name: pipeline-config-invalid: a hybrid pattern beside the virtual-stage count or the embedding split switch stops Megatron-LM (training/arguments.py@d98e8a6:814-838, from core_v0.17.0)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_mamba.py \
    --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --hybrid-layer-pattern 'M-|M-|M-|M-' --pipeline-model-parallel-size 2 --num-virtual-stages-per-pipeline-rank 2 --account-for-embedding-in-pipeline-split \
#                                                                         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[pipeline-config-invalid]
#                                                                                                                  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[pipeline-config-invalid]
    --overlap-grad-reduce --micro-batch-size 1 --global-batch-size 8 --bf16
