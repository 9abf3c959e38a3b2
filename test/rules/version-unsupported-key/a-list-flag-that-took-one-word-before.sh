#: name: version-unsupported-key: --cuda-graph-scope takes several words from Megatron-LM 0.16.0 (nargs="+"); 0.15.x's parser takes one (arguments.py@core_v0.15.0, no nargs), so `attn mlp` stops it on the second ("unrecognized arguments")
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc-per-node 8 pretrain_gpt.py --num-layers 8 --hidden-size 512 --num-attention-heads 8 \
    --seq-length 512 --max-position-embeddings 512 --micro-batch-size 1 --global-batch-size 8 \
    --overlap-grad-reduce --cuda-graph-scope attn mlp
#                                            ^^^^^^^^ error[version-unsupported-key]: takes several values from Megatron-LM 0.16.0
