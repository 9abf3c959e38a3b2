#: name: fsdp-config-invalid: from core_v0.18.0 the default sharding is optim_grads_params (training/arguments.py@core_v0.18.0:2798), which refuses the weight-hash check
#: path: train.sh
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=8
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --use-megatron-fsdp --ckpt-format fsdp_dtensor --check-weight-hash-across-dp-replicas-interval 100 \
#                                                  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[fsdp-config-invalid]
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce
