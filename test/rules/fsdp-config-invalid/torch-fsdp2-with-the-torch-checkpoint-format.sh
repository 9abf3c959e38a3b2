#: name: fsdp-config-invalid: PyTorch FSDP2 with --ckpt-format torch stops Megatron-LM (training/arguments.py@d98e8a6:1042-1043, from core_v0.10.0)
#: path: train.sh
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=8
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --use-torch-fsdp2 --untie-embeddings-and-output-weights --no-gradient-accumulation-fusion --ckpt-format torch \
#                                                                                             ^^^^^^^^^^^^^ error[fsdp-config-invalid]
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce
