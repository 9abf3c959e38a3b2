parser.add_argument('--export-dir', type=str)
parser.add_argument("--pretrained-model-name", type=str)
