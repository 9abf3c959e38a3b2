#: name: fp8-config-invalid: with FP8, the BF16 layers at the start must fit in a pipeline stage (transformer_config.py@core_v0.12.0:586-608, @d98e8a6:1533-1555)
#: settings: {"targetVersions": {"megatron-core": "0.12.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 \
    --fp8-format hybrid --fp8-recipe tensorwise --first-last-layers-bf16 --num-layers-at-start-in-bf16 3
#                                                                        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[fp8-config-invalid]: must be between 0 and number of layers per pipeline stage (2)
