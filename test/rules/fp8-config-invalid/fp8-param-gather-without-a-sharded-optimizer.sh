#: name: fp8-config-invalid: Megatron-LM refuses --fp8-param-gather without a sharded optimizer at startup (training/arguments.py@core_v0.9.0:314-316, @core_v0.14.0:615-617, @core_v0.19.0:1060-1062)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 \
    --bf16 --fp8-format hybrid --fp8-param-gather \
#                              ^^^^^^^^^^^^^^^^^^ error[fp8-config-invalid]: only with the distributed optimizer
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000
