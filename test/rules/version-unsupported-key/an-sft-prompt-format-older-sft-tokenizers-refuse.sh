#: name: version-unsupported-key: the SFT tokenizer of 0.15.0 knows nemotron-nano-v2 and nemotron-h-aligned only (training/tokenizer/sft_tokenizer.py@core_v0.15.0:45-62); identity and default arrive in 0.17.0 (core/tokenizers/text/libraries/sft_tokenizer.py@core_v0.17.0:86-107): with --tokenizer-type SFTTokenizer the run stops
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 pretrain_gpt.py \
  --num-layers 2 --hidden-size 256 --num-attention-heads 8 --seq-length 512 --max-position-embeddings 512 \
  --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --eval-interval 5 --lr 1e-4 --bf16 \
  --tokenizer-type SFTTokenizer --tokenizer-model /models/hf \
  --sft --no-create-attention-mask-in-dataloader --sft-tokenizer-prompt-format identity \
#                                                                              ^^^^^^^^ error[version-unsupported-key]: arrived in Megatron-LM 0.17.0
  --data-path /data/x
