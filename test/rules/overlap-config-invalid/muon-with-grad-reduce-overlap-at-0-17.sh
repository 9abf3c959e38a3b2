#: name: overlap-config-invalid: at 0.17 muon refuses the overlaps (use dist_muon) and every Muon the distributed optimizer (training/arguments.py@core_v0.17.0:1476-1482)
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --optimizer muon --overlap-grad-reduce --use-distributed-optimizer
#                    ^^^^^^^^^^^^^^^^^^^^^ error[overlap-config-invalid]: `--overlap-grad-reduce` with `--optimizer muon`: Megatron-LM
#                                          ^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[overlap-config-invalid]: `--use-distributed-optimizer` with `--optimizer muon`: befor
#                                          ^^^^^^^^^^^^^^^^^^^^^^^^^^^ information[missing-overlap-param-gather]
