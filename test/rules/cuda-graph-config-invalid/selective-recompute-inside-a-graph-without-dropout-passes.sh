#: name: cuda-graph-config-invalid: the same selective recomputation inside a local whole-layer graph passes with attention dropout 0, and so does graphing only the MLP while the attention core is recomputed (transformer_config.py@core_v0.19.0:2540-2552)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --cuda-graph-impl local --attention-dropout 0.0 \
    --recompute-activations
