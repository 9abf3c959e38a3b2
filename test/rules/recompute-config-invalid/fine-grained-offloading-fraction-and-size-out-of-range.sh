#: name: recompute-config-invalid: an offload fraction outside [0, 1] and a negative smallest tensor size are refused (transformer_config.py@core_v0.19.0:1885-1890)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --fine-grained-activation-offloading --offload-modules core_attn --activation-offload-fraction 1.5 --min-offloaded-tensor-size -1
#                                                                    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[recompute-config-invalid]: `--activation-offload-fraction 1.5` with `--fine-grained-act
#                                                                                                      ^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[recompute-config-invalid]: `--min-offloaded-tensor-size -1` with `--fine-grained-activa
