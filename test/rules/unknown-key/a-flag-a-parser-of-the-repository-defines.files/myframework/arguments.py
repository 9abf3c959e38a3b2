"""The framework's own flags, added to Megatron-LM's through extra_args_provider."""


def add_framework_args(parser):
    group = parser.add_argument_group(title="my framework")
    group.add_argument("--my-framework-flag", type=int, default=0)
    group.add_argument("--rollout-batch-size", "--rollout-bs", type=int, default=32)
    return parser
