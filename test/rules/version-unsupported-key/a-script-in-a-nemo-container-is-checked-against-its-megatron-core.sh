#: name: version-unsupported-key: a Slurm script that runs in `nvcr.io/nvidia/nemo:24.07` (Megatron Core 0.8.0) passes a flag 0.10.0 added: a warning that names the image (the container's release is assumed to be the Megatron-LM that parses the flags)
#: path: /project/train.sh
#!/bin/bash
#SBATCH --nodes=1
# shardwise-disable missing-overlap-grad-reduce -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
srun --container-image=nvcr.io#nvidia/nemo:24.07 torchrun --nproc_per_node 8 /opt/megatron-lm/pretrain_gpt.py \
    --num-layers 2 --hidden-size 256 --num-attention-heads 4 \
    --seq-length 1024 --max-position-embeddings 1024 \
    --micro-batch-size 1 --global-batch-size 8 \
    --expert-tensor-parallel-size 1 \
    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[version-unsupported-key]: the targeted 0.8.0 (the container image: nvcr.io#nvidia/nemo:24.07: megatron-core==0.8.0)
    --bf16
