#: name: moe-config-invalid: in Megatron Core 0.17 the modules are the --cuda-graph-scope, and mlp there is refused beside EP all-to-all overlap (transformer_config.py@core_v0.17.0:2131-2139)
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 5 --disable-bias-linear \
    --num-experts 4 --expert-model-parallel-size 2 --moe-token-dispatcher-type alltoall --overlap-moe-expert-parallel-comm --cuda-graph-impl transformer_engine --cuda-graph-scope mlp
#                                                                                                                                                               ^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: CUDA graph scope on moe and mlp is not supported with overlap_moe_expert_parallel_comm
#                                                                                                                                                               ^^^^^^^^^^^^^^^^^^ error[cuda-graph-config-invalid]
