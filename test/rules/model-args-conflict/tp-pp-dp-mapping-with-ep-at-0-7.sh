#: name: model-args-conflict: the TP-PP-DP rank order with EP 2 stops Megatron-LM at core_v0.7.0 (training/arguments.py@core_v0.7.0:520-522)
#: settings: {"targetVersions": {"megatron-core": "0.7.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --num-experts 8 --expert-model-parallel-size 2 --use-tp-pp-dp-mapping \
#                                                  ^^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]
    --overlap-grad-reduce --micro-batch-size 1 --global-batch-size 8 --bf16 --mock-data
