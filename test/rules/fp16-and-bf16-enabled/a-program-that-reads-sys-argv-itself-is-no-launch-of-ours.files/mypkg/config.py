from dataclasses import dataclass

from omegaconf import OmegaConf


@dataclass
class TrainConfig:
    seed: int = 0

    @classmethod
    def load(cls, path, overrides):
        return OmegaConf.merge(OmegaConf.structured(cls), OmegaConf.load(path), OmegaConf.from_dotlist(overrides))
