#: name: launch script for pretrain_gpt2.py (Megatron-LM before 2021): its flags are not judged by today's parser
#: path: ds_gpt2_test.sh
#!/bin/bash
deepspeed --num_nodes 1 --num_gpus 8 pretrain_gpt2.py \
^^^^^^^^^ information[fork-flags-not-checked]: before 2021
    --model-parallel-size 2 \
    --num-layers 24 \
    --hidden-size 1024 \
    --num-attention-heads 16 \
    --warmup 0.01 \
    --checkpoint-activations
