#: name: unknown-key: Megatron-LM's checkpoint merge tool (tools/merge_mp_partitions.py, removed in 5df9e1fb6d) takes Megatron's flags but merges a checkpoint in one process: not a training run, so no startup check of a run applies (no CUDA_DEVICE_MAX_CONNECTIONS warning for its TP 2), and the tool, not here, defines its own flags
#!/bin/bash
TENSOR_MODEL_PARALLEL_SIZE=2
VOCAB_FILE=bert-vocab.txt
CHECKPOINT_PATH=checkpoints/bert_345m
WORLD_SIZE=$TENSOR_MODEL_PARALLEL_SIZE python tools/merge_mp_partitions.py \
    --model-type BERT --tensor-model-parallel-size $TENSOR_MODEL_PARALLEL_SIZE \
    --tokenizer-type BertWordPieceLowerCase --vocab-file $VOCAB_FILE \
    --num-layers 24 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 512 --max-position-embeddings 512 --load $CHECKPOINT_PATH
