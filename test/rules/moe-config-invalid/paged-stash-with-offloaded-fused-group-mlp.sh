#: name: moe-config-invalid: from Megatron Core 0.19 the paged stash also refuses an offloaded fused_group_mlp (transformer_config.py@core_v0.19.0:1875)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 5 --disable-bias-linear \
    --num-experts 4 --expert-model-parallel-size 2 --moe-token-dispatcher-type flex --moe-flex-dispatcher-backend hybridep --moe-expert-rank-capacity-factor 1.5 --use-transformer-engine-op-fuser --moe-grouped-gemm --swiglu --moe-paged-stash --offload-modules fused_group_mlp
#                                                                                                                                                                                                                                                ^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: offload_modules must not include
