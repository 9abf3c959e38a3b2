#: name: invalid-value: the flag takes any text (arguments.py@core_v0.19.0), but with --tokenizer-type SFTTokenizer the tokenizer is built with it (core/tokenizers/utils/build_tokenizer.py@core_v0.19.0:84-86) and raises NotImplementedError on a format other than nemotron-nano-v2, nemotron-h-aligned, identity and default (core/tokenizers/text/libraries/sft_tokenizer.py@core_v0.19.0:70-107)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 pretrain_gpt.py \
  --num-layers 2 --hidden-size 256 --num-attention-heads 8 --seq-length 512 --max-position-embeddings 512 \
  --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --eval-interval 5 --lr 1e-4 --bf16 \
  --tokenizer-type SFTTokenizer --tokenizer-model /models/hf \
  --sft --no-create-attention-mask-in-dataloader --sft-tokenizer-prompt-format nemotron-nano-v3 \
#                                                                              ^^^^^^^^^^^^^^^^ error[invalid-value]: NotImplementedError
  --data-path /data/x
