#: name: invalid-value: only --tokenizer-type SFTTokenizer builds the SFT tokenizer with the prompt format (core/tokenizers/utils/build_tokenizer.py@core_v0.19.0:84-86); with another tokenizer the value is unused: a note
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 pretrain_gpt.py \
  --num-layers 2 --hidden-size 256 --num-attention-heads 8 --seq-length 512 --max-position-embeddings 512 \
  --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --eval-interval 5 --lr 1e-4 --bf16 \
  --tokenizer-type HuggingFaceTokenizer --tokenizer-model /models/hf \
  --sft --no-create-attention-mask-in-dataloader --sft-tokenizer-prompt-format nemotron-nano-v3 \
#                                                                              ^^^^^^^^^^^^^^^^ information[invalid-value]: `--tokenizer-type` is not `SFTTokenizer` here
  --data-path /data/x
