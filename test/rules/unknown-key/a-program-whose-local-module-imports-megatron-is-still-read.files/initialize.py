from megatron.training import get_args, initialize_megatron


def initialize():
    initialize_megatron()
    return get_args()
