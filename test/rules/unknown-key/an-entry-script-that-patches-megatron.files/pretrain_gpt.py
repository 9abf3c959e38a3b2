"""Pretrain GPT on a Megatron-LM that a plugin package patches before use."""
import torch
from mindspeed_llm import megatron_adaptor
from megatron.training import get_args, pretrain


def main():
    pretrain(None, None, None, None)


if __name__ == "__main__":
    main()
