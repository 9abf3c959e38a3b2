#: name: trainer-deepspeed-mismatch: `llamafactory-cli train --stage sft … --deepspeed ds.json` with no recipe file: LLaMA-Factory reads the flags with HfArgumentParser (src/llamafactory/hparams/parser.py@ff6d4d1:125-126,156), so they are checked against the JSON as a recipe is (transformers integrations/deepspeed.py@v4.57.6:141-146, raised at 269-274)
#: path: train.sh
FORCE_TORCHRUN=1 NPROC_PER_NODE=8 llamafactory-cli train \
  --stage sft --finetuning_type full --model_name_or_path Qwen/Qwen2.5-7B \
  --per_device_train_batch_size 4 --gradient_accumulation_steps 2 \
                                ^ error[trainer-deepspeed-mismatch]: sets `train_micro_batch_size_per_gpu` to 2
  --learning_rate 1e-5 --output_dir out --bf16 true --deepspeed ds.json
