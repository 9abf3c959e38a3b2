#: name: missing-overlap-grad-reduce: the distributed optimizer and both overlaps, as continuation lines
#: path: train.sh
#: fix: missing-overlap-grad-reduce Add --use-distributed-optimizer, --overlap-grad-reduce and --overlap-param-gather
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --tensor-model-parallel-size 2 --sequence-parallel --tp-comm-overlap \
    --bf16
