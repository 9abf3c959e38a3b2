#: name: pipeline-config-invalid: deferring the embedding weight gradient needs gradient-accumulation fusion (model_parallel_config.py@core_v0.6.0:281-284, @d98e8a6:550-553)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --pipeline-model-parallel-size 2 --defer-embedding-wgrad-compute --no-gradient-accumulation-fusion
#                                                                    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[pipeline-config-invalid]: when gradient accumulation fusion is not used
