#: name: trainer-deepspeed-mismatch: an entry script that reads its flags with its own argparse parser (no HfArgumentParser, no TrainingArguments) is not the Trainer's: nothing is compared (the Trainer's flags are read by HfArgumentParser: hf_argparser.py@v4.57.6:111, 272)
#: path: run.sh
deepspeed --num_gpus 8 --num_nodes 1 train.py --output_dir out --learning_rate 1e-5 --per_device_train_batch_size 4 --deepspeed ds.json
