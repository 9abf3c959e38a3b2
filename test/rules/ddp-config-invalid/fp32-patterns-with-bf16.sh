#: name: ddp-config-invalid: fp32 local-accumulation patterns while --bf16 has validate_args turn fp32 gradient reduction on (arguments.py@core_v0.17.0:996-999; distributed_data_parallel_config.py@core_v0.17.0:213-217)
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 64 --overlap-grad-reduce \
    --ddp-param-name-patterns-for-fp32-local-accumulation router
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[ddp-config-invalid]: Only need to explicitly specify param_name patterns
