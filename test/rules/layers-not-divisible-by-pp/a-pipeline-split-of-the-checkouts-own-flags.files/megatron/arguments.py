def _add_distributed_args(parser):
    group = parser.add_argument_group(title='distributed')
    group.add_argument('--pipeline-model-parallel-size', type=int, default=1)
    group.add_argument('--pipeline-model-parallel-method', type=str, default='uniform', choices=['uniform', 'block'])
    group.add_argument('--pipeline-model-parallel-blocks', type=str, default=None)
    return parser
