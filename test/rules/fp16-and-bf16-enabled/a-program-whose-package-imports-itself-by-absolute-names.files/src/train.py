from pkg.tuner import get_args

if __name__ == "__main__":
    get_args()
