from mylib.model import build


def main():
    build()


if __name__ == "__main__":
    main()
