#: name: global-batch-not-divisible: from 0.18.0 the eval batch defaults to the global batch and must divide by eval MBS × DP before the calculator lowers anything (arguments.py@core_v0.18.0:705-712): --decrease-batch-size-if-needed does not save GBS 60 on DP 8
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 4096 --max-position-embeddings 4096 \
    --tensor-model-parallel-size 1 --bf16 --overlap-grad-reduce --use-distributed-optimizer --overlap-param-gather \
    --micro-batch-size 1 --global-batch-size 60 --decrease-batch-size-if-needed
#                                            ^^ error[global-batch-not-divisible]: eval_global_batch_size (60) must be divisible
