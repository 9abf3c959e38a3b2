#: name: model-args-conflict: at core_v0.10.0 there is no --attention-backend: version-unsupported-key reports the flag, this rule says nothing
#: settings: {"targetVersions": {"megatron-core": "0.10.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --attention-backend local \
#   ^^^^^^^^^^^^^^^^^^^ error[version-unsupported-key]
    --overlap-grad-reduce --micro-batch-size 1 --global-batch-size 8 --bf16
