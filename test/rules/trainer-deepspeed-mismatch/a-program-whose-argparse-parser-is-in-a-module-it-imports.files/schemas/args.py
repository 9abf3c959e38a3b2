import argparse


class Args:
    @classmethod
    def parse_args(cls):
        parser = argparse.ArgumentParser()
        parser.add_argument("--output_dir", type=str)
        parser.add_argument("--report_to", type=str)
        parser.add_argument("--seed", type=int)
        parser.add_argument("--batch_size", type=int, default=1)
        parser.add_argument("--gradient_accumulation_steps", type=int, default=1)
        parser.add_argument("--deepspeed", type=str)
        return parser.parse_args()
