#: name: launch script whose node count comes from Slurm: no layout arithmetic, but the argument checks still run
#: path: train.sh
#!/bin/bash
# shardwise: hardware=h100-sxm
# The node count comes from Slurm: the world size is not known here, so no layout arithmetic.
python -m torch.distributed.run --nproc_per_node 8 --nnodes $SLURM_NNODES pretrain_gpt.py \
    --tensor-model-parallel-size 8 --pipeline-model-parallel-size 3 --sequence-parallel --tp-comm-overlap \
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[missing-cuda-device-max-connections]: without `CUDA_DEVICE_MAX_CONNECTIONS=1`
    --recompute-granularity full
#   ^^^^^^^^^^^^^^^^^^^^^^^ error[recompute-config-invalid]: needs `--recompute-method
