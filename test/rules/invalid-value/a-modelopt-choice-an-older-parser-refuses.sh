#: name: invalid-value: the ModelOpt parser checks --export-quant-cfg against a fixed list up to 0.15.x (megatron/post_training/arguments.py@core_v0.13.0 choices=[int8_sq, fp8, …, nvfp4, None], no fp4); 0.16.0 drops the list (@core_v0.16.0 takes any name of mtq.config.choices), so fp4 stops argparse at 0.13.0 and runs at 0.16.0
#: path: quant.sh
#!/bin/bash
# shardwise: megatron_core=0.13.0
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 \
    --micro-batch-size 1 --global-batch-size 8 \
    --export-quant-cfg fp4
#                      ^^^ error[invalid-value]: its parser at those releases accepts only these choices
