def add_retro_args(parser):
    parser.add_argument("--retriever-seq-length", type=int, default=256)
    return parser
