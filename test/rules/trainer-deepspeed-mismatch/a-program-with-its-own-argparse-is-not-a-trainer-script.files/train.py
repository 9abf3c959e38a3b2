import argparse

import torch

from rnnt.model import RNNT


def parse_args():
    parser = argparse.ArgumentParser(description="RNN-T training")
    parser.add_argument("--dataset_dir", required=True)
    parser.add_argument("--val_manifest")
    parser.add_argument("--model_config")
    parser.add_argument("--epochs", type=int)
    parser.add_argument("--beta1", type=float)
    parser.add_argument("--output_dir")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--weight_decay", type=float)
    return parser.parse_args()


if __name__ == "__main__":
    RNNT(parse_args()).fit()
