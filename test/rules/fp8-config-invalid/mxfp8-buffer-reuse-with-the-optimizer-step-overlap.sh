#: name: fp8-config-invalid: the MXFP8 gradient-buffer reuse with the all-gather overlapped into the optimizer step stops when the optimizer config is built (optimizer_config.py@core_v0.19.0:424-428)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --use-distributed-optimizer --overlap-param-gather --fp8-format e4m3 --fp8-recipe mxfp8 --fp8-param-gather --pipeline-model-parallel-size 2 --num-virtual-stages-per-pipeline-rank 2 --ckpt-format torch --overlap-param-gather-with-optimizer-step \
    --reuse-grad-buf-for-mxfp8-param-ag
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[fp8-config-invalid]: with `--overlap-param-gather-with-optimizer-step`
