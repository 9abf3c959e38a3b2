#: name: recompute-config-invalid: before Megatron-LM 0.16 there is no --cpu-offloading-num-layers (training/arguments.py@core_v0.15.0 has none), so argparse refuses the flag and the offloading checks do not apply
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 2 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 \
    --cpu-offloading-num-layers 2 --pipeline-model-parallel-size 2
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[version-unsupported-key]
