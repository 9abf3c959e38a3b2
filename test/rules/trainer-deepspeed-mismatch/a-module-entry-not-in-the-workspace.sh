#: name: trainer-deepspeed-mismatch: a module the workspace does not hold (an installed package) is not read, as a program path that is not there: the Trainer's parser is assumed, so the mismatch is a warning naming that
#: path: launch.sh
torchrun --nproc_per_node 2 -m otherpkg.finetune --output_dir ./out --fp16 \
    --per_device_train_batch_size 2 --gradient_accumulation_steps 1 --deepspeed ds.json
                                  ^ warning[trainer-deepspeed-mismatch]: This assumes `otherpkg.finetune` (not read here) is taken to read these flags with the Transformers HfArgumentParser
