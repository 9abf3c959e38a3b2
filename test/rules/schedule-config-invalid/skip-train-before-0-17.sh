#: name: schedule-config-invalid: before Megatron Core 0.17 the schedule checks run with `--skip-train` too (arguments.py@core_v0.16.0:756)
#: path: eval.sh
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --seq-length 2048 --max-position-embeddings 2048 --bf16 \
    --micro-batch-size 1 --global-batch-size 256 --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --train-iters 50000 --lr-decay-samples 900000 --skip-train
#                       ^^^^^^^^^^^^^^^^^^ error[schedule-config-invalid]: `--lr-decay-samples` with iteration-based training
