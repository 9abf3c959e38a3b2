#: name: cuda-graph-config-invalid: an old switch beside --cuda-graph-impl is refused from 0.15 (arguments.py@core_v0.15.0, "Do not use --enable-cuda-graph or --external-cuda-graph with --cuda-graph-impl")
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 \
    --external-cuda-graph --cuda-graph-impl transformer_engine
#   ^^^^^^^^^^^^^^^^^^^^^ error[cuda-graph-config-invalid]: is the old spelling of an implementation
#   ^^^^^^^^^^^^^^^^^^^^^ information[deprecated-key]: Turned into `--cuda-graph-impl transformer_engine`
