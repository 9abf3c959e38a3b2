#: name: recompute-config-invalid: a patched copy of Megatron-LM with its own `--num-layer-list 7,7,7,8,8,8,8,8` (MindSpeed-LLM's per-stage layer counts, 61 layers over PP 8): the layers of each stage are the patch's, not 61 // 8, so a count of 8 is not judged
#!/bin/bash
torchrun --nproc_per_node 8 posttrain_gpt.py \
^^^^^^^^ information[fork-flags-not-checked]: `--num-layer-list`
    --tensor-model-parallel-size 1 --pipeline-model-parallel-size 8 \
    --num-layer-list 7,7,7,8,8,8,8,8 --num-layers 61 \
    --hidden-size 1024 --num-attention-heads 16 --seq-length 4096 --max-position-embeddings 4096 \
    --micro-batch-size 1 --global-batch-size 8 --bf16 \
    --recompute-granularity full --recompute-method block --recompute-num-layers 8
