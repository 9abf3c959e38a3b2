#: name: expert-grid-mismatch: from Megatron Core 0.19.0 the expert grid is expert TP × EP × PP × (expert weight shards / expert TP) (megatron/core/parallel_state.py@core_v0.19.0:873-884): 4 expert weight shards at expert TP 1 × EP 4 × PP 2 need 32 GPUs, not 16
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
# shardwise-disable missing-tp-comm-overlap -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nnodes 2 --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \
    --seq-length 4096 --max-position-embeddings 4096 \
    --tensor-model-parallel-size 2 --pipeline-model-parallel-size 2 --sequence-parallel --num-experts 8 --expert-model-parallel-size 4 --expert-tensor-parallel-size 1 --expert-tensor-parallel-num-weight-shards 4 --bf16 \
#                                                                                                                                                                    ^ error[expert-grid-mismatch]: × 4 (4 expert weight shards / expert TP 1) = 32
    --micro-batch-size 1 --global-batch-size 64
