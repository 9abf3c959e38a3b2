from hparams import get_train_args


def run_exp():
    get_train_args()
