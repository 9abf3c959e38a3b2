#: name: overlap-config-invalid: Muon and dist_muon refuse both overlaps and the distributed optimizer at 0.16 (training/arguments.py@core_v0.16.0:1178-1185)
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --optimizer dist_muon --overlap-grad-reduce --overlap-param-gather --use-distributed-optimizer
#                         ^^^^^^^^^^^^^^^^^^^^^ error[overlap-config-invalid]: `--overlap-grad-reduce` with `--optimizer dist_muon`: Megatr
#                                               ^^^^^^^^^^^^^^^^^^^^^^ error[overlap-config-invalid]: `--overlap-param-gather` with `--optimizer dist_muon`: Megat
#                                                                      ^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[overlap-config-invalid]: `--use-distributed-optimizer` with `--optimizer dist_muon`:
