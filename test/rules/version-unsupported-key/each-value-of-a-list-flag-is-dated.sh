#: name: version-unsupported-key: each value of a list flag is dated on its own: `mlp` of --cuda-graph-scope arrives in Megatron-LM 0.16.0 (arguments.py@core_v0.16.0; 0.15.x takes one value of full, attn, full_iteration), so 0.15.0 stops on it
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc-per-node 8 pretrain_gpt.py --num-layers 8 --hidden-size 512 --num-attention-heads 8 \
    --seq-length 512 --max-position-embeddings 512 --micro-batch-size 1 --global-batch-size 8 \
    --overlap-grad-reduce --cuda-graph-scope attn mlp
#                                                 ^^^ error[version-unsupported-key]: `mlp` for `--cuda-graph-scope[1]` arrived in Megatron-LM 0.16.0
