import fire


def main(output_dir="out", bf16=False, fp16=False):
    pass


if __name__ == "__main__":
    fire.Fire(main)
