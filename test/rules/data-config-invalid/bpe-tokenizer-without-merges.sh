#: name: data-config-invalid: GPT-2 BPE without its merge file (tokenizer/tokenizer.py@core_v0.4.0:18-20, training/tokenizer/tokenizer.py@core_v0.16.0:17-19)
#: settings: {"targetVersions": {"megatron-core": "0.12.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --data-path /d/a --split 99,1,0 --tokenizer-type GPT2BPETokenizer --vocab-file gpt2-vocab.json
#                                   ^^^^^^^^^^^^^^^^ error[data-config-invalid]: `--tokenizer-type GPT2BPETokenizer` without `--merge-file`: Megatron-L
