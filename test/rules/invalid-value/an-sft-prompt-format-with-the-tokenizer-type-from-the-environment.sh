#: name: invalid-value: the SFT tokenizer refuses an unknown prompt format (sft_tokenizer.py@core_v0.19.0:107) only when it is the tokenizer built, and here the tokenizer type comes from a variable the script does not set: nothing is said
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 pretrain_gpt.py \
  --num-layers 2 --hidden-size 256 --num-attention-heads 8 --seq-length 512 --max-position-embeddings 512 \
  --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --eval-interval 5 --lr 1e-4 --bf16 \
  --tokenizer-type $TOKENIZER_TYPE --tokenizer-model /models/hf \
  --sft --no-create-attention-mask-in-dataloader --sft-tokenizer-prompt-format nemotron-nano-v3 \
  --data-path /data/x
