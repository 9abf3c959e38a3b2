#: name: deepspeed-config-file-missing: a `--deepspeed` value that is a name, not a path to a JSON file (`zero2`, which a wrapper such as ms-swift maps to a config of its own), is not judged
#: path: scripts/run.sh
#: files: none
#!/bin/bash
torchrun --nproc_per_node 8 train.py \
    --model_name_or_path Qwen/Qwen2.5-7B \
    --output_dir out \
    --per_device_train_batch_size 2 \
    --learning_rate 1e-5 \
    --deepspeed zero2
