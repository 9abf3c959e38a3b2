#: name: unread-key: 0.17.x still defines --inference-dynamic-batching-cuda-graph-max-tokens (megatron/training/arguments.py@core_v0.17.0) but nothing reads it (the dynamic context lists cuda_graph_max_tokens in DEPRECATED_ARGS and derives it from max_requests: core/inference/contexts/dynamic_context.py@core_v0.17.0:88, :568) before 0.18.0 removes it; --no-scatter-gather-tensors-in-pipeline stores an attribute no release reads (arguments.py@core_v0.17.1:2704-2706): notes
#: path: train.sh
#: settings: {"targetVersions": {"megatron-core": "0.17.1"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 \
    --micro-batch-size 1 --global-batch-size 8 \
    --inference-dynamic-batching-cuda-graph-max-tokens 4096 \
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ information[unread-key]: (from 0.17.0 until 0.18.0, which deprecates or removes it)
    --no-scatter-gather-tensors-in-pipeline
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ information[unread-key]: (in any release that has it)
