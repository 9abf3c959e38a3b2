#: name: deprecated-key: --use-rotary-position-embeddings sets position_embedding_type to rope before Megatron-LM checks --no-position-embedding (training/arguments.py@core_v0.13.0:913-914, then 924-925), so the pair runs: a note, not an error
#: settings: {"targetVersions": {"megatron-core": "0.13.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc-per-node 8 pretrain_gpt.py --num-layers 8 --hidden-size 512 --num-attention-heads 8 \
    --seq-length 512 --max-position-embeddings 512 --micro-batch-size 1 --global-batch-size 8 \
    --overlap-grad-reduce --no-position-embedding --use-rotary-position-embeddings
#                         ^^^^^^^^^^^^^^^^^^^^^^^ information[deprecated-key]: choose `--position-embedding-type` instead
#                                                 ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ information[deprecated-key]: Turned into `--position-embedding-type rope`
