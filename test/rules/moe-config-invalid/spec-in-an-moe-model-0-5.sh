#: name: moe-config-invalid: Megatron-LM 0.4 and 0.5 refuse a --spec in an MoE model too (megatron/arguments.py@core_v0.5.0:402-403)
#: settings: {"targetVersions": {"megatron-core": "0.5.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --disable-bias-linear \
    --num-experts 4 --expert-model-parallel-size 2 --spec megatron.core.models.gpt.gpt_layer_specs get_gpt_layer_local_spec
#                                                  ^^^^^^ error[moe-config-invalid]: Model Spec must be None when using MoEs
