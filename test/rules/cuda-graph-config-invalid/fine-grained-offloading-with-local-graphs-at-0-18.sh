#: name: cuda-graph-config-invalid: at 0.18 fine-grained offloading refuses local per-layer graphs and 0 warm-up steps (transformer_config.py@core_v0.18.0:2351-2363)
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --fine-grained-activation-offloading --offload-modules core_attn --cuda-graph-impl local --cuda-graph-warmup-steps 0
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[cuda-graph-config-invalid]: `--fine-grained-activation-offloading` with `--cuda-graph-im
#                                                                                            ^^^^^^^^^^^^^^^^^^^^^^^^^ error[cuda-graph-config-invalid]: `--cuda-graph-warmup-steps 0` with `--fine-grained-activatio
