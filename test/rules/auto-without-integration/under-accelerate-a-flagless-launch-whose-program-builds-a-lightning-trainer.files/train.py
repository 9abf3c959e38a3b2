import lightning as L
from transformers import AutoModelForCausalLM


def main():
    model = AutoModelForCausalLM.from_pretrained("base")
    L.Trainer(strategy="deepspeed_stage_3").fit(model)
