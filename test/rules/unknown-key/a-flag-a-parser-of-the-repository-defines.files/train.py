from megatron.training import pretrain

from myframework.arguments import add_framework_args

if __name__ == "__main__":
    pretrain(None, None, None, None, extra_args_provider=add_framework_args)
