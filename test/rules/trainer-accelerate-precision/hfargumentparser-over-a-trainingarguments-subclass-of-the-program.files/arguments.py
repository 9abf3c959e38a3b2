from dataclasses import dataclass, field

import transformers


@dataclass
class ScriptArguments:
    model_name: str = field(default="gpt2")


@dataclass
class TrainArgs(transformers.TrainingArguments):
    max_seq_length: int = field(default=2048)
