import argparse

from transformers import Trainer, TrainingArguments


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("-o", "--output_dir", type=str)
    parser.add_argument("-b", "--per-device-train-batch-size", type=int, default=4)
    parser.add_argument("--ds", "--deepspeed", dest="deepspeed", type=str)
    args = parser.parse_args()
    training_args = TrainingArguments(output_dir=args.output_dir, per_device_train_batch_size=args.per_device_train_batch_size // 2, deepspeed=args.deepspeed)
    Trainer(args=training_args).train()


if __name__ == "__main__":
    main()
