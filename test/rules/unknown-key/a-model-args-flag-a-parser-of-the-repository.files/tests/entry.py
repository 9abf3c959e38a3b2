import argparse


def extra_args(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.add_argument('--golden-values-path', type=str)
    parser.add_argument(
        "--test-case-timeout",
        type=int,
        default=3600,
    )
    return parser
