#: name: model-args-conflict: weight shards that TP does not divide stop at startup (model_parallel_config.py@core_v0.19.0:36-40, training/arguments.py@core_v0.19.0:414-420)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 --disable-bias-linear \
    --tensor-model-parallel-size 2 --sequence-parallel --tensor-parallel-num-weight-shards 3
#                                                      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: tensor_parallel_num_weight_shards (3)
#                                ^ information[missing-tp-comm-overlap]: TP 2 with sequence parallelism
