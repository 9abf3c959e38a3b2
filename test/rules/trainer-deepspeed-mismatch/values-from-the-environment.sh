#: name: trainer-deepspeed-mismatch: a flag from a variable the script does not set is unknown (nothing said); a `${VAR:-x}` fallback is an assumption (a warning) (the values compared as integrations/deepspeed.py@v4.57.6:141-157 compares them)
#: path: finetune.sh
torchrun --nproc_per_node 8 train.py \
    --output_dir out \
    --per_device_train_batch_size $BATCH \
    --gradient_accumulation_steps ${ACCUM:-8} \
#                                 ^^^^^^^^^^^ warning[trainer-deepspeed-mismatch]: This assumes `ACCUM` is not set when the script runs
    --deepspeed ds.json
