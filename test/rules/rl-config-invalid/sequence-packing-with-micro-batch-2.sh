#: name: rl-config-invalid: sequence packing with --micro-batch-size 2 stops Megatron-LM (training/arguments.py@core_v0.16.0:386-388, @d98e8a6:563-565)
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 /opt/megatron-lm/train_rl.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 --bf16 \
    --perform-rl-step --micro-batch-size 2 --global-batch-size 64 --rl-use-sequence-packing
#                     ^^^^^^^^^^^^^^^^^^ error[rl-config-invalid]
