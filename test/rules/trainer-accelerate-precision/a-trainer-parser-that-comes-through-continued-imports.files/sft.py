from utils \
    import args as cli


def main():
    (training_args,) = cli.parse()
    print(training_args)


if __name__ == "__main__":
    main()
