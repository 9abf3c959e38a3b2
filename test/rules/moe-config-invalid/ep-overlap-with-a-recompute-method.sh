#: name: moe-config-invalid: Megatron Core refuses a recompute method with EP all-to-all overlap (transformer_config.py@d98e8a6:3024-3026, from core_v0.14.0)
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --num-experts 8 --expert-model-parallel-size 2 --moe-token-dispatcher-type alltoall --disable-bias-linear --overlap-moe-expert-parallel-comm --recompute-granularity full --recompute-method uniform --recompute-num-layers 1
#                                                                                                                                                ^^^^^^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: disable full recomputation when enabling overlap_moe_expert_
#                                                                                                                                                                             ^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: disable recomputation method when enabling overlap_moe_exper
#                                                                                                                                                                                                        ^^^^^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: recompute_num_layers must be None when enabling overlap_moe
