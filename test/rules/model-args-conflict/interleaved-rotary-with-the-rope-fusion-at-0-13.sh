#: name: model-args-conflict: interleaved rotary embeddings beside the RoPE fusion, on by default, stop Megatron-LM (training/arguments.py@core_v0.13.0:915-916, from core_v0.5.0)
#: settings: {"targetVersions": {"megatron-core": "0.13.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --position-embedding-type rope --rotary-interleaved
#                                  ^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: --rotary-interleaved does not work with rope_fusion
