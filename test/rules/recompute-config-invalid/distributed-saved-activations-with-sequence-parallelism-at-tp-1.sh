#: name: recompute-config-invalid: at TP 1 Megatron-LM turns sequence parallelism off before the model config is built (training/arguments.py@d98e8a6:1433-1439), so only the TP 1 refusal of distributed saved activations is left (training/arguments.py@d98e8a6:1410-1413)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --tensor-model-parallel-size 1 --sequence-parallel --recompute-granularity full --recompute-method uniform --recompute-num-layers 1 --distribute-saved-activations
#                                  ^^^^^^^^^^^^^^^^^^^ information[sequence-parallel-without-tp]
#                                                                                                                                       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[recompute-config-invalid]: can distribute recomputed activations only across
