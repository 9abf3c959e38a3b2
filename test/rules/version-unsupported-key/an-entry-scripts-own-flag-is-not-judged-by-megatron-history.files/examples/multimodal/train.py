from megatron.training import pretrain


def add_multimodal_extra_args(parser):
    group = parser.add_argument_group(title='multimodal arguments')
    group.add_argument('--freeze-LM', action='store_true', default=False)
    return parser


if __name__ == "__main__":
    pretrain(None, None, None, None, extra_args_provider=add_multimodal_extra_args)
