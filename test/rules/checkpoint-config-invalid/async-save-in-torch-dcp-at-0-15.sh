#: name: checkpoint-config-invalid: before Megatron Core 0.17, async save in torch_dcp stops at the first save (training/checkpointing.py@core_v0.12.0, @core_v0.16.0:578)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=8
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --save /ckpt --save-interval 100 --async-save --ckpt-format torch_dcp --use-torch-fsdp2 --untie-embeddings-and-output-weights --no-gradient-accumulation-fusion
#                                    ^^^^^^^^^^^^ error[checkpoint-config-invalid]: not implemented for torch_dcp distributed checkpoint format
