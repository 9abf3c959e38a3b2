#: name: tp-without-sequence-parallel: `--skip-train` leaves train() out and evaluates with the model in eval mode, so the MoE layer's training-only check never runs (training/training.py@core_v0.15.0:727, moe/moe_layer.py@core_v0.15.0:265-267)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 2 --num-experts 4 --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 1024 --max-position-embeddings 1024 --micro-batch-size 1 --global-batch-size 8 --bf16 --skip-train --load /ckpt --disable-bias-linear
