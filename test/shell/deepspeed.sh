deepspeed --num_gpus 8 --num_nodes 2 --hostfile hostfile pretrain_gpt.py --deepspeed --deepspeed_config ds_config.json --zero-stage 1
