#: name: recompute-config-invalid: --recompute-activations (selective) with a method stops validate_args, with a layer count stops TransformerConfig (training/arguments.py@core_v0.15.0:914-917, transformer_config.py@core_v0.15.0 "recompute_num_layers must be None")
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --recompute-activations --recompute-granularity full --recompute-method uniform --recompute-num-layers 1
#                                                        ^^^^^^^^^^^^^^^^^^ error[recompute-config-invalid]: Selective recomputation (`--recompute-activations`) has no r
#                                                                                   ^^^^^^^^^^^^^^^^^^^^^^ error[recompute-config-invalid]: Selective recomputation (`--recompute-activations`) takes no
