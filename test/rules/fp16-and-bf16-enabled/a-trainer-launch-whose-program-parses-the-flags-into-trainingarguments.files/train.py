import argparse

from transformers import HfArgumentParser, TrainingArguments

(training_args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
