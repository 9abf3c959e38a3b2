#: name: recompute-config-invalid: `uniform` with 4 over 61 layers on PP 8 with a first stage of 5 (the others 8): 4 divides the stages of 8 but not the first stage's 5, where the uniform loop before 0.17 checkpoints layers 4..7 of a chunk of 5 (transformer_block.py@core_v0.16.0:326,532-541) and fails with an IndexError
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --tensor-model-parallel-size 1 --pipeline-model-parallel-size 8 \
    --decoder-first-pipeline-num-layers 5 --num-layers 61 \
    --hidden-size 1024 --num-attention-heads 16 --seq-length 4096 --max-position-embeddings 4096 \
    --micro-batch-size 1 --global-batch-size 8 --bf16 \
    --recompute-granularity full --recompute-method uniform --recompute-num-layers 4
                                                            ^^^^^^^^^^^^^^^^^^^^^^ error[recompute-config-invalid]: does not divide the 5 layers one pipeline stage holds
