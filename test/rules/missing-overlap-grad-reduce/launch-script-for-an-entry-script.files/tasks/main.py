# Megatron-LM's tasks/main.py (core_v0.12.0:10-11) imports Megatron: its flags go to Megatron-LM's parser with its own added.
from megatron.training import get_args
from megatron.training.initialize import initialize_megatron

def get_tasks_args(parser):
    group = parser.add_argument_group(title='tasks')
    group.add_argument('--task', type=str, required=True)
    group.add_argument(
        '--epochs', type=int, default=None)
    return parser
