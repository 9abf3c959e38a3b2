from transformers import AutoTokenizer
from utils.args_loader import (
    parse_args,
)


def main():
    args = parse_args()
    print(args, AutoTokenizer)


if __name__ == "__main__":
    main()
