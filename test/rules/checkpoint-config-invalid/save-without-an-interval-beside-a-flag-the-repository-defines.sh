#: name: checkpoint-config-invalid: --save without --save-interval beside a flag no release defines but a parser of the repository does: that parser extends upstream's, nothing shows another Megatron-LM, so the check (megatron/arguments.py@core_v0.4.0:283-284) stays an error
#: path: train.sh
#: repository: files
#: settings: {"targetVersions": {"megatron-core": "0.4.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --lr 1e-4 --train-iters 1000 \
    --save /ckpt \
#   ^^^^^^ error[checkpoint-config-invalid]: `--save` without `--save-interval`: Mega
    --use-z-loss
