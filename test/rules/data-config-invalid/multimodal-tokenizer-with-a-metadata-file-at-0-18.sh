#: name: data-config-invalid: with --tokenizer-metadata the library comes from that file (build_tokenizer.py@core_v0.18.0:109-112), which is not read here: not judged
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun examples/multimodal/train.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --language-model-type mistral_7b --tokenizer-type MultimodalTokenizer --tokenizer-model mistralai/Mistral-7B-Instruct-v0.3 --tokenizer-prompt-format mistral --tokenizer-metadata /tok/tokenizer_metadata.json
