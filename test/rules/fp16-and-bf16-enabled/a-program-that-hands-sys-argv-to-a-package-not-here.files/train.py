import sys

from outside.cli import main

main(sys.argv[1:])
