from transformers import (
    HfArgumentParser,
    TrainingArguments,
)


def parse():
    return HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
