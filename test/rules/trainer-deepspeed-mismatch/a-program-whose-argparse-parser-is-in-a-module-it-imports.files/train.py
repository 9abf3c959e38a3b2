import sys
from pathlib import Path

sys.path.append(str(Path(__file__).parent.parent))

from finetune.schemas import Args
from finetune.trainer import Trainer


def main():
    args = Args.parse_args()
    Trainer(args).fit()


if __name__ == "__main__":
    main()
