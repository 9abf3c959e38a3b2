#: name: parse-error: an in-file directive that names no setting (`target=`), a release that is not a version, or a count that is not a whole number is said at the directive instead of being dropped, so the file is not silently checked against a default
#!/bin/bash
# shardwise: target=0.15.0 megatron_core=latest world_size=8x
#            ^^^^^^^^^^^^^ warning[parse-error]: names no setting Shardwise knows
#                          ^^^^^^^^^^^^^^^^^^^^ warning[parse-error]: is not a release number
#                                               ^^^^^^^^^^^^^ warning[parse-error]: is not a positive whole number
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 4 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 512 --max-position-embeddings 512 --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce
