#: name: unread-key: from Megatron Core 0.16.0 --dist-ckpt-save-pre-mcore-014 is a field of the training config dataclass (megatron/training/training_config.py@core_v0.16.0:471) that ArgumentGroupFactory turns into a flag, and nothing reads it: the field's declaration is no reader
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc-per-node 8 pretrain_gpt.py --num-layers 8 --hidden-size 512 --num-attention-heads 8 \
    --seq-length 512 --max-position-embeddings 512 --micro-batch-size 1 --global-batch-size 8 \
    --overlap-grad-reduce --dist-ckpt-save-pre-mcore-014
#                         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ information[unread-key]: from 0.16.0 on
