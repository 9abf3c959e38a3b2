#: name: an inference entry point is not training: no training-memory estimate
#: path: generate_70b.sh
#!/bin/bash
# shardwise: hardware=h100-sxm
torchrun --nproc_per_node 1 tools/run_text_generation_server.py \
^^^^^^^^ information[gpus-per-node-mismatch]
    --num-layers 80 \
    --hidden-size 8192 \
    --num-attention-heads 64 \
    --seq-length 4096 \
    --max-position-embeddings 4096 \
    --tensor-model-parallel-size 1 \
    --micro-batch-size 1 \
    --bf16
