#: name: moe-config-invalid: batch-invariant MoE refuses a dispatcher other than all-to-all, FP8, permute fusion and expert padding (transformer_config.py@d98e8a6:3239-3275)
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 5 --disable-bias-linear \
    --num-experts 4 --expert-model-parallel-size 2 --attention-backend flash --flash-attention-version 3 --attention-dropout 0 --batch-invariant-mode --fp8-format hybrid --moe-permute-fusion --moe-expert-capacity-factor 1 --moe-pad-expert-input-to-capacity
#                                                                                                                              ^^^^^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: requires moe_token_dispatcher_type='alltoall'
#                                                                                                                                                     ^^^^^^^^^^^^ error[moe-config-invalid]: is bf16-only
#                                                                                                                                                                         ^^^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: requires the unfused permute
#                                                                                                                                                                                                                             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: supports dynamic dropless routing only
