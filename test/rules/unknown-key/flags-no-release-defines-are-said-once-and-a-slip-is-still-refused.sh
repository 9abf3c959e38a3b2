#: name: unknown-key: flags no Megatron-LM release defines and that are no slip of one (--use-mpi, --use-z-loss: llm-jp/Megatron-LM@nii-geniac:megatron/training/arguments.py:892,1155, in no upstream tag) show a fork or an extended parser: one warning says so for all of them; a slip of a real flag (--log-intervall) is still argparse's refusal (megatron/training/arguments.py@core_v0.15.3:102-106)
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --lr 1e-4 --train-iters 1000 --eval-interval 100 \
    --use-mpi \
#   ^^^^^^^^^ warning[unknown-key]: `--use-mpi`, `--use-z-loss` and `--use-palm-style-loss` are not upstream flags
    --log-intervall 10 \
#   ^^^^^^^^^^^^^^^ error[unknown-key]: Did you mean `--log-interval`
    --use-z-loss --use-palm-style-loss
