#: name: deprecated-key: before 0.20.0 `gated_delta_net` is the only gated-delta-net name (transformer_config.py@core_v0.19.0:294, Literal['gated_delta_net', 'dsa']): nothing to say
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 pretrain_gpt.py \
  --num-layers 4 --hidden-size 256 --num-attention-heads 8 --seq-length 512 --max-position-embeddings 512 \
  --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --eval-interval 5 --lr 1e-4 --bf16 \
  --experimental-attention-variant gated_delta_net --linear-attention-freq 4 \
  --tokenizer-type NullTokenizer --vocab-size 1000 --mock-data
