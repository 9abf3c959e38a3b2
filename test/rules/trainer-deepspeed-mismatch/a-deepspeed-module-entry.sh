#: name: trainer-deepspeed-mismatch: `deepspeed --module mypkg.finetune` runs the module as `python -u -m` does (deepspeed/launcher/runner.py@v0.19.5:141-146, launch.py@v0.19.5:250-259): a Trainer launch (integrations/deepspeed.py@v4.57.6:186-197)
#: path: launch.sh
deepspeed --num_nodes 1 --num_gpus 2 --module mypkg.finetune \
    --output_dir ./out --fp16 --per_device_train_batch_size 2 --gradient_accumulation_steps 1 \
                                                            ^ error[trainer-deepspeed-mismatch]: launch.sh and ds.json disagree: `--per_device_train_batch_size` is 2 and
    --deepspeed ds.json
