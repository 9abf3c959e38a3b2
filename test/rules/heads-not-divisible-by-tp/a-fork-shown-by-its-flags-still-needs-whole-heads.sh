#: name: heads-not-divisible-by-tp: a launch whose flags no release defines (--use-mpi, --use-z-loss) runs a fork, which splits the heads over TP as upstream does (the arithmetic forks share): still an error, while upstream's own argument checks become warnings that name the assumption
#: settings: {"targetVersions": {"megatron-core": "0.4.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 96 --num-attention-heads 6 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --tensor-model-parallel-size 4 --sequence-parallel --overlap-grad-reduce \
#                                ^ error[heads-not-divisible-by-tp]: 6 attention heads, not a multiple of TP 4
#                                ^ information[tp-larger-than-needed]
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 \
    --use-mpi --use-z-loss
#   ^^^^^^^^^ warning[unknown-key]: are not upstream flags
