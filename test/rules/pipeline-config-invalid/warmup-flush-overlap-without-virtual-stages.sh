#: name: pipeline-config-invalid: Megatron-LM turns the p2p overlap off without virtual stages, and ModelParallelConfig then refuses the warm-up/flush overlap (model_parallel_config.py@core_v0.10.0:382-387; training/arguments.py@core_v0.10.0:353-357)
#: settings: {"targetVersions": {"megatron-core": "0.10.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 \
    --pipeline-model-parallel-size 2 --overlap-p2p-communication-warmup-flush
#                                    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[pipeline-config-invalid]: without virtual pipeline stages
