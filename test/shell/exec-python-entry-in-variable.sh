CUDA_VISIBLE_DEVICES=0 exec python ${MEGATRON_PATH}/pretrain_mamba.py --hidden-size 1024
