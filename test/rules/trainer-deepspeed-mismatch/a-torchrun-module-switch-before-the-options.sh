#: name: trainer-deepspeed-mismatch: torchrun's `-m` is a switch that takes no value: the module is torchrun's first word that is no option or option value, here after `--standalone` and `--nproc_per_node 2` (torch/distributed/run.py `-m/--module`, store_true)
#: path: launch.sh
torchrun -m --standalone --nproc_per_node 2 mypkg.finetune --output_dir ./out --fp16 \
    --per_device_train_batch_size 2 --gradient_accumulation_steps 1 --deepspeed ds.json
                                  ^ error[trainer-deepspeed-mismatch]: launch.sh and ds.json disagree: `--per_device_train_batch_size` is 2 and

