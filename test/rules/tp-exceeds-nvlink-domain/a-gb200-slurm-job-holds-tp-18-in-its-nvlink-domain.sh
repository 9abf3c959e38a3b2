#: name: tp-exceeds-nvlink-domain: a job that asks for GB200 (`--gpus-per-node=gb200:4`) runs in a 72-GPU NVLink domain: TP 18 over nine 4-GPU nodes stays inside it
#: path: train.sh
#!/bin/bash
#SBATCH --nodes=9
#SBATCH --ntasks-per-node=1
#SBATCH --gpus-per-node=gb200:4
# shardwise-disable tp-larger-than-needed -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
srun torchrun --nproc_per_node 4 --nnodes 9 pretrain_gpt.py \
    --tensor-model-parallel-size 18 \
    --sequence-parallel --tp-comm-overlap \
    --num-layers 4 --hidden-size 4608 --num-attention-heads 36 \
    --seq-length 2048 --max-position-embeddings 2048 \
    --micro-batch-size 1 --global-batch-size 8 \
    --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --bf16
