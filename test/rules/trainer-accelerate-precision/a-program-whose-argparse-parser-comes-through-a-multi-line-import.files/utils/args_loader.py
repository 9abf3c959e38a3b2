import argparse


def parse_args(input_args=None):
    parser = argparse.ArgumentParser(description="fine-tune a diffusion model")
    parser.add_argument("--pretrained_model_name_or_path", type=str)
    parser.add_argument("--output_dir", type=str)
    parser.add_argument("--learning_rate", type=float, default=5e-6)
    parser.add_argument("--report_to", type=str, default="tensorboard")
    parser.add_argument("--train_batch_size", type=int, default=4)
    parser.add_argument("--bf16", action="store_true")
    return parser.parse_args(input_args)
