#: name: checkpoint-config-invalid: Megatron Core 0.7 saves only torch_dist asynchronously (training/checkpointing.py@core_v0.7.0:305-306)
#: settings: {"targetVersions": {"megatron-core": "0.7.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --lr 1e-4 --train-iters 1000 --eval-interval 1000 --mock-data \
    --save /ckpt --save-interval 100 --async-save --use-dist-ckpt --dist-ckpt-format zarr
#                                    ^^^^^^^^^^^^ error[checkpoint-config-invalid]: Async checkpoint save not implemented for zarr distributed checkpoint format
