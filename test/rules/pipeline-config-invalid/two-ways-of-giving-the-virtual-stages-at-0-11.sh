#: name: pipeline-config-invalid: at core_v0.11.0 layers per virtual stage beside a virtual stage count stop Megatron-LM at startup (training/arguments.py@core_v0.11.0:337-338, @core_v0.12.0:429-430)
#: settings: {"targetVersions": {"megatron-core": "0.11.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --num-layers 32 --pipeline-model-parallel-size 2 --num-layers-per-virtual-pipeline-stage 8 --num-virtual-stages-per-pipeline-rank 2 \
#                                                                                              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[pipeline-config-invalid]
    --overlap-grad-reduce --micro-batch-size 1 --global-batch-size 8 --bf16
