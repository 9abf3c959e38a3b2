#: name: deprecated-key: with --position-embedding-type rope, --no-position-embedding passes Megatron-LM's check and does nothing more: a note
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc-per-node 8 pretrain_gpt.py --num-layers 8 --hidden-size 512 --num-attention-heads 8 \
    --seq-length 512 --max-position-embeddings 512 --micro-batch-size 1 --global-batch-size 8 \
    --overlap-grad-reduce --position-embedding-type rope --no-position-embedding
#                                                        ^^^^^^^^^^^^^^^^^^^^^^^ information[deprecated-key]: choose `--position-embedding-type` instead
