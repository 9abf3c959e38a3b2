#: name: version-unsupported-key: a flag the entry script adds itself (through `extra_args_provider`, as Megatron-LM's multimodal example does with `--freeze-LM`) is that script's, so Megatron-LM's history of a flag of the same name does not judge it
#: path: /project/examples/multimodal/pretrain.sh
#: settings: {"targetVersions": {"megatron-core": "0.9.0"}}
#: repository: files
#!/bin/bash
# shardwise: hardware=h100-sxm
# shardwise-disable missing-overlap-grad-reduce -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 examples/multimodal/train.py \
    --num-layers 24 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 \
    --micro-batch-size 1 --global-batch-size 32 --bf16 \
    --freeze-LM
