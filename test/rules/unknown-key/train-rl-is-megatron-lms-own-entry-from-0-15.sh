#: name: unknown-key: Megatron-LM ships train_rl.py from core_v0.15.0 (its root at that tag) and its parser adds the inference flags only from core_v0.17.0 (train_rl.py@core_v0.17.0 passes extra_args_provider=add_inference_args; @core_v0.15.0 passes none), so at 0.15.0 --num-tokens-to-generate and a slip stop argparse
#: path: rl.sh
#!/bin/bash
# shardwise: megatron_core=0.15.0
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 /opt/megatron-lm/train_rl.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 \
    --micro-batch-size 1 --global-batch-size 8 --perform-rl-step \
    --num-tokens-to-generate 64 \
#   ^^^^^^^^^^^^^^^^^^^^^^^^ error[unknown-key]: adds this flag to Megatron-LM's parser only from Megatron Core 0.17.0
    --grpo-group-sise 4
#   ^^^^^^^^^^^^^^^^^ error[unknown-key]: not a known flag
