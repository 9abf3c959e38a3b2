#: name: overlap-param-gather-requires-distributed-optimizer: the optim_grads_params strategy turns --overlap-param-gather on in validate_args (training/arguments.py@core_v0.13.0:587-589), then the distributed optimizer is asserted (:594-596)
#: settings: {"targetVersions": {"megatron-core": "0.13.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 \
    --tensor-model-parallel-size 1 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce \
    --data-parallel-sharding-strategy optim_grads_params
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[overlap-param-gather-requires-distributed-optimizer]: turns `--overlap-param-gather` on before the check
