#: name: fsdp-config-invalid: the weight-hash check under full sharding stops Megatron-LM under --use-custom-fsdp too (training/arguments.py@core_v0.13.0:655-657)
#: path: train.sh
#: settings: {"targetVersions": {"megatron-core": "0.13.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=8
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --use-custom-fsdp --use-distributed-optimizer --no-gradient-accumulation-fusion --data-parallel-sharding-strategy optim_grads_params --check-weight-hash-across-dp-replicas-interval 100 \
#                                                                                                                                        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[fsdp-config-invalid]: check_weight_hash_across_dp_replicas_interval is not supported with optim_grads_params
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce
