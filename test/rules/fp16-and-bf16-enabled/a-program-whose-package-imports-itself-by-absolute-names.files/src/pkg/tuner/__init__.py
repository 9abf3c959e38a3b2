from pkg.tuner.core import get_args
