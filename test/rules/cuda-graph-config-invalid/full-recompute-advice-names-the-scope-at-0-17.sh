#: name: cuda-graph-config-invalid: at 0.17 the advice still names the `full_iteration` scope of `--cuda-graph-scope` (training/arguments.py@core_v0.17.0:1003 asks for it by that name)
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --cuda-graph-impl transformer_engine --recompute-method uniform --recompute-num-layers 1 \
    --recompute-granularity full
#   ^^^^^^^^^^^^^^^^^^^^^^^ error[cuda-graph-config-invalid]: or `--cuda-graph-impl local --cuda-graph-scope full_iteration`.
