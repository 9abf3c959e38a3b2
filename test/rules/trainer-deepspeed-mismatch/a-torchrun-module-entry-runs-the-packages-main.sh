#: name: trainer-deepspeed-mismatch: `torchrun -m mypkg.finetune` runs the package's `__main__.py` (torchrun's `-m/--module` switch, torch/distributed/run.py; Python runs a package's `__main__` for `-m`); found beside the script, it hands the flags to HfArgumentParser, so the launch is a Trainer launch and 2 × 1 × 2 = 4 is compared with the JSON's 64 (integrations/deepspeed.py@v4.57.6:186-197; FlagOpen/FlagEmbedding@7ed43d6 examples/finetune/embedder/decoder_only/base.sh:63-64)
#: path: launch.sh
torchrun --nproc_per_node 2 \
    -m mypkg.finetune \
    --output_dir ./out \
    --fp16 \
    --per_device_train_batch_size 2 \
                                  ^ error[trainer-deepspeed-mismatch]: launch.sh and ds.json disagree: `--per_device_train_batch_size` is 2 and
    --gradient_accumulation_steps 1 \
    --deepspeed ds.json
