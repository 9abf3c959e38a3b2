#: name: deepspeed-config-file-missing: a Transformers Trainer launch whose `--deepspeed` names a JSON that is not there: TrainingArguments hands the path to Accelerate's HfDeepSpeedConfig, which stops before training on a path that does not exist and is neither JSON text nor base64 (accelerate src/accelerate/utils/deepspeed.py@v1.2.1:121-136): a warning, the launch folder being an assumption
#: path: scripts/run.sh
#: files: none
#!/bin/bash
torchrun --nproc_per_node 8 train.py \
    --model_name_or_path Qwen/Qwen2.5-Coder-7B \
    --output_dir out \
    --per_device_train_batch_size 2 \
    --learning_rate 1e-5 \
    --deepspeed configs/ds_z3_offload.json
#               ^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[deepspeed-config-file-missing]: Expected a string path to an existing deepspeed config
