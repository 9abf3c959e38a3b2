from transformers import HfArgumentParser, Trainer

from arguments import ScriptArguments, TrainArgs


def main():
    parser = HfArgumentParser((ScriptArguments, TrainArgs))
    script_args, training_args = parser.parse_args_into_dataclasses()
    print(script_args, Trainer, training_args)


if __name__ == "__main__":
    main()
