#: name: fp8-config-invalid: a value the file cannot know for the optimizer flags leaves the check silent
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 \
    --bf16 --fp8-format hybrid --fp8-param-gather $OPTIMIZER_ARGS \
#                                                 ^^^^^^^^^^^^^^^ information[script-not-analysed]: OPTIMIZER_ARGS comes from the environment
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4

