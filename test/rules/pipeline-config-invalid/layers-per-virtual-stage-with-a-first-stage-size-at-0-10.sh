#: name: pipeline-config-invalid: at core_v0.10.0 the virtual-stage checks ignore the stage sizes, so 30 layers over PP 4 stop Megatron-LM at startup (training/arguments.py@core_v0.10.0:344-346)
#: settings: {"targetVersions": {"megatron-core": "0.10.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --num-layers 30 --pipeline-model-parallel-size 4 --decoder-first-pipeline-num-layers 6 --num-layers-per-virtual-pipeline-stage 4 \
#                                                                                          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[pipeline-config-invalid]: assert that PP 4 divides the 30 layers
    --overlap-grad-reduce --micro-batch-size 1 --global-batch-size 8 --bf16
