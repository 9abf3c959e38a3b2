#: name: missing-cuda-device-max-connections: the variable is given to the processes another way (a Ray runtime environment): nothing to say
#: path: /project/examples/run_tp2.sh
#!/bin/bash
# shardwise: hardware=h100-sxm
# shardwise-disable missing-overlap-grad-reduce, tp-without-sequence-parallel -- not what this case is about
RUNTIME_ENV_JSON='{"env_vars": {"CUDA_DEVICE_MAX_CONNECTIONS": "1"}}'
ray job submit --runtime-env-json="${RUNTIME_ENV_JSON}" -- torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \
    --tensor-model-parallel-size 2 \
    --micro-batch-size 1 --global-batch-size 8 \
    --bf16
