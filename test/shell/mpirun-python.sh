mpirun -np 16 -x NCCL_DEBUG=INFO --bind-to none python pretrain_gpt.py --tensor-model-parallel-size 2
