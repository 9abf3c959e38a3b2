#: name: world-size-mismatch: TP 8 on 12 GPUs with 16 heads written (no layers or hidden size): the smaller TP offered is 4, not 6, which Megatron's TransformerConfig refuses for 16 heads (megatron/core/transformer/transformer_config.py@core_v0.15.3:743-762)
#: path: train.sh
#: fix: world-size-mismatch Set TP to 4
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nnodes 3 --nproc_per_node 4 pretrain_gpt.py \
    --num-attention-heads 16 \
    --seq-length 4096 --max-position-embeddings 4096 \
    --tensor-model-parallel-size 8 --sequence-parallel --tp-comm-overlap \
    --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --micro-batch-size 1 --global-batch-size 48 --bf16
