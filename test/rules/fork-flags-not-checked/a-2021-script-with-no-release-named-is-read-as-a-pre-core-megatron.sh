#: name: fork-flags-not-checked: a standalone 2021-era script (`--checkpoint-activations`, `--DDP-impl`, `--data-impl`) with no release named, no pin and no checkout is read as the pre-Core Megatron-LM it was written for: no error for its flags
#: path: /project/examples/pretrain_gpt_distributed.sh
#!/bin/bash
GPUS_PER_NODE=8
DISTRIBUTED_ARGS="--nproc_per_node $GPUS_PER_NODE --nnodes 1 --node_rank 0 --master_addr localhost --master_port 6000"
python -m torch.distributed.launch $DISTRIBUTED_ARGS \
^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ information[fork-flags-not-checked]: a Megatron-LM from before Megatron Core 0.4.0 (it passes `--checkpoint-activations`, `--DDP-impl`
       pretrain_gpt.py \
       --num-layers 24 --hidden-size 1024 --num-attention-heads 16 \
       --micro-batch-size 8 --global-batch-size 64 \
       --seq-length 1024 --max-position-embeddings 1024 \
       --data-impl mmap \
       --split 949,50,1 \
       --checkpoint-activations \
       --DDP-impl local \
       --fp16
