def add_extra_args(parser):
    group = parser.add_argument_group(title="extra")
    group.add_argument("--use-z-loss", action="store_true")
    return parser
