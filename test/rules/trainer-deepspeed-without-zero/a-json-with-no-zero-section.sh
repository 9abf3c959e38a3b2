#: name: trainer-deepspeed-without-zero: a JSON without `zero_optimization` stops the TrainingArguments (accelerate utils/dataclasses.py@v1.14.0:1274-1275, built from transformers training_args.py@v4.57.6:2074-2081)
#: path: finetune.sh
torchrun --nproc_per_node 2 train.py --output_dir out --per_device_train_batch_size 4 --deepspeed ds_fp16.json
#                                                                                                 ^^^^^^^^^^^^ error[trainer-deepspeed-without-zero]: ds_fp16.json has no `zero_optimization` section
