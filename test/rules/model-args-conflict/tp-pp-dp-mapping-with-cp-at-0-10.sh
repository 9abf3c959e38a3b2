#: name: model-args-conflict: the TP-PP-DP rank order with CP 2 stops Megatron-LM at core_v0.10.0 (training/arguments.py@core_v0.10.0:687-689, from core_v0.7.0:520-522)
#: settings: {"targetVersions": {"megatron-core": "0.10.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --pipeline-model-parallel-size 2 --context-parallel-size 2 --use-tp-pp-dp-mapping \
#                                                              ^^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]
    --overlap-grad-reduce --micro-batch-size 1 --global-batch-size 8 --bf16
