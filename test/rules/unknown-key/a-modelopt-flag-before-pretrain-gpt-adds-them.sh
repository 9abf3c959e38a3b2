#: name: unknown-key: pretrain_gpt.py adds the ModelOpt flags to Megatron-LM's parser only from Megatron Core 0.13.0 (pretrain_gpt.py@core_v0.13.0 imports add_modelopt_args; @core_v0.12.0 has no extra parser), so at 0.12.0 --export-quant-cfg stops argparse ("unrecognized arguments")
#: path: train.sh
#!/bin/bash
# shardwise: megatron_core=0.12.0
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 \
    --micro-batch-size 1 --global-batch-size 8 \
    --export-quant-cfg fp8
#   ^^^^^^^^^^^^^^^^^^ error[unknown-key]: adds this flag to Megatron-LM's parser only from Megatron Core 0.13.0
