#: name: pipeline-config-invalid: the warm-up/flush overlap with --no-overlap-p2p-communication stops (model_parallel_config.py@d98e8a6:570-575)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --pipeline-model-parallel-size 4 --num-virtual-stages-per-pipeline-rank 2 --no-overlap-p2p-communication --overlap-p2p-communication-warmup-flush
#                                                                                                            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[pipeline-config-invalid]: with `--no-overlap-p2p-communication`
