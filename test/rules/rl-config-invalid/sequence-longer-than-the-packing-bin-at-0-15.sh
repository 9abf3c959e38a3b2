#: name: rl-config-invalid: at core_v0.15.0 packed RL sequences must fit the packing bin, 8192 by default (training/arguments.py@core_v0.15.0:414-416)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 /opt/megatron-lm/train_rl.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 16384 --max-position-embeddings 16384 --bf16 \
#   ^^^^^^^^^^^^ error[rl-config-invalid]: rl_sequence_packing_bin_size should be larger than or equal to seq_length
    --perform-rl-step --micro-batch-size 1 --global-batch-size 64 --rl-use-sequence-packing
