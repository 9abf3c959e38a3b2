from absl import app, flags

flags.DEFINE_string("output_dir", "out", "where")
flags.DEFINE_bool("bf16", False, "bf16")


def main(argv):
    pass


if __name__ == "__main__":
    app.run(main)
