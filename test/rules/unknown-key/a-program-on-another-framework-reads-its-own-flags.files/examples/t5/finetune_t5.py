import argparse

import bmtrain as bmp
import torch
from model_center.model import T5


def get_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model-config", type=str)
    parser.add_argument("--batch-size", type=int)
    return parser.parse_known_args()[0]


def main():
    bmp.init_distributed()
    args = get_args()
    model = T5.from_pretrained(args.model_config)


if __name__ == "__main__":
    main()
