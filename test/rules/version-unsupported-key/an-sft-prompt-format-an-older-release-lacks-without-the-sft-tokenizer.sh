#: name: version-unsupported-key: nemotron-nano-v2 arrives in the SFT tokenizer of 0.15.0 (training/tokenizer/sft_tokenizer.py@core_v0.15.0:45; @core_v0.14.0:44-53 knows nemotron-h-aligned only), but without --tokenizer-type SFTTokenizer nothing builds it (training/tokenizer/tokenizer.py@core_v0.14.0): a note
#: settings: {"targetVersions": {"megatron-core": "0.14.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 pretrain_gpt.py \
  --num-layers 2 --hidden-size 256 --num-attention-heads 8 --seq-length 512 --max-position-embeddings 512 \
  --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --eval-interval 5 --lr 1e-4 --bf16 \
  --tokenizer-type HuggingFaceTokenizer --tokenizer-model /models/hf \
  --sft --no-create-attention-mask-in-dataloader --sft-tokenizer-prompt-format nemotron-nano-v2 \
#                                                                              ^^^^^^^^^^^^^^^^ information[version-unsupported-key]: so the value is unused
  --data-path /data/x
