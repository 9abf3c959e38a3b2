#: name: missing-overlap-grad-reduce: Megatron-FSDP 0.14 and 0.15 assert the gradient overlap with the optim_grads strategy and neither the argument checks nor the wrapper turn it on (megatron_fsdp.py@core_v0.14.0:259-270; 0.16 turns it on, core_v0.16.0:277-279): the run stops without --overlap-grad-reduce
#: path: train.sh
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
torchrun --nproc_per_node 8 pretrain_gpt.py \
^^^^^^^^ error[missing-overlap-grad-reduce]: the wrapper asserts it
    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \
    --seq-length 4096 --max-position-embeddings 4096 \
    --use-megatron-fsdp --data-parallel-sharding-strategy optim_grads --ckpt-format fsdp_dtensor \
    --use-distributed-optimizer \
    ^^^^^^^^^^^^^^^^^^^^^^^^^^^ information[missing-overlap-param-gather]
    --micro-batch-size 1 --global-batch-size 64 --bf16
