import sys
from omegaconf import OmegaConf

cfg = OmegaConf.from_cli(sys.argv[1:])
