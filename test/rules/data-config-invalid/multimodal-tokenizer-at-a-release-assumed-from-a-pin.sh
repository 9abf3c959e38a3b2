#: name: data-config-invalid: a megatron-core pin suggests, but does not say, which Megatron-LM reads the flags: at the 0.18.0 it pins, the multimodal tokenizer gets no path (build_tokenizer.py@core_v0.18.0:77-82) and stops, a warning that names the release assumed
#: path: /project/scripts/train.sh
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun examples/multimodal/train.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --language-model-type mistral_7b --tokenizer-type MultimodalTokenizer --tokenizer-model mistralai/Mistral-7B-Instruct-v0.3 --tokenizer-prompt-format mistral
                                     ^^^^^^^^^^^^^^^^ warning[data-config-invalid]: This assumes the Megatron-LM that reads this file is the release the repository pins
