from megatron.training import get_args
from megatron.training.initialize import initialize_megatron
from mypkg.tasks.infer import task_factory

if __name__ == "__main__":
    initialize_megatron(args_defaults={"no_load_rng": True})
    task_factory()
