#: name: recompute-config-invalid: a patched copy of Megatron-LM (MindSpeed-LLM's adaptor) with its own `--enable-recompute-layers-per-pp-rank`, which makes `--recompute-num-layers` count a whole pipeline rank across its virtual chunks (mindspeed_llm/core/transformer/transformer_block.py@c77308a1:584-592): upstream's per-chunk count is not what runs, so 5 over chunks of 1 layer is not judged
#!/bin/bash
# shardwise-disable gpus-per-node-mismatch, tp-larger-than-needed -- not what this case is about
torchrun --nproc_per_node 16 pretrain_gpt.py \
^^^^^^^^ information[fork-flags-not-checked]: `--enable-recompute-layers-per-pp-rank`
    --tensor-model-parallel-size 8 --pipeline-model-parallel-size 2 \
    --num-layers-per-virtual-pipeline-stage 1 --num-layers 14 \
    --hidden-size 1024 --num-attention-heads 16 --seq-length 4096 --max-position-embeddings 4096 \
    --micro-batch-size 1 --global-batch-size 8 --bf16 \
    --recompute-granularity full --recompute-method block --recompute-num-layers 5 \
    --enable-recompute-layers-per-pp-rank --use-fused-rmsnorm
