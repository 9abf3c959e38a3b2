#: name: model-args-conflict: --squared-relu with --swiglu is an assertion in Megatron-LM's config builder (argument_utils.py@d98e8a6:320-321; arguments.py@core_v0.5.0:465)
#: settings: {"targetVersions": {"megatron-core": "0.8.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --swiglu \
    --squared-relu
#   ^^^^^^^^^^^^^^ error[model-args-conflict]: both choose the MLP activation
