import sys

from mypkg.config import TrainConfig


def main(cfg: TrainConfig) -> None:
    print(cfg)


if __name__ == "__main__":
    yaml_path, args_list = sys.argv[1], sys.argv[2:]
    main(TrainConfig.load(yaml_path, [a.lstrip("-") for a in args_list]))
