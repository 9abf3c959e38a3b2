from megatron.training import pretrain


def main():
    pretrain(None, None, None, None)
