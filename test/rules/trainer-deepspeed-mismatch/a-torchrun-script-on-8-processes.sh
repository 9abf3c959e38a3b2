#: name: trainer-deepspeed-mismatch: on 8 processes: bf16 asked, fp16 enabled there; 8 × 4 × 2 = 64 does not match train_batch_size 32 (integrations/deepspeed.py@v4.57.6:139-157, 186-197)
#: path: scripts/finetune.sh
#!/bin/bash
torchrun --nproc_per_node 8 train.py \
    --model_name_or_path meta-llama/Llama-2-7b-hf \
    --output_dir out \
    --per_device_train_batch_size 4 \
#                                 ^ error[trainer-deepspeed-mismatch]: `--per_device_train_batch_size` is 4 and `--gradient_accumulation_steps` is 2, with 8 processes (world = 8 processes per node × 1 node, from the torchrun options), so train_batch_size (calculated) is 64, but ds.json sets `train_batch_size` to 32
    --gradient_accumulation_steps 2 \
    --learning_rate 2e-5 \
    --bf16 True \
    --deepspeed ds.json
#               ^^^^^^^ error[trainer-deepspeed-mismatch]: `--fp16` is not set (default False), so fp16|fp16_full_eval is False
