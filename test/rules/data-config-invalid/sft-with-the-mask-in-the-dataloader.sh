#: name: data-config-invalid: SFT with the attention mask built in the data loader, the default (training/datasets/sft_dataset.py@core_v0.16.0:178, @d98e8a6:174)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --data-path /d/sft.jsonl --split 99,1,0 --sft --tokenizer-type NullTokenizer --vocab-size 100
#                                           ^^^^^ error[data-config-invalid]: `--sft` without `--no-create-attention-mask-in-dataloader`: the SFT da
