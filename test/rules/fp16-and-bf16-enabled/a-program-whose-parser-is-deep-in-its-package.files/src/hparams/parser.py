from transformers import HfArgumentParser, TrainingArguments


def get_train_args():
    return HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
