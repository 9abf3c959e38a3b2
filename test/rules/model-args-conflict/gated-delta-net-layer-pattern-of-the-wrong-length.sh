#: name: model-args-conflict: a gated-delta-net layer pattern must give one entry per layer (experimental_attention_variant_module_specs.py@core_v0.16.0:329-333, @d98e8a6:470-476)
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --experimental-attention-variant gated_delta_net --linear-attention-freq [1,1,0]
#                                                    ^^^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: Invalid length of linear_attention_pattern:
