#: name: pipeline-config-invalid: at core_v0.9.0 virtual stages with a first stage size stop Megatron Core when it builds the model (transformer_block.py@core_v0.9.0:56-59)
#: settings: {"targetVersions": {"megatron-core": "0.9.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --num-layers 32 --pipeline-model-parallel-size 4 --decoder-first-pipeline-num-layers 8 --num-layers-per-virtual-pipeline-stage 4 \
#                                                                                          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[pipeline-config-invalid]: Uneven number of layer not compatible with interleaved pipeline schedule
    --overlap-grad-reduce --micro-batch-size 1 --global-batch-size 8 --bf16
