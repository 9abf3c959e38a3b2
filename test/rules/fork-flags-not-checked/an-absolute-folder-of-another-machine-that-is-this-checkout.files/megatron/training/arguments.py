def _add_training_args(parser):
    group = parser.add_argument_group(title='training')
    group.add_argument('--num-layers', type=int)
    group.add_argument('--hidden-size', type=int)
    group.add_argument('--num-attention-heads', type=int)
    group.add_argument('--micro-batch-size', type=int)
    group.add_argument('--global-batch-size', type=int)
    group.add_argument('--bf16', action='store_true')
    group.add_argument('--no-async-tensor-model-parallel-allreduce', action='store_false', dest='async_tensor_model_parallel_allreduce')
    return parser
