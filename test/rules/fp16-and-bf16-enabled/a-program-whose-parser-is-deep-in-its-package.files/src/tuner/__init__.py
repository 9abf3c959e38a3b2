from .tune import run_exp
