import argparse

import torch

from mymodel import Model


def add_args(parser):
    group = parser.add_argument_group("model")
    group.add_argument("--num-layers", type=int)
    group.add_argument("--hidden-size", type=int)
    group.add_argument("--num-attention-heads", type=int)
    group.add_argument("--seq-length", type=int)
    group.add_argument("--micro-batch-size", type=int)
    group.add_argument("--load", type=str)
    group.add_argument("--temperature", type=float)
    group.add_argument("--top-p", type=float)
    return parser


def main():
    parser = add_args(argparse.ArgumentParser())
    args = parser.parse_args()
    Model(args).generate()


if __name__ == "__main__":
    main()
