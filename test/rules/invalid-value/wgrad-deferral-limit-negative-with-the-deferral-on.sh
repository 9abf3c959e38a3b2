#: name: invalid-value: a negative --wgrad-deferral-limit with --defer-embedding-wgrad-compute is refused when the model config is built (model_parallel_config.py@core_v0.8.0:315-318, @core_v0.19.0:555-558)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --seq-length 2048 --max-position-embeddings 2048 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --pipeline-model-parallel-size 2 --defer-embedding-wgrad-compute --wgrad-deferral-limit -1
#                                                                                           ^^ error[invalid-value]: Megatron Core stops when it builds the model config ("Wgrad deferral limit should be greater than or equal to 0
