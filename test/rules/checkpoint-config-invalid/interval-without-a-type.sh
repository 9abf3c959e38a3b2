#: name: checkpoint-config-invalid: the first non-persistent save without a type stops the run (training.py@core_v0.9.0:1372-1376, checkpointing.py@core_v0.9.0:352-353; the type defaults to None, arguments.py@core_v0.9.0:1381)
#: settings: {"targetVersions": {"megatron-core": "0.9.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --lr 1e-4 \
    --train-iters 1000 --save /ckpt --save-interval 300 --non-persistent-save-interval 100
#                                                       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[checkpoint-config-invalid]: at iteration 100
