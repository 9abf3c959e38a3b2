from transformers import HfArgumentParser, TrainingArguments
parser = HfArgumentParser(TrainingArguments)
(args,) = parser.parse_args_into_dataclasses()
