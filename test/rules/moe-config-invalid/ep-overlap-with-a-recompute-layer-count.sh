#: name: moe-config-invalid: EP all-to-all overlap refuses a recompute layer count (transformer_config.py@core_v0.14.0:1324-1326, @d98e8a6:3027-3029)
#: settings: {"targetVersions": {"megatron-core": "0.14.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --disable-bias-linear \
    --num-experts 4 --expert-model-parallel-size 2 --moe-token-dispatcher-type alltoall --overlap-moe-expert-parallel-comm --recompute-num-layers 1
#                                                                                                                          ^^^^^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: recompute_num_layers must be None when enabling overlap_moe
