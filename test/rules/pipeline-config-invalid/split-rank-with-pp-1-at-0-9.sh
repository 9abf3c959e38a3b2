#: name: pipeline-config-invalid: from 0.9 the split rank is the encoder's pipeline size and the decoder must keep a rank, whatever PP (training/arguments.py@core_v0.9.0:209-212)
#: settings: {"targetVersions": {"megatron-core": "0.9.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_t5.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 64 --overlap-grad-reduce  \
    --pipeline-model-parallel-split-rank 1
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ information[deprecated-key]
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[pipeline-config-invalid]: so the split rank must be below PP
