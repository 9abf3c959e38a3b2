#: name: heads-not-divisible-by-tp: an unquoted interpreter variable the script does not set ($PY -m torch.distributed.run … pretrain_gpt.py) may hold several words (`srun -N 2 python`): the flags are read, the world size is not known, so only the checks that need no world are made
#!/usr/bin/env bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
ARGS="
  --num-layers 48 --hidden-size 1920 --num-attention-heads 30 --sequence-parallel --overlap-grad-reduce
  --tensor-model-parallel-size 4 --pipeline-model-parallel-size 1
#                              ^ error[heads-not-divisible-by-tp]: 30 attention heads, not a multiple of TP 4
#                              ^ information[missing-tp-comm-overlap]
  --micro-batch-size 1 --global-batch-size 8 --seq-length 4096 --max-position-embeddings 4096
  --train-iters 5 --eval-interval 5 --mock-data --tokenizer-type NullTokenizer --vocab-size 32000
"
$PY -m torch.distributed.run --nnodes=1 --nproc-per-node=8 pretrain_gpt.py ${ARGS}
