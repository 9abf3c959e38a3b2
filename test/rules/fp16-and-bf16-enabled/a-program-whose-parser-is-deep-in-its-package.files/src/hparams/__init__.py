from .parser import get_train_args
