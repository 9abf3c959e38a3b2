#: name: unknown-key: an entry script that imports a Megatron adaptor (an installed plugin package patches Megatron-LM's arguments: more flags, more values) runs a parser nobody here can see: its flags and values are not judged, one note says so
#: path: examples/pretrain_llama.sh
#!/bin/bash
# shardwise-disable memory-exceeds-hbm -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
^^^^^^^^ information[fork-flags-not-checked]: imports `from mindspeed_llm import megatron_adaptor`
    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \
    --seq-length 4096 --max-position-embeddings 4096 --bf16 \
    --micro-batch-size 1 --global-batch-size 64 \
    --use-fused-rmsnorm --use-fused-swiglu \
    --tokenizer-type PretrainedFromHF \
    --moe-router-load-balancing-type softmax_topk
