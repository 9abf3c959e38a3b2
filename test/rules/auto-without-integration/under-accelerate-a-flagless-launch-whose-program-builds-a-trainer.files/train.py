from transformers import HfArgumentParser, TrainingArguments
from my_project.data import load
from my_project.trainer import LLaVATrainer


def main():
    (args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
    LLaVATrainer(model=None, args=args, train_dataset=load()).train()
