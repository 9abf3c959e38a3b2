import argparse
from mypkg.utils import auto_coverage


@auto_coverage
def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--load-dir', type=str, required=True)
    parser.add_argument('--save-dir', type=str, required=True)
    parser.add_argument('--target-pipeline-parallel-size', type=int, default=1)
    parser.add_argument('--expert-tensor-parallel-size', type=int, default=1)
    parser.add_argument('--moe-grouped-gemm', action='store_true')
    parser.add_argument('--mtp-num-layers', type=int, default=0)
    args, unknown = parser.parse_known_args()
    print(args)


if __name__ == '__main__':
    main()
