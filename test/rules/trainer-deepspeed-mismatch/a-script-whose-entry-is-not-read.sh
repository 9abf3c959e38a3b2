#: name: trainer-deepspeed-mismatch: a training script that is not there to read is taken to use the Trainer's parser, so the mismatch is a warning naming that (integrations/deepspeed.py@v4.57.6:139-157, 186-197, raised at 269-274)
#: path: scripts/finetune.sh
#!/bin/bash
deepspeed --num_gpus 4 train.py \
    --output_dir out \
    --per_device_train_batch_size 4 \
    --gradient_accumulation_steps 2 \
    --learning_rate 2e-5 \
    --fp16 False \
#          ^^^^^ warning[trainer-deepspeed-mismatch]: This assumes `train.py` (not read here) is taken to read these flags with the Transformers HfArgumentParser
    --deepspeed ds.json
