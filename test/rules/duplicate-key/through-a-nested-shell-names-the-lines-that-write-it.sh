#: name: duplicate-key: a flag written in two variables that reach the command through `bash -c '… $CMD'` (the nested shell loses where each copy was written) is reported at the word with the two lines that write it; a variable expanded twice is said to be
#!/bin/bash
# shardwise-disable tp-larger-than-needed, tp-without-sequence-parallel, missing-overlap-grad-reduce, missing-cuda-device-max-connections -- not what this case is about
OPTIMIZER_ARGS=" --optimizer adam --clip-grad 1.0 "
GPT_ARGS=" --num-layers 24 --hidden-size 1024 --num-attention-heads 16 --seq-length 1024 --max-position-embeddings 1024 --micro-batch-size 1 --global-batch-size 8 --clip-grad 1.0 $OPTIMIZER_ARGS "
EXTRA=" --weight-decay 0.1 "
export CMD=" pretrain_gpt.py $GPT_ARGS $EXTRA $EXTRA --tensor-model-parallel-size 2 "
export LAUNCHER="torchrun --nproc_per_node 8"
bash -c '$LAUNCHER $CMD'
#                  ^^^^ information[duplicate-key]: `--clip-grad` is written on lines 3 and 4, and both reach the training command through this word; both give the same value
#                  ^^^^ information[duplicate-key]: `--weight-decay` reaches the training command twice (this word expands to it twice)
