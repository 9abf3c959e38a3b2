#: name: unread-key: from 0.18.0 the only file naming output_bert_embeddings is tools/bert_embedding/embed.py, which imports pretrain_bert (embed.py@core_v0.18.0:21), removed with the legacy BERT model (megatron/legacy/model/bert_model.py@core_v0.17.0:149 was the reader): a note from 0.18.0
#: path: train.sh
#!/bin/bash
# shardwise: megatron_core=0.18.0
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 \
    --micro-batch-size 1 --global-batch-size 8 \
    --output-bert-embeddings
#   ^^^^^^^^^^^^^^^^^^^^^^^^ information[unread-key]: (from 0.18.0 on)
