from transformers import HfArgumentParser, Seq2SeqTrainingArguments


def get_args():
    return HfArgumentParser((Seq2SeqTrainingArguments,)).parse_args_into_dataclasses()
