import megatron.training.arguments
