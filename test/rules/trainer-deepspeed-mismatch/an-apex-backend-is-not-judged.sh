#: name: trainer-deepspeed-mismatch: with the deprecated `--fp16_backend apex` the Trainer holds fp16.enabled to False (integrations/deepspeed.py@v4.57.6:172-190), which Shardwise does not model: fp16 is not compared
#: path: finetune.sh
torchrun --nproc_per_node 2 train.py --output_dir out --per_device_train_batch_size 4 --fp16 True --fp16_backend apex --deepspeed ds.json
