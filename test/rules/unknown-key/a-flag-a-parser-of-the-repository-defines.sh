#: name: unknown-key: a flag a parser of the repository defines (not the entry script itself) is accepted; a misspelling of it is still a warning, which says what was searched and suggests the repository's flag
#: path: train.sh
#: repository: files
#!/bin/bash
# shardwise: hardware=h100-sxm
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 train.py \
    --tensor-model-parallel-size 1 \
    --overlap-grad-reduce \
    --num-layers 4 \
    --hidden-size 1024 \
    --num-attention-heads 16 \
    --my-framework-flag 1 \
    --rollout-bs 64 \
    --my-framwork-flag 2
    ^^^^^^^^^^^^^^^^^^ warning[unknown-key]: no parser in this repository defines it (2 Python files searched, 1 with add_argument calls: `myframework/arguments.py`): Unless `train.py` adds it in a way Shardwise does not read (a parser outside this repository, flags built at run time), Megatron-LM stops at startup ("unrecognized arguments"). Did you mean `--my-framework-flag`?
