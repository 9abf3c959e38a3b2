#: name: world-size-mismatch: TP 3 on 16 GPUs does not divide the world even after older releases cut PP, so every release stops
#: settings: {"rules": {"tp-exceeds-nvlink-domain": "off", "tp-without-sequence-parallel": "off", "missing-overlap-grad-reduce": "off"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nnodes 2 --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 3 --pipeline-model-parallel-size 2 --num-layers 32 --hidden-size 4095 --num-attention-heads 33 --kv-channels 128
^^^^^^^^ error[world-size-mismatch]: Megatron stops at startup
