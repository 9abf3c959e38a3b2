#: name: heads-not-divisible-by-tp: a launch whose Python interpreter is a variable built from the environment ("${PY}" with PY="${ENV}/venv/bin/python", llm-jp/scripts smoke_qwen3_30b_a3b.sh) still runs torch.distributed.run and pretrain_gpt.py with every flag written out: it is read, the world from the module's options
#!/usr/bin/env bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
PY="${ENV}/venv/bin/python"
ARGS="
  --num-layers 48 --hidden-size 1920 --num-attention-heads 30 --sequence-parallel --overlap-grad-reduce
  --tensor-model-parallel-size 4 --pipeline-model-parallel-size 1
#                              ^ error[heads-not-divisible-by-tp]: 30 attention heads, not a multiple of TP 4
#                              ^ information[missing-tp-comm-overlap]
#                              ^ information[tp-larger-than-needed]: would raise DP from 2 to 8
  --micro-batch-size 1 --global-batch-size 8 --seq-length 4096 --max-position-embeddings 4096
  --train-iters 5 --eval-interval 5 --mock-data --tokenizer-type NullTokenizer --vocab-size 32000
"
"${PY}" -m torch.distributed.run --nnodes=1 --nproc-per-node=8 pretrain_gpt.py ${ARGS}
