#: name: moe-config-invalid: Megatron-LM 0.16 refuses per-layer CUDA graphs with expert parallelism without expert padding (training/arguments.py@core_v0.16.0:1159-1161)
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 5 --disable-bias-linear \
    --num-experts 4 --expert-model-parallel-size 2 --moe-token-dispatcher-type alltoall --cuda-graph-impl local
#                                                                                       ^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: --moe-pad-experts-for-cuda-graph-inference must be set
