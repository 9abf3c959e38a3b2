#: name: model-args-conflict: with fp16 and a dynamic loss scale the loss scaler asserts hysteresis > 0 (optimizer/grad_scaler.py@core_v0.4.0:78, core/optimizer/grad_scaler.py@d98e8a6:124), and with --use-mup the model config asserts a positive base hidden size (transformer_config.py@core_v0.17.0:1735-1739)
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --seq-length 1024 --max-position-embeddings 1024 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --eval-interval 10 --lr 1e-4 --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --fp16 --hysteresis 0 --use-mup --mup-base-hidden-size 0
#          ^^^^^^^^^^^^ error[model-args-conflict]: an assertion that it is above 0
#                                   ^^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: --mup-base-hidden-size must be positive
