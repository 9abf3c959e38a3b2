#: name: pipeline-config-invalid: before core_v0.13.0 a virtual stage count of 1 still runs the interleaved schedule's PP check, and PP 1 stops Megatron-LM at startup (training/arguments.py@core_v0.12.0:432-436)
#: settings: {"targetVersions": {"megatron-core": "0.12.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --num-layers 32 --num-virtual-stages-per-pipeline-rank 1 \
#                   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[pipeline-config-invalid]
    --overlap-grad-reduce --micro-batch-size 1 --global-batch-size 8 --bf16
