#: name: fsdp-config-invalid: Megatron-LM's validate_args asserts untied embedding and output weights under PyTorch FSDP2 (megatron/training/arguments.py@core_v0.16.0:618, from 0.10.0 to HEAD): without --untie-embeddings-and-output-weights the run stops
#: path: train.sh
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=8
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 \
    --tensor-model-parallel-size 1 --bf16 --use-torch-fsdp2 --no-gradient-accumulation-fusion \
#                                         ^^^^^^^^^^^^^^^^^ error[fsdp-config-invalid]: requires --untie-embeddings-and-output-weights
    --micro-batch-size 1 --global-batch-size 8 --ckpt-format torch_dist --overlap-grad-reduce
