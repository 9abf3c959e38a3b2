#: name: invalid-value: a template's `<PATH TO gpt-vocab.json>` left for the user to fill in (as Megatron-LM's examples/pretrain_gpt3_175B.sh@f2e72c8a16^ writes inside its options string, run with sh -c) is a placeholder, not three words nor a redirection: its value is unknown, nothing is said about it
#!/bin/bash
# shardwise-disable memory-exceeds-hbm, missing-overlap-grad-reduce -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
options=" \
    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \
    --seq-length 4096 --max-position-embeddings 4096 --bf16 \
    --micro-batch-size 1 --global-batch-size 64 \
    --vocab-file <PATH TO gpt-vocab.json> \
    --save <PATH TO CHECKPOINTS DIRECTORY> "
run_cmd="python -u pretrain_gpt.py ${options}"
srun -l sh -c "${run_cmd}"
torchrun --nproc_per_node 8 pretrain_gpt.py ${options} --load <CHECKPOINT_DIR>
