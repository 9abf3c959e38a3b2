#: name: pipeline-config-invalid: an encoder TP of at most the decoder TP that divides the heads runs
#: settings: {"targetVersions": {"megatron-core": "0.12.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 6 pretrain_vlm.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 64 --overlap-grad-reduce \
    --tensor-model-parallel-size 1 --encoder-pipeline-model-parallel-size 1 --pipeline-model-parallel-size 2 \
    --encoder-tensor-model-parallel-size 1
