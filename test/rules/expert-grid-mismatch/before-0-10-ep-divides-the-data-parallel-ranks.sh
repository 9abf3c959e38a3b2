#: name: expert-grid-mismatch: before Megatron Core 0.10.0 EP must divide the data-parallel ranks, world / (TP × PP × CP): 8 GPUs at TP 2 × CP 2 leave 2, which EP 4 does not divide
#: settings: {"targetVersions": {"megatron-core": "0.9.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 4096 --max-position-embeddings 4096 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather --tp-comm-overlap \
    --tensor-model-parallel-size 2 --sequence-parallel --context-parallel-size 2 --num-experts 8 --expert-model-parallel-size 4
#                                                                                                                             ^ error[expert-grid-mismatch]: EP 4 does not divide the 2 data-parallel ranks
#                                ^ information[tp-larger-than-needed]: TP 2 is more than this model needs
