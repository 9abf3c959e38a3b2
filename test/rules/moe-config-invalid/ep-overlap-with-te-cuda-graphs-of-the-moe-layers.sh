#: name: moe-config-invalid: EP all-to-all overlap refuses Transformer Engine's CUDA graphs of the moe or mlp modules (transformer_config.py@core_v0.18.0:2443-2451, @d98e8a6:3064-3071)
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 5 --disable-bias-linear \
    --num-experts 4 --expert-model-parallel-size 2 --moe-token-dispatcher-type alltoall --overlap-moe-expert-parallel-comm --cuda-graph-impl transformer_engine --cuda-graph-modules attn moe
#                                                                                                                                                               ^^^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: CUDA graph scope on moe and mlp is not supported with overlap_moe_expert_parallel_comm
#                                                                                                                                                               ^^^^^^^^^^^^^^^^^^^^ error[cuda-graph-config-invalid]
