#: name: missing-overlap-grad-reduce: a text-generation entry point trains nothing, so no training switch (gradient-reduce overlap, sequence parallelism) is advised for it
#: path: generate.sh
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 tools/run_text_generation_server.py \
    --tensor-model-parallel-size 2 \
    --pipeline-model-parallel-size 1 \
    --num-layers 24 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 \
    --micro-batch-size 1 --bf16
