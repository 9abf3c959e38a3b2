#: name: model-args-conflict: DeepSeek sparse attention without MLA under another entry script (pretrain_mamba.py builds its own layers, not the GPT builder's experimental-attention spec): nothing reported
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_mamba.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --experimental-attention-variant dsa --dsa-indexer-n-heads 4 --dsa-indexer-head-dim 16 --dsa-indexer-topk 64
