#: name: trainer-deepspeed-mismatch: `python -m torch.distributed.run --module mypkg.finetune`: the first `-m` names the launcher, its `--module` the program
#: path: launch.sh
python -m torch.distributed.run --nproc_per_node 2 --module mypkg.finetune --output_dir ./out --fp16 \
    --per_device_train_batch_size 2 --gradient_accumulation_steps 1 --deepspeed ds.json
                                  ^ error[trainer-deepspeed-mismatch]: launch.sh and ds.json disagree: `--per_device_train_batch_size` is 2 and

