#: name: overlap-config-invalid: --overlap-param-gather-with-optimizer-step with --data-parallel-sharding-strategy optim_grads_params runs at 0.12 without --overlap-param-gather, which the argument checks turn on first (training/arguments.py@core_v0.12.0:495-497,530-534)
#: settings: {"targetVersions": {"megatron-core": "0.12.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --pipeline-model-parallel-size 2 --num-layers-per-virtual-pipeline-stage 4 --use-distributed-optimizer --data-parallel-sharding-strategy optim_grads_params --overlap-param-gather-with-optimizer-step --ckpt-format torch \
    --micro-batch-size 1 --global-batch-size 8 --bf16
