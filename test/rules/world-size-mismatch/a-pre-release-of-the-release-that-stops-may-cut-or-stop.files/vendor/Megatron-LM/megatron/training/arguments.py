def _add_training_args(parser):
    group = parser.add_argument_group(title='training')
    group.add_argument('--num-layers', type=int)
    group.add_argument('--pipeline-model-parallel-size', type=int, default=1)
    return parser
