#: name: overlap-config-invalid: the default checkpoint format torch_dist is a distributed one (training/arguments.py@d98e8a6:1073-1074, utils/common_utils.py@d98e8a6:580-581)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --pipeline-model-parallel-size 2 --num-virtual-stages-per-pipeline-rank 2 --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather --overlap-param-gather-with-optimizer-step \
#                                                                                                                                                      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[overlap-config-invalid]
    --micro-batch-size 1 --global-batch-size 8 --bf16
