from megatron.training import pretrain
