#: name: trainer-deepspeed-mismatch: a torchrun script's flags against its JSON: bf16 asked, fp16 enabled there; 4 × 4 × 2 = 32 matches train_batch_size (integrations/deepspeed.py@v4.57.6:139-157, 186-197)
#: path: scripts/finetune.sh
#!/bin/bash
torchrun --nproc_per_node 4 train.py \
    --model_name_or_path meta-llama/Llama-2-7b-hf \
    --output_dir out \
    --per_device_train_batch_size 4 \
    --gradient_accumulation_steps 2 \
    --learning_rate 2e-5 \
    --bf16 True \
    --deepspeed ds.json
#               ^^^^^^^ error[trainer-deepspeed-mismatch]: finetune.sh and ds.json disagree: `--fp16` is not set (default False), so fp16|fp16_full_eval is False, but ds.json sets `fp16.enabled` to True
