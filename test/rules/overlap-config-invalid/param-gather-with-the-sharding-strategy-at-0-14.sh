#: name: overlap-config-invalid: --overlap-param-gather without --overlap-grad-reduce stops Megatron-LM 0.14 whatever the sharding strategy: its argument checks no longer turn the overlap on (training/arguments.py@core_v0.14.0)
#: settings: {"targetVersions": {"megatron-core": "0.14.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
^^^^^^^^ information[missing-overlap-grad-reduce]
    --num-layers 32 --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --use-distributed-optimizer --data-parallel-sharding-strategy optim_grads_params --overlap-param-gather \
#                                                                                    ^^^^^^^^^^^^^^^^^^^^^^ error[overlap-config-invalid]
    --micro-batch-size 1 --global-batch-size 8 --bf16
