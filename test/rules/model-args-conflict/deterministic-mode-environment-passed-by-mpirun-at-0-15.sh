#: name: model-args-conflict: a variable the script hands the processes another way (mpirun -x) is not taken for missing
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
mpirun -np 8 -x NCCL_ALGO=Ring -x NVTE_ALLOW_NONDETERMINISTIC_ALGO=0 -x CUDA_DEVICE_MAX_CONNECTIONS python pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --deterministic-mode
