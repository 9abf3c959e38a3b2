from transformers import HfArgumentParser, TrainingArguments

if __name__ == "__main__":
    (training_args,) = HfArgumentParser((TrainingArguments,)).parse_args_into_dataclasses()
