#: name: duplicate-key: a flag set in a shared array and again on the command line is an override (a note); twice in one block with different values is a warning
#: path: train.sh
#!/bin/bash
# shardwise: hardware=h100-sxm
export CUDA_DEVICE_MAX_CONNECTIONS=1
COMMON=(
    --tensor-model-parallel-size 4 --sequence-parallel --tp-comm-overlap
    --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather
    --bf16 --lr 1e-4
#          ^^^^ information[duplicate-key]: `--lr` is passed again later (line 10)
)
torchrun --nproc_per_node 8 pretrain_gpt.py "${COMMON[@]}" \
    --lr 2e-4 --min-lr 1e-5 --min-lr 2e-5
#             ^^^^^^^^ warning[duplicate-key]: `--min-lr` is passed twice
