from omegaconf import OmegaConf


def main(cfg) -> None:
    # One batch per GPU for the reward model: the global batch follows the devices.
    cfg.model.global_batch_size = cfg.trainer.devices * cfg.trainer.num_nodes * cfg.model.micro_batch_size
    OmegaConf.set_struct(cfg, True)
