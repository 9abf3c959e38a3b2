import argparse

from transformers import Trainer
from transformers.training_args import TrainingArguments

parser = argparse.ArgumentParser()
parser.add_argument("--lr", type=float, default=1e-5)
parser.add_argument("--micro-batch-size", type=int, default=4)
parser.add_argument("--weight-decay", type=float, default=0.0)
parser.add_argument("--adam-beta1", type=float, default=0.9)
parser.add_argument("--adam-beta2", type=float, default=0.999)
parser.add_argument("--bf16", action="store_true")
parser.add_argument("--fp16", action="store_true")
args = parser.parse_args()

training_args = TrainingArguments(
    output_dir="out",
    learning_rate=args.lr,
    per_device_train_batch_size=args.micro_batch_size,
    weight_decay=args.weight_decay,
    bf16=args.bf16,
    fp16=args.fp16 and not args.bf16,
)
