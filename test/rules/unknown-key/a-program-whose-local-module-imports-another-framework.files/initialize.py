from SwissArmyTransformer import get_args
from SwissArmyTransformer.model import GLM130B


def initialize(extra_args_provider):
    return get_args(extra_args_provider)
