import argparse


def parse_args():
    parser = argparse.ArgumentParser()
    group = parser.add_argument_group('model')
    group.add_argument('--num-layers', type=int)
    group.add_argument('--hidden-size', type=int)
    group.add_argument('--num-attention-heads', type=int)
    group.add_argument('--seq-length', type=int)
    group.add_argument('--max-position-embeddings', type=int)
    group.add_argument('--micro-batch-size', type=int)
    group.add_argument('--global-batch-size', type=int)
    group.add_argument('--tensor-model-parallel-size', type=int, default=1)
    group.add_argument('--pipeline-model-parallel-size', type=int, default=1)
    group.add_argument('--sequence-parallel', action='store_true')
    group.add_argument('--use-distributed-optimizer', action='store_true')
    group.add_argument('--bf16', action='store_true')
    return parser.parse_args()
