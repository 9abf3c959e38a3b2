#: name: moe-config-invalid: --moe-extended-tp refuses a dispatcher other than allgather and an FFN size TP x EP does not divide (transformer_config.py@core_v0.8.0:432-440)
#: settings: {"targetVersions": {"megatron-core": "0.8.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 5 --disable-bias-linear \
    --num-experts 4 --expert-model-parallel-size 2 --moe-token-dispatcher-type alltoall --moe-extended-tp --ffn-hidden-size 129
#                                                                                       ^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: only applies to allgather based token dispatcher
#                                                                                       ^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: must be divisible by extended_tp_size
