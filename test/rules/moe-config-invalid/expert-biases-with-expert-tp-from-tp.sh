#: name: moe-config-invalid: Megatron Core refuses biased experts with ETP > 1, here the TP size by default (transformer_config.py@d98e8a6:2612-2615, from core_v0.15.0)
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --num-experts 8 --tensor-model-parallel-size 2 --sequence-parallel
#   ^^^^^^^^^^^^^ error[moe-config-invalid]: Bias in Moe is only supported when ETP==1
#                                                ^ information[missing-tp-comm-overlap]: TP 2 with sequence parallelism all-gathers and red
#                                                ^ information[tp-larger-than-needed]: TP 2 is more than this model needs on h100-sxm: TP
