#: name: tp-exceeds-nvlink-domain: the SkyPilot task that runs the script (`run: bash train.sh`) asks for `B200:8`: the hardware is known, and TP 16 leaves the 8-GPU domain of b200
#: path: /project/train.sh
#!/bin/bash
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1
export CUDA_DEVICE_MAX_CONNECTIONS=1
srun torchrun --nproc_per_node 8 --nnodes 2 pretrain_gpt.py \
    --tensor-model-parallel-size 16 \
#                                ^^ warning[tp-exceeds-nvlink-domain]: TP 16 > NVLink domain 8 of b200: every TP
    --sequence-parallel --tp-comm-overlap \
    --num-layers 4 --hidden-size 4096 --num-attention-heads 32 \
    --seq-length 2048 --max-position-embeddings 2048 \
    --micro-batch-size 1 --global-batch-size 8 \
    --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --bf16
