#: name: world-size-mismatch: TP 4 × PP 8 on 16 GPUs, release not known: from Megatron Core 0.9.0 it stops, before it PP is cut to 4 without a word (megatron/training/arguments.py@core_v0.8.0), so a warning that says both
#: settings: {"rules": {"tp-exceeds-nvlink-domain": "off", "tp-without-sequence-parallel": "off", "missing-overlap-grad-reduce": "off"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nnodes 2 --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 4 --pipeline-model-parallel-size 8 --num-layers 32 --hidden-size 4096 --num-attention-heads 32
^^^^^^^^ warning[world-size-mismatch]: releases before it cut PP to 4 without a word
