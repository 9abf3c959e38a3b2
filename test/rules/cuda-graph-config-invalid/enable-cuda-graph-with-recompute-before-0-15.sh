#: name: cuda-graph-config-invalid: before Megatron Core 0.15 --enable-cuda-graph refuses any activation recomputation (transformer_config.py@core_v0.11.0:822-826, @core_v0.14.0:1267-1271)
#: settings: {"targetVersions": {"megatron-core": "0.13.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --recompute-activations \
    --enable-cuda-graph
#   ^^^^^^^^^^^^^^^^^^^ error[cuda-graph-config-invalid]: CUDA graphs not supported with activation recomputation
