from accelerate import Accelerator
from transformers import AutoModelForCausalLM


def main():
    accelerator = Accelerator()
    model = AutoModelForCausalLM.from_pretrained("base")
    model = accelerator.prepare(model)
