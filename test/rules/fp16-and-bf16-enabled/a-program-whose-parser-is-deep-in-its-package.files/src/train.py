from tuner import run_exp

if __name__ == "__main__":
    run_exp()
