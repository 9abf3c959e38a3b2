#: name: model-args-conflict: a YaRN rope type without multi-latent attention is refused by the config builder (training/arguments.py@core_v0.14.0:1190-1194, argument_utils.py@d98e8a6:338-341)
#: settings: {"targetVersions": {"megatron-core": "0.14.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --position-embedding-type rope --rope-type yarn
#                                  ^^^^^^^^^^^ error[model-args-conflict]: Common attention only support rope_type=\
