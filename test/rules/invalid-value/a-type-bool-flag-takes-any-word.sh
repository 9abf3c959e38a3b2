#: name: invalid-value: Megatron-LM defines --onnx-safe with type=bool at every release (megatron/training/arguments.py@core_v0.15.0:1656): argparse passes the word to bool(), so `True` (or any word) is accepted, not refused
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc-per-node 8 pretrain_gpt.py --num-layers 8 --hidden-size 512 --num-attention-heads 8 \
    --seq-length 512 --max-position-embeddings 512 --micro-batch-size 1 --global-batch-size 8 \
    --overlap-grad-reduce --onnx-safe True
