#: name: unread-key: from 0.17.0 no training code reads --vocab-extra-ids (the tokenizer builder of megatron/core/tokenizers/utils/build_tokenizer.py@core_v0.17.0 takes other arguments); the preprocessing tools only set the attribute (tools/preprocess_data.py@core_v0.17.0, `args.vocab_extra_ids = 0`), and a write is no read: a note at 0.17, silence at 0.16, whose tokenizer.py@core_v0.16.0:30 reads it
#: path: train.sh
#!/bin/bash
# shardwise: megatron_core=0.17.0
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_t5.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 \
    --micro-batch-size 1 --global-batch-size 8 \
    --vocab-extra-ids 100
#   ^^^^^^^^^^^^^^^^^ information[unread-key]: (from 0.17.0 on)
