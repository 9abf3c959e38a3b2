#: name: trainer-deepspeed-mismatch: the DeepSpeed launcher without `--num_nodes` runs on every node of its hostfile, so one node is an assumption: a warning (deepspeed launcher/runner.py@v0.19.5:36, 86-90: `--num_nodes` defaults to -1, every host of the hostfile)
#: path: finetune.sh
deepspeed --num_gpus 8 train.py \
    --output_dir out \
    --per_device_train_batch_size 4 \
#                                 ^ warning[trainer-deepspeed-mismatch]: with 8 processes (assumed: the DeepSpeed launcher runs on one node
    --gradient_accumulation_steps 2 \
    --deepspeed ds.json
