from transformers import HfArgumentParser

from mytrainer.args import ModelArguments, TrainArgs

model_args, training_args = HfArgumentParser((ModelArguments, TrainArgs)).parse_args_into_dataclasses()
