#: name: cuda-graph-config-invalid: --enable-cuda-graph is rewritten to cuda_graph_impl=local before the scope is checked (arguments.py@core_v0.18.0:609-622), so block is accepted and none is refused
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --enable-cuda-graph --eval-interval 1000 \
#                                                                                               ^^^^^^^^^^^^^^^^^^^ information[deprecated-key]: Turned into `--cuda-graph-impl local`
    --inference-cuda-graph-scope none
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[cuda-graph-config-invalid]: has no `none`
