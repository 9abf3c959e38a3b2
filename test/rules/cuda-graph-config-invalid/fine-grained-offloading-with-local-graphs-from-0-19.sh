#: name: cuda-graph-config-invalid: from 0.19 local graphs still refuse fine-grained offloading of modules other than expert_fc1, moe_act and fused_group_mlp (transformer_config.py@core_v0.19.0:2598-2606)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --fine-grained-activation-offloading --offload-modules core_attn --cuda-graph-impl local --cuda-graph-modules attn
#                                        ^^^^^^^^^^^^^^^^^ error[cuda-graph-config-invalid]: only supports offload_modules
