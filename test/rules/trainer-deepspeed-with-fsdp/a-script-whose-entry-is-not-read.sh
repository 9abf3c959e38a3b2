#: name: trainer-deepspeed-with-fsdp: `--fsdp` with `--deepspeed` for an entry script that is not there to read: that it parses them as TrainingArguments is an assumption, so a warning (trainer.py@v4.57.6:571-575)
#: path: finetune.sh
torchrun --nproc_per_node 8 train.py --output_dir out --per_device_train_batch_size 4 --fsdp "full_shard auto_wrap" --deepspeed ds.json
#                                                                                     ^^^^^^ warning[trainer-deepspeed-with-fsdp]: This assumes `train.py` (not read here)
