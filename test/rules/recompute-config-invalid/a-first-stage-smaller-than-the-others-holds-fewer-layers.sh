#: name: recompute-config-invalid: 61 layers over PP 8 with `--decoder-first-pipeline-num-layers 5`: the seven other stages hold 8 layers each (transformer_block.py@core_v0.16.0:102-145), so `block` with 8 recomputes every layer of those stages (@core_v0.12.1:384-397), not more than a stage holds
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --tensor-model-parallel-size 1 --pipeline-model-parallel-size 8 \
    --decoder-first-pipeline-num-layers 5 --num-layers 61 \
    --hidden-size 1024 --num-attention-heads 16 --seq-length 4096 --max-position-embeddings 4096 \
    --micro-batch-size 1 --global-batch-size 8 --bf16 \
    --recompute-granularity full --recompute-method block --recompute-num-layers 8
