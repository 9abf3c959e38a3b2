#: name: launch script inside a checkout whose own parser defines flags Megatron-LM never had: judged by that parser
#: path: examples/pretrain_gpt.sh
#: settings: {"megatronCheckout":{"parser":"megatron/arguments.py","flags":["--data-impl","--checkpoint-activations","--tensor-model-parallel-size","--num-layers","--hidden-size","--num-attention-heads","--seq-length","--max-position-embeddings","--train-weighted-split-paths","--pp-partition-method","--kill-switch-path","--codecarbon-dir","--log-level","--embed-layernorm","--glu-activation","--abort-on-unmet-fused-kernel-constraints","--loss-on-targets-only","--tokenizer-name-or-path"]}}
#!/bin/bash
torchrun --nproc_per_node 8 pretrain_gpt.py \
^^^^^^^^ information[fork-flags-not-checked]: defines 11 flags Megatron-LM does not have
    --tensor-model-parallel-size 4 \
#                                ^ error[heads-not-divisible-by-tp]
    --num-layers 24 \
    --hidden-size 2048 \
    --num-attention-heads 30 \
    --seq-length 2048 \
    --max-position-embeddings 2048 \
    --checkpoint-activations \
    --data-impl mmap \
    --train-weighted-split-paths a b \
    --glu-activation geglu \
    --not-in-that-parser 1
#   ^^^^^^^^^^^^^^^^^^^^ warning[unknown-key]: does not define it
