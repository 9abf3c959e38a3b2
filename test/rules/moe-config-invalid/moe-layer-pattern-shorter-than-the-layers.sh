#: name: moe-config-invalid: a --moe-layer-freq pattern must give one entry per layer (models/gpt/gpt_layer_specs.py@core_v0.10.0:326-331, training/training.py@core_v0.12.0:219-224, @d98e8a6:1031-1036)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --disable-bias-linear \
    --num-experts 4 --expert-model-parallel-size 2 --moe-token-dispatcher-type alltoall --moe-layer-freq '([0]*1+[1]*2)'
#                                                                                       ^^^^^^^^^^^^^^^^ error[moe-config-invalid]: Invalid length of moe_layer_pattern: 3, expected 4
