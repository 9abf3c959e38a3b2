#: name: rl-config-invalid: at core_v0.17.0 the deprecated task count becomes a number of parallel generations, which excludes a batch count (training/arguments.py@core_v0.17.0:409-424)
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 /opt/megatron-lm/train_rl.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 --bf16 \
    --perform-rl-step --micro-batch-size 1 --global-batch-size 64 --rl-partial-rollouts \
    --rl-parallel-generation-tasks 8 --rl-num-parallel-generation-batches 2
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ information[deprecated-key]
#                                    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[rl-config-invalid]: are mutually exclusive
