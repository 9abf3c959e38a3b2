#: name: world-size-mismatch: `eval $cmd` joins the words of the value with spaces and reads them as one command line, so a word that starts with `#` comments out the rest: the TP 3 after it never reaches Megatron-LM, and TP 2 fits 8 GPUs
#!/bin/bash
# shardwise-disable missing-tp-comm-overlap tp-larger-than-needed -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
cmd="torchrun --nproc_per_node 8 pretrain_gpt.py \
       --tensor-model-parallel-size 2 --sequence-parallel \
       --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \
       --micro-batch-size 1 --global-batch-size 64 --seq-length 4096 --max-position-embeddings 4096 \
       --bf16 --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
       #--recompute-activations \
       --tensor-model-parallel-size 3"
eval $cmd
