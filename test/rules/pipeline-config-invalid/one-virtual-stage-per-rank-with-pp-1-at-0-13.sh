#: name: pipeline-config-invalid: at core_v0.13.0 layers per virtual stage that give one virtual stage still run the interleaved schedule's PP check (only a layout's degree of 1 is dropped), and PP 1 stops Megatron-LM at startup (training/arguments.py@core_v0.13.0:520-568)
#: settings: {"targetVersions": {"megatron-core": "0.13.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --num-layers 32 --num-layers-per-virtual-pipeline-stage 32 \
#                   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[pipeline-config-invalid]
    --overlap-grad-reduce --micro-batch-size 1 --global-batch-size 8 --bf16
