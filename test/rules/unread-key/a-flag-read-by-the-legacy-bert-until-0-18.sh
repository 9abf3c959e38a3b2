#: name: unread-key: at 0.17.1 the legacy BERT model still reads output_bert_embeddings (megatron/legacy/model/bert_model.py@core_v0.17.0:149): nothing
#: path: train.sh
#!/bin/bash
# shardwise: megatron_core=0.17.1
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 \
    --micro-batch-size 1 --global-batch-size 8 \
    --output-bert-embeddings
