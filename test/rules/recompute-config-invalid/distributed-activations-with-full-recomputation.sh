#: name: recompute-config-invalid: distributed saved activations with TP 2 and full uniform recomputation run
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 \
    --tensor-model-parallel-size 2 --distribute-saved-activations --recompute-granularity full --recompute-method uniform --recompute-num-layers 1
#                                ^ information[tp-without-sequence-parallel]
