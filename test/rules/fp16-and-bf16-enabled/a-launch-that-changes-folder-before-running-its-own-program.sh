#: name: fp16-and-bf16-enabled: a launch script that changes to the program's folder first (`cd "$(dirname "${BASH_SOURCE[0]}")/../sft/"`, then `deepspeed main.py`) runs the `main.py` of that folder, which defines `--fp16` and `--bf16` with its own argparse: the program is looked for where the `cd` leads, so the launch is not a Trainer launch and nothing is reported
#: path: scripts/run_sft.sh
#!/usr/bin/env bash
cd "$(dirname "${BASH_SOURCE[0]}")/../sft/"

deepspeed main.py \
	--model_name_or_path /base_model \
	--per_device_train_batch_size 1 \
	--learning_rate 2e-6 \
	--num_train_epochs 4 \
	--gradient_accumulation_steps 1 \
	--output_dir ./finetuned_model \
	--fp16 \
	--bf16
