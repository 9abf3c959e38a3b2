#: name: version-unsupported-key: on the command line argparse refuses a choice the targeted release does not list: `--fp4-recipe custom` at 0.15.0, whose choices are `nvfp4` alone (training/arguments.py@core_v0.15.0:1357-1358): an error
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
torchrun --nproc_per_node 1 pretrain_gpt.py \
    --num-layers 2 --hidden-size 256 --num-attention-heads 4 --seq-length 512 --max-position-embeddings 512 \
    --micro-batch-size 1 --global-batch-size 1 --bf16 \
    --fp4-recipe custom
#                ^^^^^^ error[version-unsupported-key]: rejects it
