#: name: data-config-invalid: --vocab-size 0 is falsy, so the builder of Megatron Core 0.19 does not pass it (build_tokenizer.py@core_v0.19.0:92-93) and the null multimodal tokenizer is built without its size (vision/libraries/null_multimodal_tokenizer.py@core_v0.19.0:7)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --mock-data --tokenizer-type NullMultimodalTokenizer --vocab-size 0
                ^^^^^^^^^^^^^^^^ error[data-config-invalid]: without a nonzero `--vocab-size`
