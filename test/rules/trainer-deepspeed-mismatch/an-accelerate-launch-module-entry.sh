#: name: trainer-deepspeed-mismatch: `accelerate launch -m mypkg.finetune` runs the module (commands/launch.py@v1.14.0:350-355, utils/launch.py@v1.14.0:127): a Trainer launch
#: path: launch.sh
accelerate launch --num_processes 2 -m mypkg.finetune --output_dir ./out --fp16 \
    --per_device_train_batch_size 2 --gradient_accumulation_steps 1 --deepspeed ds.json
                                  ^ error[trainer-deepspeed-mismatch]: launch.sh and ds.json disagree: `--per_device_train_batch_size` is 2 and

