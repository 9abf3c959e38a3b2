#: name: trainer-deepspeed-mismatch: a module read through `python -m` that defines the flags with its own argparse is no Trainer program, as a file would not be: nothing is reported
#: path: launch.sh
torchrun --nproc_per_node 2 -m mypkg.tool --output_dir ./out --fp16 \
    --per_device_train_batch_size 2 --gradient_accumulation_steps 1 --deepspeed ds.json
