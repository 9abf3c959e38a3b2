#: name: memory-exceeds-hbm: a checkpoint conversion (`deepseek_v2_hf_to_mg.py`, `hf2mcore_qwen.py`) keeps no gradients or optimizer states: the training estimate is not compared with the GPU's memory
#: path: ckpt_convert_scripts/convert.sh
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
WORKSPACE=$(dirname "$(readlink -f "$0")")
torchrun --nproc_per_node 1 ${WORKSPACE}/deepseek_v2_hf_to_mg.py \
    --num-layers 39 --hidden-size 5120 --num-attention-heads 40 \
    --seq-length 2048 --max-position-embeddings 2048 \
    --micro-batch-size 1 --load /ckpt --bf16
