#: name: overlap-param-gather-requires-distributed-optimizer: PyTorch FSDP2 is not Megatron FSDP: the check accepts only the distributed optimizer or --use-megatron-fsdp (megatron/training/arguments.py@core_v0.15.0:625-627), so --use-torch-fsdp2 with the overlap stops
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=8
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 \
    --tensor-model-parallel-size 1 --bf16 --use-torch-fsdp2 --no-gradient-accumulation-fusion --untie-embeddings-and-output-weights \
    --micro-batch-size 1 --global-batch-size 8 --ckpt-format torch_dist \
    --overlap-grad-reduce --overlap-param-gather
#                         ^^^^^^^^^^^^^^^^^^^^^^ error[overlap-param-gather-requires-distributed-optimizer]: PyTorch FSDP2 (`--use-torch-fsdp2`) is neither
