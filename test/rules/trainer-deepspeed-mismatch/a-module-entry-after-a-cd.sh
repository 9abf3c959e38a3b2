#: name: trainer-deepspeed-mismatch: after `cd src`, `torchrun -m mypkg.finetune` finds the package in the folder the command starts in (`src/mypkg/finetune/__main__.py`), as a path would be found there
#: path: launch.sh
cd src
torchrun --nproc_per_node 2 -m mypkg.finetune --output_dir ./out --fp16 \
    --per_device_train_batch_size 2 --gradient_accumulation_steps 1 --deepspeed ../ds.json
                                  ^ error[trainer-deepspeed-mismatch]: launch.sh and ../ds.json disagree: `--per_device_train_batch_size` is 2 and

