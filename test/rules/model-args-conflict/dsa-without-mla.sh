#: name: model-args-conflict: DeepSeek sparse attention without multi-latent attention is refused by its layer spec (experimental_attention_variant_module_specs.py@core_v0.16.0:81, @d98e8a6:101)
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --experimental-attention-variant dsa --dsa-indexer-n-heads 4 --dsa-indexer-head-dim 16 --dsa-indexer-topk 64
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: Currently only MLA supports sparse attention
