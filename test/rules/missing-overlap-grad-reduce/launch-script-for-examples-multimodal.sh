#: name: launch script for examples/multimodal/train.py: the flags it adds are accepted, a typo is still an error
#: path: train_vlm.sh
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 examples/multimodal/train.py \
^^^^^^^^ information[missing-overlap-grad-reduce]
    --tensor-model-parallel-size 2 \
#                                ^ information[missing-tp-comm-overlap]
    --pipeline-model-parallel-size 1 \
    --micro-batch-size 1 \
    --allow-missing-vision-projection-checkpoint \
    --sequence-parallel \
    --overlap-grad-reduse
#   ^^^^^^^^^^^^^^^^^^^^^ error[unknown-key]: among the arguments `train.py` accepts
