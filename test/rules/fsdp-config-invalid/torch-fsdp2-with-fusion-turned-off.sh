#: name: fsdp-config-invalid: PyTorch FSDP2 with --no-gradient-accumulation-fusion passes the assertion (arguments.py@d98e8a6:1040-1041)
#: path: train.sh
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=8
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 \
    --bf16 --use-torch-fsdp2 --untie-embeddings-and-output-weights --no-gradient-accumulation-fusion \
    --micro-batch-size 1 --global-batch-size 8 --ckpt-format torch_dist --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000
