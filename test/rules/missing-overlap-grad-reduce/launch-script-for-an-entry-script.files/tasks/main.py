def get_tasks_args(parser):
    group = parser.add_argument_group(title='tasks')
    group.add_argument('--task', type=str, required=True)
    group.add_argument(
        '--epochs', type=int, default=None)
    return parser
