#: name: cuda-graph-config-invalid: an inference scope of block with the default implementation (none) stops at startup (transformer_config.py@core_v0.18.0:2232 asserts the scope is in ALLOWED_INFERENCE_SCOPES[cuda_graph_impl], cuda_graph_config.py@core_v0.18.0:17-22)
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --inference-cuda-graph-scope block
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[cuda-graph-config-invalid]: only Megatron Core's local implementation
