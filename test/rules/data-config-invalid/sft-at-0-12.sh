#: name: data-config-invalid: Megatron Core 0.12 has no SFT dataset to refuse the reset switches (the flag comes in 0.13)
#: settings: {"targetVersions": {"megatron-core": "0.12.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --data-path /d/a --split 99,1,0 --reset-position-ids --tokenizer-type NullTokenizer --vocab-size 100
