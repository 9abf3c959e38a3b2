#: name: fp8-config-invalid: a TE precision file beside a Kitchen recipe sets the quantization recipe twice (training/arguments.py@core_v0.16.0:1371-1383)
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --kitchen-recipe-number 1 --te-precision-config-file precision.yaml
#   ^^^^^^^^^^^^^^^^^^^^^^^ warning[fp8-config-invalid]
#                             ^^^^^^^^^^^^^^^^^^^^^^^^^^ error[fp8-config-invalid]: `--te-precision-config-file` with `--kitchen-recipe-number`:
