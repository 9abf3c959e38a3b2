#: name: data-config-invalid: Megatron-LM main passes --tokenizer-model to the multimodal tokenizer from commit 881f489 (build_tokenizer.py@d98e8a6:79-81), after the 0.19 tag: accepted
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun examples/multimodal/train.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --language-model-type mistral_7b --tokenizer-type MultimodalTokenizer --tokenizer-model mistralai/Mistral-7B-Instruct-v0.3 --tokenizer-prompt-format mistral
