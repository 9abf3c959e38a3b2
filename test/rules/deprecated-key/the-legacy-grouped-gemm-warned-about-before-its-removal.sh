#: name: deprecated-key: Megatron Core 0.11-0.16 warn when they build the MoE layers that the legacy GroupedMLP is to be deprecated (megatron/core/models/gpt/moe_module_specs.py@core_v0.11.0:55, megatron/core/models/backends.py@core_v0.16.0:123), before 0.17.0 removes --moe-use-legacy-grouped-gemm: a note at 0.12.0, whose removal is not a safe fix
#: settings: {"targetVersions": {"megatron-core": "0.12.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 \
    --micro-batch-size 1 --global-batch-size 8 \
    --num-experts 8 --expert-model-parallel-size 8 --moe-grouped-gemm --bf16 \
    --moe-use-legacy-grouped-gemm --disable-bias-linear
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ information[deprecated-key]: is deprecated since Megatron-LM 0.11.0
