#: name: trainer-deepspeed-mismatch: an entry script that defines the Trainer's flags with argparse itself (a short alias first, the dashed spelling) and builds TrainingArguments from them is not read by HfArgumentParser: nothing is compared (the Trainer's flags are read by HfArgumentParser: hf_argparser.py@v4.57.6:111, 272)
#: path: run.sh
torchrun --nproc_per_node 8 train.py --output_dir out --per-device-train-batch-size 4 --deepspeed ds.json
