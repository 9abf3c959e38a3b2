import torch
from initialize import initialize

if __name__ == "__main__":
    args = initialize(extra_args_provider=None)
