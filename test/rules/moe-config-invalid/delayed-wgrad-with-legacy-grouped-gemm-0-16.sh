#: name: moe-config-invalid: Megatron Core 0.14 to 0.16 refuse --delay-wgrad-compute with the legacy grouped GEMM when they build the model config (transformer_config.py@core_v0.14.0:1344-1346, @core_v0.16.0:1913-1915)
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --num-experts 8 --expert-model-parallel-size 2 --moe-token-dispatcher-type alltoall --disable-bias-linear --moe-grouped-gemm --moe-use-legacy-grouped-gemm --overlap-moe-expert-parallel-comm --delay-wgrad-compute
#                                                                                                                                ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: delay_wgrad_compute is not supported with legacy groupedgemm
#                                                                                                                                ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ information[deprecated-key]: is deprecated since Megatron-LM 0.11.0
