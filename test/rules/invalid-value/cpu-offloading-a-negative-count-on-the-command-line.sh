#: name: invalid-value: on Megatron-LM's command line only a count above 0 turns CPU offloading on (training/arguments.py@core_v0.16.0:1236-1237, @core_v0.19.0:1869-1870) and there is no --cpu-offloading flag: a negative count leaves it off and unread, a note that names no flag for the switch
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --seq-length 2048 --max-position-embeddings 2048 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --cpu-offloading-num-layers -1
#                               ^^ information[invalid-value]: which Megatron-LM's command line turns on only for a count above 0 (transformer_config.py@core_v0.6.0:301-306); it is off here, so the value is unused.
