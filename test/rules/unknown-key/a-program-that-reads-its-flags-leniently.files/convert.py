from megatron.training.arguments import parse_args

args = parse_args(ignore_unknown_args=True)
print(args.num_layers)
