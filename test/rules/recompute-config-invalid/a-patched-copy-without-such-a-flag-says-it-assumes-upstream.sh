#: name: recompute-config-invalid: a patched copy of Megatron-LM run by an entry script that is not Megatron-LM's own (`posttrain_gpt.py` imports MindSpeed-LLM's adaptor), and no flag of its own about recompute: 8 over chunks of 5 layers is still reported, as a warning that names the assumption that the patched copy does what upstream does
#!/bin/bash
torchrun --nproc_per_node 8 posttrain_gpt.py \
^^^^^^^^ information[fork-flags-not-checked]: patched copy
    --tensor-model-parallel-size 1 --pipeline-model-parallel-size 4 \
    --num-layers-per-virtual-pipeline-stage 5 --num-layers 80 \
    --hidden-size 1024 --num-attention-heads 16 --seq-length 4096 --max-position-embeddings 4096 \
    --micro-batch-size 1 --global-batch-size 8 --bf16 \
    --recompute-granularity full --recompute-method block --recompute-num-layers 8
                                                          ^^^^^^^^^^^^^^^^^^^^^^ warning[recompute-config-invalid]: does what upstream Megatron-LM does
