#: name: model-args-conflict: quick GeGLU beside SwiGLU is refused by the config builder (training/arguments.py@core_v0.15.0:1268-1269, argument_utils.py@d98e8a6:323-324)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --quick-geglu --swiglu
#   ^^^^^^^^^^^^^ error[model-args-conflict]: `--quick-geglu` with `--swiglu`: both choose the MLP activat
