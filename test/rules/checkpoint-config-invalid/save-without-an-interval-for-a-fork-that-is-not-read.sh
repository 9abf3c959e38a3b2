#: name: checkpoint-config-invalid: --save without --save-interval for a Megatron-LM that is not read and that the script's own flags show to be a fork: --use-mpi and --use-z-loss are defined by no release (absent from megatron/ at every tag, v1.0 to core_v0.19.0) but by llm-jp/Megatron-LM@nii-geniac:megatron/training/arguments.py:892,1155, which drops upstream's check and asserts the opposite (:394-397); every release asserts it (megatron/arguments.py@core_v0.4.0:283-284, megatron/training/arguments.py@core_v0.19.0:1321-1322), so it is a warning that names the assumption
#: path: example/train.sh
#: files: none
#!/bin/bash
python src/Megatron-LM/pretrain_gpt.py \
^^^^^^ information[fork-flags-not-checked]: The script passes `--use-mpi` and `--use-z-loss`, which no Megatron-LM release defines: that Megatron-LM is a fork or a patched copy
  --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 \
  --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 --bf16 \
  --save checkpoints \
# ^^^^^^ warning[checkpoint-config-invalid]: This assumes upstream Megatron-LM runs this launch (it passes `--use-mpi` and `--use-z-loss`, which no Megatron-LM release defines
  --use-mpi \
  --use-z-loss
