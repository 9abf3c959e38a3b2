#: name: overlap-config-invalid: --overlap-param-gather-with-optimizer-step without --overlap-param-gather stops Megatron-LM 0.14 whatever the sharding strategy (training/arguments.py@core_v0.14.0)
#: settings: {"targetVersions": {"megatron-core": "0.14.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
^^^^^^^^ information[missing-overlap-grad-reduce]
    --num-layers 32 --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --pipeline-model-parallel-size 2 --num-layers-per-virtual-pipeline-stage 4 --use-distributed-optimizer --data-parallel-sharding-strategy optim_grads_params --overlap-param-gather-with-optimizer-step --ckpt-format torch \
#                                                                              ^^^^^^^^^^^^^^^^^^^^^^^^^^^ information[missing-overlap-param-gather]
#                                                                                                                                                               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[overlap-config-invalid]
    --micro-batch-size 1 --global-batch-size 8 --bf16
