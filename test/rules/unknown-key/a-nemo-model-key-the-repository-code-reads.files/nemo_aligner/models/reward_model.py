class RewardModel:
    def __init__(self, cfg):
        self.cfg = cfg
        self.forward_micro_batch_size = self.cfg.get("forward_micro_batch_size", self.cfg.micro_batch_size)
