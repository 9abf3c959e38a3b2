#: name: model-args-conflict: --cp-comm-type a2a+p2p needs --hierarchical-context-parallel-sizes (training/arguments.py@core_v0.10.0:255-257, the same at d98e8a6:582-585)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 4 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 \
    --context-parallel-size 4 --cp-comm-type a2a+p2p
#                             ^^^^^^^^^^^^^^ error[model-args-conflict]: must be set when a2a+p2p is used in cp comm
