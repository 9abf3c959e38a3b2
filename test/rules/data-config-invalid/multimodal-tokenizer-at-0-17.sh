#: name: data-config-invalid: Megatron Core 0.17 builds the multimodal tokenizer without a path (core/tokenizers/utils/build_tokenizer.py@core_v0.17.0:60-65 sets none) and from_pretrained asserts one (megatron_tokenizer.py@core_v0.17.0:84-85): examples/multimodal/train.py stops whatever --tokenizer-model says
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun examples/multimodal/train.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --language-model-type mistral_7b --tokenizer-type MultimodalTokenizer --tokenizer-model mistralai/Mistral-7B-Instruct-v0.3 --tokenizer-prompt-format mistral
                                     ^^^^^^^^^^^^^^^^ error[data-config-invalid]: ("Tokenizer path must be specified.") whatever the file gives
