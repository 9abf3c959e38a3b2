#: name: unknown-key: the multimodal example adds `--use-tiling` from Megatron Core 0.9.0 and `--decoder-tp-comm-overlap` only after 0.19.0 (examples/multimodal/*.py at core_v0.8.0, core_v0.9.0, core_v0.19.0): at 0.16.0 the second stops argparse, the first is the script's own
#: path: examples/multimodal/run.sh
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 examples/multimodal/train.py \
^^^^^^^^ information[missing-overlap-grad-reduce]
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 \
    --micro-batch-size 1 --global-batch-size 8 \
    --decoder-tp-comm-overlap \
    ^^^^^^^^^^^^^^^^^^^^^^^^^ error[unknown-key]: adds this flag to Megatron-LM's parser only from Megatron Core 0.20.0
    --use-tiling
