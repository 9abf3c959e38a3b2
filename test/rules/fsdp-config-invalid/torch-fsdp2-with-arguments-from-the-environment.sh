#: name: fsdp-config-invalid: arguments the script takes from the environment may turn gradient accumulation fusion off, so FSDP2 is not judged on it
#: path: train.sh
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=8
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 \
    --bf16 --use-torch-fsdp2 --untie-embeddings-and-output-weights ${EXTRA_ARGS} \
#                                                                  ^^^^^^^^^^^^^ information[script-not-analysed]: EXTRA_ARGS comes from the environment
    --micro-batch-size 1 --global-batch-size 8 --ckpt-format torch_dist --overlap-grad-reduce --train-iters 10 --lr 1e-4
