#: name: deprecated-key: from 0.20.0 `gated_delta_net` is a deprecated alias of `gdn` that TransformerConfig.__post_init__ turns into `gdn` with a DeprecationWarning (transformer_config.py@d98e8a6:301-309, 1405-1408; experimental_attention_variant_module_specs.py@d98e8a6:64, 349-372); it still runs
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 pretrain_gpt.py \
  --num-layers 4 --hidden-size 256 --num-attention-heads 8 --seq-length 512 --max-position-embeddings 512 \
  --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --eval-interval 5 --lr 1e-4 --bf16 \
  --experimental-attention-variant gated_delta_net --linear-attention-freq 4 \
#                                  ^^^^^^^^^^^^^^^ information[deprecated-key]: deprecated since Megatron-LM 0.20.0
  --tokenizer-type NullTokenizer --vocab-size 1000 --mock-data
