#: name: version-unsupported-key: --cuda-graph-scope mlp is refused by 0.15 (choices full, attn, full_iteration: arguments.py@core_v0.15.0:1411-1412) and accepted from 0.16, whose type lambda looks the word up in CudaGraphScope (arguments.py@core_v0.16.0:1430, enums.py@core_v0.16.0:70-79)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
# shardwise-disable missing-overlap-grad-reduce -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 \
    --cuda-graph-impl local --cuda-graph-scope mlp
#                                              ^^^ error[version-unsupported-key]: arrived in Megatron-LM 0.16.0
