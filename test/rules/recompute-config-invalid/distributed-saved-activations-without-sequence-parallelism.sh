#: name: recompute-config-invalid: distributing the saved activations of full recomputation over TP without sequence parallelism runs
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}, "rules": {"missing-tp-comm-overlap": "off", "tp-larger-than-needed": "off", "tp-without-sequence-parallel": "off"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --tensor-model-parallel-size 2 --recompute-granularity full --recompute-method uniform --recompute-num-layers 1 --distribute-saved-activations
