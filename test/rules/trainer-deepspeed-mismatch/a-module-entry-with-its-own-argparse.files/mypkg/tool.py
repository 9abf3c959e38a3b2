import argparse

parser = argparse.ArgumentParser()
parser.add_argument("--output_dir")
parser.add_argument("--per_device_train_batch_size", type=int)
parser.add_argument("--gradient_accumulation_steps", type=int)
parser.add_argument("--fp16", action="store_true")
parser.add_argument("--deepspeed")
args = parser.parse_args()
