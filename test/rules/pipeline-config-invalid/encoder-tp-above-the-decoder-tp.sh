#: name: pipeline-config-invalid: an encoder TP above the decoder TP stops at startup (training/arguments.py@core_v0.12.0, "We do not support encoders with more TP than the decoder.")
#: settings: {"targetVersions": {"megatron-core": "0.12.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_vlm.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 64 --overlap-grad-reduce \
    --tensor-model-parallel-size 1 --encoder-pipeline-model-parallel-size 1 --pipeline-model-parallel-size 2 \
    --encoder-tensor-model-parallel-size 2
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[pipeline-config-invalid]: above the decoder
