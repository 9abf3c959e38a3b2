#: name: cuda-graph-config-invalid: from core_v0.16.0 `--cuda-graph-scope full` must stand alone (training/arguments.py@core_v0.16.0:1255-1260, transformer_config.py@core_v0.16.0:1700-1705)
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --cuda-graph-impl local --cuda-graph-scope full attn \
#                           ^^^^^^^^^^^^^^^^^^ error[cuda-graph-config-invalid]: full scope cannot be used with other scopes
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce
