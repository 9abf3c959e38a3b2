#: name: recompute-config-invalid: 61 layers over PP 8 with `--decoder-first-pipeline-num-layers 5` (the other stages 8 each): a count of 9 is more than the largest stage holds, so no stage has that many layers (judged by the largest stage, not 61 // 8)
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --tensor-model-parallel-size 1 --pipeline-model-parallel-size 8 \
    --decoder-first-pipeline-num-layers 5 --num-layers 61 \
    --hidden-size 1024 --num-attention-heads 16 --seq-length 4096 --max-position-embeddings 4096 \
    --micro-batch-size 1 --global-batch-size 8 --bf16 \
    --recompute-granularity full --recompute-method block --recompute-num-layers 9
                                                          ^^^^^^^^^^^^^^^^^^^^^^ warning[recompute-config-invalid]: more than the 8 layers the largest pipeline stage holds
