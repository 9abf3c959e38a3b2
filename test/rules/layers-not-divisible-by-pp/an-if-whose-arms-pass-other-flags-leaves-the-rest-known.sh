#: name: layers-not-divisible-by-pp: the arms of an if add different data flags, none of them a pipeline split: the layers still do not split (Megatron-LM 0.10.0, whose argument checks stop on it)
#: settings: {"targetVersions": {"megatron-core": "0.10.0"}}
#: path: /project/examples/train.sh
#!/bin/bash
# shardwise: hardware=h100-sxm
export CUDA_DEVICE_MAX_CONNECTIONS=1
DATA=()
if [[ "$TOKENIZER" == "MOCK" ]]; then
    DATA+=(--mock-data --tokenizer-type NullTokenizer --vocab-size 128256)
else
    DATA+=(--data-path "$DATA_PATH" --tokenizer-type HuggingFaceTokenizer --tokenizer-model "$TOKENIZER")
fi
torchrun --nproc_per_node 8 pretrain_gpt.py ${DATA[@]} \
    --num-layers 12 --hidden-size 512 --num-attention-heads 8 \
    --pipeline-model-parallel-size 8 \
#                                  ^ error[layers-not-divisible-by-pp]: 12 layers do not split into PP 8 stages
    --micro-batch-size 1 --global-batch-size 8 \
    --bf16
