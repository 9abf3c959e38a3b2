#: name: recompute-config-invalid: --cpu-offloading-num-layers above 0 turns CPU offloading on (training/arguments.py@core_v0.16.0:1236-1237), which TransformerConfig refuses with PP > 1 (transformer_config.py@core_v0.16.0:1144-1147)
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 2 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --cpu-offloading-num-layers 2 --pipeline-model-parallel-size 2
#                                 ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[recompute-config-invalid]: no support for Pipeline parallelism with CPU offloading
