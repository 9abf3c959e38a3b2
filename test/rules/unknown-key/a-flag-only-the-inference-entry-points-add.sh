#: name: unknown-key: pretrain_gpt.py@core_v0.15.0 adds only the ModelOpt flags to Megatron-LM's parser, while --output-path, --incoming-requests-duration and --stop-words are added by the inference helper its examples call (examples/inference/gpt/utils.py@core_v0.15.0, megatron/inference/utils.py@core_v0.17.0) and --freeze-LM by pretrain_vlm.py: argparse stops with "unrecognized arguments"; --export-kd-cfg, which pretrain_gpt.py adds, is accepted
#: path: train.sh
#!/bin/bash
# shardwise: megatron_core=0.16.0
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --export-kd-cfg kd.yaml \
    --output-path out.json \
#   ^^^^^^^^^^^^^ error[unknown-key]: Only the parsers of `train_rl.py`, `examples/inference`, `tools` add this flag to Megatron-LM's parser, so Megatron-LM stops at startup (argparse: "unrecognized arguments").
    --incoming-requests-duration 5 \
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[unknown-key]: Only the parsers of `train_rl.py`, `examples/inference`, `tools` add this flag to Megatron-LM's parser, so Megatron-LM stops at startup (argparse: "unrecognized arguments").
    --stop-words END \
#   ^^^^^^^^^^^^ error[unknown-key]: Only the parsers of `train_rl.py`, `examples/inference`, `tools` add this flag to Megatron-LM's parser, so Megatron-LM stops at startup (argparse: "unrecognized arguments").
    --freeze-LM
#   ^^^^^^^^^^^ error[unknown-key]: Only the parsers of `pretrain_vlm.py` add this flag to Megatron-LM's parser, so Megatron-LM stops at startup (argparse: "unrecognized arguments").
