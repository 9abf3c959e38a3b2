python3 -m torch.distributed.launch --nproc_per_node=4 --use_env pretrain_bert.py --num-layers 12
