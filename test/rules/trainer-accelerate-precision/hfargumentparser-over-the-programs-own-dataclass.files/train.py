from dataclasses import dataclass, field

from accelerate import Accelerator
from transformers import AutoModelForCausalLM, HfArgumentParser


@dataclass
class ScriptArguments:
    model_name: str = field(default="gpt2")
    output_dir: str = field(default="out")
    learning_rate: float = field(default=1e-5)
    per_device_train_batch_size: int = field(default=2)
    gradient_accumulation_steps: int = field(default=1)
    bf16: bool = field(default=False, metadata={"help": "load the weights in bf16"})


def main():
    args = HfArgumentParser(ScriptArguments).parse_args_into_dataclasses()[0]
    accelerator = Accelerator()
    model = AutoModelForCausalLM.from_pretrained(args.model_name)
    print(accelerator.mixed_precision, model)


if __name__ == "__main__":
    main()
