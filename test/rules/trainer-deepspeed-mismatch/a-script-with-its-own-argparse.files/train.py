import argparse

import deepspeed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--output_dir", type=str)
    parser.add_argument("--learning_rate", type=float, default=1e-5)
    parser.add_argument("--per-device-train-batch-size", type=int, default=4)
    parser.add_argument("--ds", dest="deepspeed", type=str)
    args = parser.parse_args()
    engine, *_ = deepspeed.initialize(config=args.deepspeed)
