#: name: data-config-invalid: the multimodal branch reads args.tokenizer_prompt_format first (training/tokenizer/tokenizer.py@core_v0.16.0:80), which only examples/multimodal/multimodal_args.py defines: a pretrain_*.py stops with an AttributeError at any release
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --data-path /d/a --split 99,1,0 --tokenizer-type MultimodalTokenizer --tokenizer-model mistralai/Mistral-7B-Instruct-v0.3
                                    ^^^^^^^^^^^^^^^^ error[data-config-invalid]: an AttributeError: no `tokenizer_prompt_format`
