#: name: cuda-graph-config-invalid: before 0.12 `--external-cuda-graph` does not exist (argparse refuses it) and nothing checks the pair (transformer_layer.py@core_v0.11.0 has no such assertion)
#: settings: {"targetVersions": {"megatron-core": "0.11.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 \
    --enable-cuda-graph --external-cuda-graph
#                       ^^^^^^^^^^^^^^^^^^^^^ error[version-unsupported-key]: arrived in Megatron-LM 0.12.0
