from pkg.tuner.core.parser import get_args
