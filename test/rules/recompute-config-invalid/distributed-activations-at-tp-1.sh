#: name: recompute-config-invalid: distributing the saved activations needs TP > 1 (megatron/arguments.py@core_v0.4.0:312-315, training/arguments.py@d98e8a6:1410-1413)
#: settings: {"targetVersions": {"megatron-core": "0.4.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 \
    --distribute-saved-activations --recompute-granularity full --recompute-method uniform --recompute-num-layers 1
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[recompute-config-invalid]: can distribute recomputed activations only across 
