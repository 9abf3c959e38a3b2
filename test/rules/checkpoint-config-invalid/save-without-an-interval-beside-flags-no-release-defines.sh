#: name: checkpoint-config-invalid: --save without --save-interval beside flags no Megatron-LM release defines and that are no slip of one (--use-mpi is two letters from --use-mup, a word apart): a fork or an extended parser reads the launch (llm-jp/Megatron-LM@nii-geniac:megatron/training/arguments.py:394-397 asserts that --save-interval is not given), so upstream's check (megatron/training/arguments.py@core_v0.19.0:1321-1322) is a warning that names the assumption, and the flags are said once
#: settings: {"targetVersions": {"megatron-core": "0.4.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --lr 1e-4 --train-iters 1000 \
    --save /ckpt \
#   ^^^^^^ warning[checkpoint-config-invalid]: This assumes upstream Megatron-LM runs this launch (it passes `--use-mpi` and `--use-z-loss`
    --use-mpi --use-z-loss
#   ^^^^^^^^^ warning[unknown-key]: `--use-mpi` and `--use-z-loss` are not upstream flags: no Megatron-LM release defines them, no parser Shardwise read does, and none is a slip of one, so this launch runs a fork or an extended parser
