#: name: invalid-value: --exit-signal converts the word with signal.Signals[word] and checks the member against list(Signals) (argument_utils.py@core_v0.16.0:85-95): an alias such as SIGIOT finds SIGABRT and passes, a name Signals lacks stops at parse time
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
# shardwise-disable missing-overlap-grad-reduce -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 \
    --exit-signal-handler --exit-signal SIGIOT
---
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
# shardwise-disable missing-overlap-grad-reduce -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 \
    --exit-signal-handler --exit-signal SIGPOLL
---
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
# shardwise-disable missing-overlap-grad-reduce -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 \
    --exit-signal-handler --exit-signal SIGTERMINATE
#                                       ^^^^^^^^^^^^ error[invalid-value]: not `SIGTERMINATE`
