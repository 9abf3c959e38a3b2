#: name: fsdp-config-invalid: gradient accumulation fusion is on unless --no-gradient-accumulation-fusion is given, and validate_args asserts it off under PyTorch FSDP2 (megatron/training/arguments.py@core_v0.10.0:381-382, @core_v0.19.0:1006-1007, @d98e8a6:1040-1041)
#: path: train.sh
#: settings: {"targetVersions": {"megatron-core": "0.10.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 \
    --bf16 --use-torch-fsdp2 --untie-embeddings-and-output-weights \
#          ^^^^^^^^^^^^^^^^^ error[fsdp-config-invalid]: not supported with gradient accumulation fusion
    --micro-batch-size 1 --global-batch-size 8 --ckpt-format torch_dist --overlap-grad-reduce --train-iters 10 --lr 1e-4
