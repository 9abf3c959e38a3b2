#: name: tp-exceeds-nvlink-domain: a Kubernetes job of the repository that does not run the script asks for H200 nodes: the hardware is assumed to be h200, and the finding says so
#: path: /project/train.sh
#!/bin/bash
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1
export CUDA_DEVICE_MAX_CONNECTIONS=1
srun torchrun --nproc_per_node 8 --nnodes 2 pretrain_gpt.py \
    --tensor-model-parallel-size 16 \
#                                ^^ warning[tp-exceeds-nvlink-domain]: This assumes `h200` hardware: the GPUs k8s/job.yaml asks for
    --sequence-parallel --tp-comm-overlap \
    --num-layers 4 --hidden-size 4096 --num-attention-heads 32 \
    --seq-length 2048 --max-position-embeddings 2048 \
    --micro-batch-size 1 --global-batch-size 8 \
    --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --bf16
